/**
 * The WebApp API, defined schema-first: `platform.converge.dev/v1` (the storage version, and the one
 * the controller reads) and the older `v1alpha1`, still served, which called the replica count
 * `instances`. The TypeScript types, the resource descriptors and the CRD
 * (`platform.converge.dev_webapps.yaml`, written by `converge generate`; `crd.yaml` links to it) all
 * come from the definition below. `conversion.ts` converts between the two versions behind the
 * Service that `conversion` names; cert-manager injects its CA into the CRD.
 */
import { Conditions, defineCustomResource, type PrinterColumn } from 'kube-converge/schema';
import { Type, type Static } from 'typebox';

const image = Type.String({ minLength: 1, description: 'Container image to run.' });
/** The replica count, under whichever name the version gives it. */
const replicaCount = Type.Optional(Type.Integer({ format: 'int32', minimum: 0, maximum: 100, default: 1, description: 'Number of pods.' }));
const port = Type.Optional(
  Type.Integer({ format: 'int32', minimum: 1, maximum: 65535, default: 8080, description: 'Container port the Service targets.' }),
);
const configRef = Type.Optional(Type.String({ description: 'Name of a ConfigMap in the same namespace; a change to it rolls the pods.' }));

const WebAppSpec = Type.Object({ image, replicas: replicaCount, port, configRef });
export type WebAppSpec = Static<typeof WebAppSpec>;

/** The `v1alpha1` spec: as `v1`, with the replica count named `instances`. */
const WebAppSpecV1alpha1 = Type.Object({ image, instances: replicaCount, port, configRef });
export type WebAppSpecV1alpha1 = Static<typeof WebAppSpecV1alpha1>;

const WebAppStatus = Type.Object({
  observedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  readyReplicas: Type.Optional(Type.Integer({ format: 'int32' })),
  // `metav1.Condition` as Kubernetes publishes it: what the controller's condition helpers write.
  conditions: Type.Optional(Conditions()),
});
export type WebAppStatus = Static<typeof WebAppStatus>;

/** The columns of `kubectl get webapps`, with the replica count under the version's name for it. */
const columns = (countField: string): PrinterColumn[] => [
  { name: 'Image', type: 'string', jsonPath: '.spec.image' },
  { name: 'Desired', type: 'integer', jsonPath: `.spec.${countField}` },
  { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
  { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

export const WebApp = defineCustomResource({
  group: 'platform.converge.dev',
  kind: 'WebApp',
  shortNames: ['wa'],
  categories: ['all'],
  scope: 'Namespaced',
  description: 'A stateless web application run as a Deployment behind a Service.',
  versions: {
    v1: {
      served: true,
      storage: true,
      spec: WebAppSpec,
      status: WebAppStatus,
      subresources: { status: true },
      printerColumns: columns('replicas'),
    },
    v1alpha1: {
      served: true,
      storage: false,
      spec: WebAppSpecV1alpha1,
      status: WebAppStatus,
      subresources: { status: true },
      printerColumns: columns('instances'),
    },
  },
  // What the webhook server serves at `/convert` (`webAppConversionBlock`; conversion.test.ts checks the two agree).
  conversion: {
    strategy: 'Webhook',
    service: { namespace: 'webapp-system', name: 'webapp-webhook-service', path: '/convert' },
    conversionReviewVersions: ['v1', 'v1beta1'],
  },
  crdAnnotations: { 'cert-manager.io/inject-ca-from': 'webapp-system/webapp-webhook-cert' },
});

/** The `v1alpha1` descriptor, for clients still on the old version and for the conversion. */
export const WebAppV1alpha1 = WebApp.versions.v1alpha1;

/** The finalizer guarding the external cleanup. */
export const WEBAPP_FINALIZER = 'platform.converge.dev/external-cleanup';
/** Pod-template annotation carrying the hash of the referenced ConfigMap's data. */
export const CONFIG_HASH_ANNOTATION = 'platform.converge.dev/config-hash';
/** Field index: WebApps by the ConfigMap they reference (namespaced value). */
export const CONFIG_REF_INDEX = 'spec.configRef';
