/**
 * The built-in kinds this server serves, one record each, in the order they are registered. Adding a
 * kind is its file (strategy, printer, record) and one line here; `test/apiserver/builtin-kinds.test.ts`
 * fails for a served kind that lacks a part.
 */
import {
  mutatingAdmissionPolicyBindingKind,
  mutatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  validatingAdmissionPolicyKind,
} from './admission-policy.js';
import { apiServiceKind } from './apiservice.js';
import type { BuiltinKind } from './builtin-kind.js';

export type { BuiltinKind } from './builtin-kind.js';
import { configMapKind } from './configmap.js';
import { crdKind } from './crd.js';
import { coreEventKind, eventsV1Kind } from './event.js';
import { leaseKind } from './lease.js';
import { namespaceKind } from './namespace.js';
import { podKind } from './pod.js';
import { REVIEW_KINDS } from './review.js';
import { secretKind } from './secret.js';
import { serviceKind } from './service.js';
import { serviceAccountKind } from './serviceaccount.js';
import { storedBuiltin } from './stored-builtin.js';
import { mutatingWebhookConfigurationKind, validatingWebhookConfigurationKind } from './webhook-configuration.js';
import { deploymentKind, replicaSetKind } from './workload.js';

/** Every built-in kind. */
export const BUILTIN_KINDS: readonly BuiltinKind[] = [
  namespaceKind,
  configMapKind,
  secretKind,
  serviceKind,
  serviceAccountKind,
  podKind,
  coreEventKind,
  deploymentKind,
  replicaSetKind,
  eventsV1Kind,
  leaseKind,
  crdKind,
  apiServiceKind,
  storedBuiltin('StatefulSet'),
  storedBuiltin('DaemonSet'),
  storedBuiltin('Job'),
  storedBuiltin('CronJob'),
  storedBuiltin('ReplicationController'),
  storedBuiltin('PodTemplate'),
  storedBuiltin('ResourceQuota'),
  storedBuiltin('LimitRange'),
  storedBuiltin('Endpoints'),
  storedBuiltin('EndpointSlice'),
  storedBuiltin('Node'),
  storedBuiltin('PersistentVolumeClaim'),
  storedBuiltin('PersistentVolume'),
  storedBuiltin('Ingress'),
  storedBuiltin('NetworkPolicy'),
  storedBuiltin('PodDisruptionBudget'),
  storedBuiltin('HorizontalPodAutoscaler'),
  storedBuiltin('PriorityClass'),
  storedBuiltin('StorageClass'),
  validatingWebhookConfigurationKind,
  mutatingWebhookConfigurationKind,
  storedBuiltin('Role'),
  storedBuiltin('RoleBinding'),
  storedBuiltin('ClusterRole'),
  storedBuiltin('ClusterRoleBinding'),
  validatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  mutatingAdmissionPolicyKind,
  mutatingAdmissionPolicyBindingKind,
  ...REVIEW_KINDS,
];
