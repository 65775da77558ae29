/**
 * What the server serves, described once: the registry produces one `ServedResource` per
 * (group, version, resource), and discovery, OpenAPI and Table output are all generated from it, so
 * they can never disagree with what the REST handlers accept. Pure data, no behaviour.
 */
import type { JSONSchemaProps, CustomResourceColumnDefinition } from 'kubernetes-types/apiextensions/v1.js';

export type { JSONSchemaProps, CustomResourceColumnDefinition };

/** A subresource (`status` or `scale`) of a `ServedResource`, with the kind it returns and the verbs it allows. */
export interface ServedSubresource {
  /** `status` or `scale`. */
  name: string;
  /** Kind returned by the subresource (`Scale` in `autoscaling/v1` for scale). */
  responseKind: { group: string; version: string; kind: string };
  verbs: string[];
}

/** One (group, version, resource) the server serves; discovery, OpenAPI and Table output are all derived from it. @extension */
export interface ServedResource {
  group: string;
  version: string;
  kind: string;
  /** Lower-case plural (the URL segment). */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Alphabetically sorted discovery verbs. */
  verbs: string[];
  subresources: ServedSubresource[];
  /** Structural schema of the whole object (CRDs); absent for built-ins served without a schema. */
  schema?: JSONSchemaProps;
  /** Printer columns (CRD `additionalPrinterColumns`; built-ins carry a printer on their strategy instead). */
  printerColumns?: CustomResourceColumnDefinition[];
  /** True for custom resources (served from a CRD). */
  custom: boolean;
}
