/**
 * The WebApp API: `platform.converge.dev/v1` (the storage version, and the one the controller
 * reads) and the older `v1alpha1`, still served, which called the replica count `instances`. Their
 * TypeScript types and resource descriptors; the CRD in `crd.yaml` is the server-side truth and these
 * types mirror it field for field. `conversion.ts` converts between the two.
 */
import { defineResource, type Condition } from 'kube-converge/meta';

export interface WebAppSpec {
  image: string;
  /** Defaulted to 1 by the CRD schema. */
  replicas?: number;
  /** Defaulted to 8080 by the CRD schema. */
  port?: number;
  /** A ConfigMap in the WebApp's namespace; its content hash rolls the pods. */
  configRef?: string;
}

export interface WebAppStatus {
  observedGeneration?: number;
  readyReplicas?: number;
  conditions?: Condition[];
}

export const WebApp = defineResource<WebAppSpec, WebAppStatus>({
  group: 'platform.converge.dev',
  version: 'v1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

/** The `v1alpha1` spec: as `v1`, with the replica count named `instances`. */
export interface WebAppSpecV1alpha1 {
  image: string;
  /** Defaulted to 1 by the CRD schema. */
  instances?: number;
  port?: number;
  configRef?: string;
}

export const WebAppV1alpha1 = defineResource<WebAppSpecV1alpha1, WebAppStatus>({
  group: 'platform.converge.dev',
  version: 'v1alpha1',
  kind: 'WebApp',
  plural: 'webapps',
  namespaced: true,
});

/** The finalizer guarding the external cleanup. */
export const WEBAPP_FINALIZER = 'platform.converge.dev/external-cleanup';
/** Pod-template annotation carrying the hash of the referenced ConfigMap's data. */
export const CONFIG_HASH_ANNOTATION = 'platform.converge.dev/config-hash';
/** Field index: WebApps by the ConfigMap they reference (namespaced value). */
export const CONFIG_REF_INDEX = 'spec.configRef';
