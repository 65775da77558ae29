/**
 * The WebApp API (`platform.converge.dev/v1alpha1`): its TypeScript types and its resource descriptor.
 * The CRD in `crd.yaml` is the server-side truth; these types mirror it field for field.
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
