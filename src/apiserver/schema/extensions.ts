/**
 * The Kubernetes vendor extensions of a CRD schema (`x-kubernetes-*`). `kubernetes-types` models
 * `JSONSchemaProps` without them, so they are read through this one typed view.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';

/** One `x-kubernetes-validations` entry: a CEL rule and how its failure is reported. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface SchemaExtensions {
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

export function extensionsOf(schema: JSONSchemaProps): SchemaExtensions {
  return schema as SchemaExtensions;
}
