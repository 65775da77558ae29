/**
 * The whole validation of a custom resource against its version's schema, in kube-apiserver's
 * order: the OpenAPI checks first, then the CEL rules — unless the OpenAPI checks found a value of
 * the wrong type or outside its enum, in which case the rules are not run (they could not be
 * trusted to type-check) and one cause says so. Returns the causes for a 422 and the warnings of
 * ratcheted rules.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { hasRules } from './cel-rules.js';
import { validateCelRules } from './cel-validate.js';
import { fieldCause, type FieldCause } from '../ground/index.js';
import { validateAgainstSchema } from './validate.js';

export interface CustomResourceValidation {
  causes: FieldCause[];
  warnings: string[];
}

const BLOCKING = new Set(['FieldValueTypeInvalid', 'FieldValueNotSupported']);

/** Validates `obj` (and, on update, its transition from `old`) against `schema`. */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps, old?: unknown): CustomResourceValidation {
  const causes = validateAgainstSchema(obj, schema);
  if (!hasRules(schema)) return { causes, warnings: [] };
  if (causes.some((c) => BLOCKING.has(c.reason))) {
    const skipped = fieldCause.invalid(
      '',
      null,
      'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
    return { causes: [...causes, skipped], warnings: [] };
  }
  const cel = validateCelRules(obj, schema, old);
  return { causes: [...causes, ...cel.causes], warnings: cel.warnings };
}
