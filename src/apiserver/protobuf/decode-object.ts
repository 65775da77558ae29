/**
 * A protobuf request body (`Content-Type: application/vnd.kubernetes.protobuf`, which kubectl
 * 1.32+ sends from its typed `create` commands) as the same plain object the JSON form of the
 * request decodes to, and the protobuf `DeleteOptions` of a DELETE likewise. Only the kinds a
 * server's registry declares are decoded (each built-in kind's record names its message); any other
 * kind, and any field the message tables do not model, is a 415 that tells the user to send JSON or
 * YAML, so that no part of an object is ever dropped silently. Malformed bytes are a 400.
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
import { compileMessages, type MessageTable } from './message-schema.js';
import { META_MESSAGES } from './meta-messages.js';
import { NETWORKING_MESSAGES } from './networking-messages.js';
import { POLICY_AUTOSCALING_MESSAGES } from './policy-autoscaling-messages.js';
import { ProtobufDecodeError } from './protobuf-decode-error.js';
import { RBAC_MESSAGES } from './rbac-messages.js';
import { SCHEDULING_MESSAGES } from './scheduling-messages.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** The message tables of every built-in kind, compiled once: most servers decode with these alone. */
const BUILTIN_TABLES: readonly MessageTable[] = [
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
  SCHEDULING_MESSAGES,
];
const builtinDecoder = new MessageDecoder(compileMessages(BUILTIN_TABLES));

/** A kind whose protobuf request bodies are decoded: its apiVersion and kind, and the top-level message that holds it. */
export interface ProtobufKind {
  apiVersion: string;
  kind: string;
  message: string;
}

const USE_JSON = 'send the object as JSON or YAML instead (for example kubectl create -f FILE)';

/**
 * Decodes an enveloped protobuf body with the message `messageFor` picks for its apiVersion and
 * kind (undefined: a 415 that lists `expected`).
 */
function decodeEnveloped(
  decoder: MessageDecoder,
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

/**
 * The protobuf request bodies one server decodes: the kinds its registry declares, with the
 * messages of the built-in tables and of any tables those kinds bring along. Invariant: a kind is
 * decoded only through a message some table defines (checked once, when the set is made, not per
 * body), and an undeclared kind is a 415.
 */
export class ProtobufBodies {
  readonly #messages = new Map<string, string>();
  readonly #decoder: MessageDecoder;
  readonly #expected: string;

  constructor(kinds: readonly ProtobufKind[], tables: readonly MessageTable[] = []) {
    this.#decoder = tables.length === 0 ? builtinDecoder : new MessageDecoder(compileMessages([...BUILTIN_TABLES, ...tables]));
    for (const k of kinds) {
      if (!this.#decoder.has(k.message))
        throw new Error(`protobuf: ${k.apiVersion} ${k.kind} names message ${k.message}, which no table defines`);
      this.#messages.set(`${k.apiVersion}/${k.kind}`, k.message);
    }
    this.#expected = kinds.map((k) => `${k.apiVersion} ${k.kind}`).join(', ');
  }

  /** The top-level message of `apiVersion`/`kind`, or undefined when its protobuf bodies are not decoded. */
  messageOf(apiVersion: string, kind: string): string | undefined {
    return this.#messages.get(`${apiVersion}/${kind}`);
  }

  /** Decodes an enveloped protobuf object of one of the declared kinds. */
  decodeObject(body: string | Uint8Array): KubeObject {
    const bytes = toBytes(body);
    if (bytes.length === 0) throw badRequest('the body of the request was empty: expected a Kubernetes object');
    const { apiVersion, kind, fields } = decodeEnveloped(this.#decoder, bytes, (v, k) => this.messageOf(v, k), this.#expected);
    return { apiVersion, kind, ...fields, metadata: fields['metadata'] ?? {} } as KubeObject;
  }
}

/**
 * Decodes the protobuf `DeleteOptions` typed clients send with a DELETE (kubectl 1.32+ `drain`
 * does), under whatever group version the request addresses; an empty body means no options.
 */
export function decodeProtobufDeleteOptions(body: string | Uint8Array): Record<string, unknown> {
  const bytes = toBytes(body);
  if (bytes.length === 0) return {};
  const { apiVersion, kind, fields } = decodeEnveloped(
    builtinDecoder,
    bytes,
    (_v, k) => (k === 'DeleteOptions' ? 'DeleteOptions' : undefined),
    'DeleteOptions',
  );
  return { apiVersion, kind, ...fields };
}
