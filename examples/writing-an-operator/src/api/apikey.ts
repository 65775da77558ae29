/**
 * The ApiKey API (`tutorial.converge.dev/v1alpha1`) of the step-by-step guide
 * (docs/writing-an-operator.md): its spec and status types and its resource descriptor. The CRD in
 * `crd.yaml` is what the API server enforces; these types mirror it field for field.
 */
import { defineResource, type Condition, type ObjectOf } from 'kube-converge/meta';

export interface ApiKeySpec {
  /** The issuer's service the key is for, e.g. `billing`. */
  service: string;
}

export interface ApiKeyStatus {
  /** The `metadata.generation` this status was computed from. */
  observedGeneration?: number;
  /** The Secret that holds the current key, under `token`. */
  secretName?: string;
  /** When the current key was issued (RFC 3339). */
  rotatedAt?: string;
  conditions?: Condition[];
}

export const ApiKey = defineResource<ApiKeySpec, ApiKeyStatus>({
  group: 'tutorial.converge.dev',
  version: 'v1alpha1',
  kind: 'ApiKey',
  plural: 'apikeys',
  namespaced: true,
});
/** An ApiKey as the client returns it: metadata, spec and (once written) status. */
export type ApiKeyObject = ObjectOf<typeof ApiKey>;

/** Keeps a deleted ApiKey until its key is revoked at the issuer. */
export const REVOKE_FINALIZER = 'tutorial.converge.dev/revoke-key';
/** The ConfigMap, one per namespace, whose `rotationMinutes` says how often that namespace's keys rotate. */
export const POLICY_CONFIGMAP = 'apikey-policy';
export const DEFAULT_ROTATION_MINUTES = 24 * 60;
