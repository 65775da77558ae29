/**
 * The Kubernetes vendor extensions of a CRD schema (`x-kubernetes-*`). `kubernetes-types` models
 * `JSONSchemaProps` without them, so they are read through this one typed view.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';

export interface SchemaExtensions {
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
}

export function extensionsOf(schema: JSONSchemaProps): SchemaExtensions {
  return schema as SchemaExtensions;
}
