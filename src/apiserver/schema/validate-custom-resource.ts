/**
 * The whole validation of a custom resource against its version's schema, in kube-apiserver's
 * order: the OpenAPI checks first, then the uniqueness of set and map lists, then the CEL rules —
 * unless the checks before found a value of the wrong type or outside its enum, in which case the
 * rules are not run (they could not be trusted to type-check) and one cause says so. On an update
 * every step ratchets (validation ratcheting, GA in 1.33): OpenAPI causes on unchanged values are
 * dropped, list uniqueness is checked only when the old object kept it, and failures of rules
 * that are not transition rules on unchanged values become warnings. Returns the causes for a 422
 * and the warnings of ratcheted rules.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { hasRules } from './cel-rules.js';
import { validateCelRules } from './cel-validate.js';
import { CorrelatedObject } from './correlated-object.js';
import { fieldCause, type FieldCause } from './field-cause.js';
import { validateAgainstSchema } from './validate.js';
import { embeddedResourceErrors } from './embedded-resource.js';

export interface CustomResourceValidation {
  causes: FieldCause[];
  warnings: string[];
}

const BLOCKING = new Set(['FieldValueTypeInvalid', 'FieldValueNotSupported']);

/** Validates `obj` (and, on update, its transition from `old`) against `schema`. */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps, old?: unknown): CustomResourceValidation {
  const correlation = old === undefined ? undefined : new CorrelatedObject(obj, old, schema);
  const causes = [
    ...validateAgainstSchema(obj, schema, old, correlation),
    ...embeddedResourceErrors(obj, schema, { isResourceRoot: false }),
  ];
  if (!hasRules(schema)) return { causes, warnings: [] };
  if (causes.some((c) => BLOCKING.has(c.reason))) {
    const skipped = fieldCause.invalid(
      '',
      null,
      'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
    return { causes: [...causes, skipped], warnings: [] };
  }
  const cel = validateCelRules(obj, schema, old, correlation);
  return { causes: [...causes, ...cel.causes], warnings: cel.warnings };
}
