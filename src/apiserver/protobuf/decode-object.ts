/**
 * A protobuf request body (`Content-Type: application/vnd.kubernetes.protobuf`, which kubectl
 * 1.32+ sends from its typed `create` commands) as the same plain object the JSON form of the
 * request decodes to, and the protobuf `DeleteOptions` of a DELETE likewise. Only the kinds in
 * `PROTOBUF_KINDS` are decoded; any other kind, and any field the message tables do not model, is
 * a 415 that tells the user to send JSON or YAML, so that no part of an object is ever dropped
 * silently. Malformed bytes are a 400.
 */
import type { KubeObject } from '../../meta/index.js';
import { badRequest, unsupportedMediaType } from '../ground/index.js';
import { APPS_MESSAGES } from './apps-messages.js';
import { AUTHENTICATION_MESSAGES } from './authentication-messages.js';
import { AUTHORIZATION_MESSAGES } from './authorization-messages.js';
import { BATCH_MESSAGES } from './batch-messages.js';
import { COORDINATION_EVENTS_MESSAGES } from './coordination-events-messages.js';
import { CORE_MESSAGES } from './core-messages.js';
import { MessageDecoder } from './decode-message.js';
import { readEnvelope } from './envelope.js';
import { compileMessages } from './message-schema.js';
import { META_MESSAGES } from './meta-messages.js';
import { NETWORKING_MESSAGES } from './networking-messages.js';
import { POLICY_AUTOSCALING_MESSAGES } from './policy-autoscaling-messages.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { RBAC_MESSAGES } from './rbac-messages.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** `apiVersion/kind` → top-level message, for every kind whose protobuf body this server decodes. */
export const PROTOBUF_KINDS: Readonly<Record<string, string>> = {
  'v1/Namespace': 'Namespace',
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/ServiceAccount': 'ServiceAccount',
  'v1/Service': 'Service',
  'v1/Pod': 'Pod',
  'v1/Event': 'Event',
  'apps/v1/Deployment': 'Deployment',
  'apps/v1/ReplicaSet': 'ReplicaSet',
  'apps/v1/DaemonSet': 'DaemonSet',
  'apps/v1/StatefulSet': 'StatefulSet',
  'batch/v1/Job': 'Job',
  'batch/v1/CronJob': 'CronJob',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'ClusterRoleBinding',
  'networking.k8s.io/v1/Ingress': 'Ingress',
  'policy/v1/PodDisruptionBudget': 'PodDisruptionBudget',
  'policy/v1/Eviction': 'Eviction',
  'autoscaling/v2/HorizontalPodAutoscaler': 'HorizontalPodAutoscaler',
  'coordination.k8s.io/v1/Lease': 'Lease',
  'events.k8s.io/v1/Event': 'EventsV1Event',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SubjectAccessReview': 'SubjectAccessReview',
  'authorization.k8s.io/v1/LocalSubjectAccessReview': 'LocalSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
  'authentication.k8s.io/v1/SelfSubjectReview': 'SelfSubjectReview',
};

const decoder = new MessageDecoder(
  compileMessages([
    META_MESSAGES,
    CORE_MESSAGES,
    APPS_MESSAGES,
    BATCH_MESSAGES,
    RBAC_MESSAGES,
    NETWORKING_MESSAGES,
    POLICY_AUTOSCALING_MESSAGES,
    COORDINATION_EVENTS_MESSAGES,
    AUTHENTICATION_MESSAGES,
    AUTHORIZATION_MESSAGES,
  ]),
);

const USE_JSON = 'send the object as JSON or YAML instead (for example kubectl create -f FILE)';

/**
 * Decodes an enveloped protobuf body with the message `messageFor` picks for its apiVersion and
 * kind (undefined: a 415 that lists `expected`).
 */
function decodeEnveloped(
  bytes: Uint8Array,
  messageFor: (apiVersion: string, kind: string) => string | undefined,
  expected: string,
): { apiVersion: string; kind: string; fields: Record<string, unknown> } {
  let typeName = 'object';
  try {
    const envelope = readEnvelope(bytes);
    typeName = `${envelope.apiVersion} ${envelope.kind}`;
    if (envelope.contentEncoding !== '' || (envelope.contentType !== '' && envelope.contentType !== PROTOBUF_MEDIA_TYPE)) {
      throw unsupportedMediaType(
        `the protobuf body of this ${typeName} is wrapped with encoding "${envelope.contentEncoding}" and type "${envelope.contentType}", which this server does not decode: ${USE_JSON}`,
      );
    }
    const message = messageFor(envelope.apiVersion, envelope.kind);
    if (message === undefined)
      throw unsupportedMediaType(`this server decodes protobuf request bodies only for ${expected}, not for ${typeName}: ${USE_JSON}`);
    return { apiVersion: envelope.apiVersion, kind: envelope.kind, fields: decoder.decode(message, envelope.raw) };
  } catch (e) {
    if (!(e instanceof ProtobufDecodeError)) throw e;
    if (e.httpCode === 415)
      throw unsupportedMediaType(`the protobuf body of this ${typeName} has ${e.message}, which this server does not decode: ${USE_JSON}`);
    throw badRequest(`the protobuf body of the request is malformed: ${e.message}`);
  }
}

/** A body given as a string (as `handle()` callers may) is taken as its UTF-8 bytes. */
const toBytes = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

const KNOWN_KINDS = Object.keys(PROTOBUF_KINDS)
  .map((k) => k.replace(/\/(?=[^/]+$)/, ' '))
  .join(', ');

/** Decodes an enveloped protobuf object of one of `PROTOBUF_KINDS`. */
export function decodeProtobufObject(body: string | Uint8Array): KubeObject {
  const bytes = toBytes(body);
  if (bytes.length === 0) throw badRequest('the body of the request was empty: expected a Kubernetes object');
  const { apiVersion, kind, fields } = decodeEnveloped(bytes, (v, k) => PROTOBUF_KINDS[`${v}/${k}`], KNOWN_KINDS);
  return { apiVersion, kind, ...fields, metadata: fields['metadata'] ?? {} } as KubeObject;
}

/**
 * Decodes the protobuf `DeleteOptions` typed clients send with a DELETE (kubectl 1.32+ `drain`
 * does), under whatever group version the request addresses; an empty body means no options.
 */
export function decodeProtobufDeleteOptions(body: string | Uint8Array): Record<string, unknown> {
  const bytes = toBytes(body);
  if (bytes.length === 0) return {};
  const { apiVersion, kind, fields } = decodeEnveloped(
    bytes,
    (_v, k) => (k === 'DeleteOptions' ? 'DeleteOptions' : undefined),
    'DeleteOptions',
  );
  return { apiVersion, kind, ...fields };
}
