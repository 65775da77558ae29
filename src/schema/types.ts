/**
 * The input of `defineCustomResource`, as types: names, scope, per version the TypeBox spec and
 * status with printer columns, subresources and selectable fields, how the versions are converted;
 * and the CRD type `crd()` returns.
 */
import type { TSchema } from 'typebox';
import type { CustomResourceDefinitionResource, ObjectOf } from '../meta/index.js';

/** A printer column (`kubectl get` shows it): a JSONPath into the object and how to show it. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  /** 0 shows the column always, higher only with `-o wide`. */
  priority?: number;
}

/** The scale subresource: where replicas live in spec and status, and the selector for autoscalers. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One served version of the resource. */
export interface VersionDefinition<Spec extends TSchema = TSchema, St extends TSchema = TSchema> {
  spec: Spec;
  status?: St;
  served: boolean;
  storage: boolean;
  printerColumns?: readonly PrinterColumn[];
  subresources?: { status?: boolean; scale?: ScaleSubresource };
  /** JSONPaths (`.spec.color`) a field selector may name for this version. */
  selectableFields?: readonly string[];
  /** `true`, or the warning the API server returns to clients of this version. */
  deprecated?: boolean | string;
}

/** The ConversionReview versions the API server sends; a webhook names the ones it understands. */
export type ConversionReviewVersion = 'v1' | 'v1beta1';

/** The Service a conversion webhook runs behind, inside the cluster. */
export interface ConversionService {
  namespace: string;
  name: string;
  /** The URL path on the Service, starting with `/` (`/convert`). */
  path?: string;
  /** Default 443, as the API server defaults it. */
  port?: number;
}

/**
 * How the API server converts objects between versions (`spec.conversion`). `None` only rewrites
 * `apiVersion`, so it suits versions whose schemas agree; `Webhook` sends each conversion to a
 * webhook reached through a Service in the cluster or an `https://` URL (never both).
 */
export type ConversionDefinition =
  | { strategy: 'None' }
  | ({
      strategy: 'Webhook';
      /** The ConversionReview versions the webhook understands, preferred first. */
      conversionReviewVersions: readonly [ConversionReviewVersion, ...ConversionReviewVersion[]];
    } & ({ service: ConversionService; url?: never } | { url: string; service?: never }));

/** A CustomResourceDefinition as the runtime handles objects: with `metadata`. */
export type CustomResourceDefinition = ObjectOf<typeof CustomResourceDefinitionResource>;

/** The input of `defineCustomResource`. */
export interface CustomResourceInput<V extends Record<string, VersionDefinition> = Record<string, VersionDefinition>> {
  group: string;
  kind: string;
  /** Lower-case URL plural; derived from `kind` by English rules when left out (`Policy` → `policies`). */
  plural?: string;
  /** Lower-case singular; defaults to the lower-cased kind. */
  singular?: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  scope: 'Namespaced' | 'Cluster';
  /** What the kind is, as the root schema of every version says it (`kubectl explain` prints it). */
  description?: string;
  versions: V;
  /** Left out, the API server takes `None`; versions whose fields differ need a `Webhook` to carry values across. */
  conversion?: ConversionDefinition;
  /** Annotations of the CustomResourceDefinition object itself, such as cert-manager's `cert-manager.io/inject-ca-from`. */
  crdAnnotations?: Readonly<Record<string, string>>;
}
