/**
 * One custom resource put through what the server does to it on a write, without a server:
 * defaulting, pruning of unknown fields, then the OpenAPI and CEL validation (transition rules
 * when an old object is given, defaulted the same way). The input is not modified. The schema's
 * own problems (not structural, rules that do not compile or cost too much) are reported
 * beside, since the server would refuse such a CRD before any object reached it.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { celSchemaErrors } from './cel-schema-check.js';
import { preexistingExpressions } from './cel-rules.js';
import { applyDefaults } from './defaults.js';
import { NEWEST_MINOR, type FieldCause } from '../ground/index.js';
import { pruneUnknownFields } from './prune.js';
import { validateStructuralSchema } from './structural.js';
import { validateCustomResource } from './validate-custom-resource.js';

/** What the server would make of one custom resource write. @extension */
export interface CustomResourceCheck {
  /** The object after defaulting and pruning, as the server would store it. */
  object: Record<string, unknown>;
  /** The causes of a 422 `Invalid` answer; empty when the object is valid. */
  causes: FieldCause[];
  /** Warnings the server would send (failures of rules on values an update left unchanged). */
  warnings: string[];
  /** Paths of fields the schema does not know (pruned, or refused under `fieldValidation=Strict`). */
  unknownFields: string[];
  /** What is wrong with the schema itself, with paths under `schemaPath`. */
  schemaProblems: FieldCause[];
}

/**
 * Checks `obj` (and its change from `old`, on an update) against a CRD version's schema, which
 * sits at `schemaPath` in the CRD (for error paths, e.g. `spec.versions[0].schema.openAPIV3Schema`).
 * @extension
 */
export function checkCustomResource(schema: JSONSchemaProps, obj: unknown, old: unknown, schemaPath: string): CustomResourceCheck {
  const schemaProblems = problemsOf(schema, schemaPath);
  const object = structuredClone(obj) as Record<string, unknown>;
  applyDefaults(object, schema);
  const unknownFields = pruneUnknownFields(object, schema).map((p) => p.replace(/^\./, ''));
  let oldObject: unknown;
  if (old !== undefined) {
    oldObject = structuredClone(old);
    applyDefaults(oldObject as Record<string, unknown>, schema);
    pruneUnknownFields(oldObject as Record<string, unknown>, schema);
  }
  const { causes, warnings } = validateCustomResource(object, schema, oldObject);
  return { object, causes, warnings, unknownFields, schemaProblems };
}

const problems = new WeakMap<JSONSchemaProps, Map<string, FieldCause[]>>();

/** The schema's own problems, found once per schema: a CRD's schema is checked on every object otherwise. */
function problemsOf(schema: JSONSchemaProps, path: string): FieldCause[] {
  let byPath = problems.get(schema);
  if (byPath === undefined) problems.set(schema, (byPath = new Map()));
  let found = byPath.get(path);
  if (found === undefined) {
    const structural = validateStructuralSchema(schema, path);
    // As a CRD created on a server of the newest minor would have its rules checked.
    found = structural.length > 0 ? structural : celSchemaErrors(schema, path, preexistingExpressions(NEWEST_MINOR, []));
    byPath.set(path, found);
  }
  return found;
}
