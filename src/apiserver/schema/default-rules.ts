/**
 * The checks apiextensions-apiserver applies to the `default`s of a structural schema
 * (https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/defaulting/validation.go):
 * defaults are copied into objects without being checked again, so each must already be what the
 * server would store — nothing pruning would drop, embedded objects with valid apiVersion, kind and
 * metadata, and valid against the schema it sits in. A default inside the `apiVersion`, `kind` or
 * `metadata` of an embedded object is checked as part of that object. `additionalProperties` are
 * not followed: the OpenAPI rules forbid defaults where they matter there.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { embeddedResourceErrors } from './embedded-resource.js';
import { extensionsOf } from './extensions.js';
import { fieldCause, childPath } from './field-cause.js';
import type { FieldCause } from './field-cause.js';
import { jsonEqual } from '../../meta/index.js';
import { pruneUnknownFields } from './prune.js';
import { validateAgainstSchema } from './validate.js';

/** One step from an embedded object down to a default inside its metadata: a property, or a list item. */
type Step = { key: string } | 'item';

const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** The problems of the defaults in `schema` (a resource root), with paths under `path`. */
export function defaultErrors(schema: JSONSchemaProps, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  visit(schema, path, true, undefined, causes);
  return causes;
}

/**
 * `steps` is undefined outside resource meta; inside, it leads from the enclosing embedded object
 * (or the root) to `s`, to rebuild the object a default there would be part of.
 */
function visit(s: JSONSchemaProps, path: string, isResource: boolean, steps: Step[] | undefined, causes: FieldCause[]): void {
  const embedded = isResource || extensionsOf(s)['x-kubernetes-embedded-resource'] === true;
  if (embedded) steps = undefined;
  if (s.default !== undefined && s.default !== null) {
    const at = childPath(path, 'default');
    causes.push(...(steps === undefined ? ownDefaultErrors(s, at, embedded) : metaDefaultErrors(s, at, steps)));
  }
  if (typeof s.items === 'object' && !Array.isArray(s.items)) {
    visit(s.items, childPath(path, 'items'), false, steps === undefined ? undefined : [...steps, 'item'], causes);
  }
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const inMeta = steps !== undefined ? [...steps, { key: name }] : embedded && RESOURCE_FIELDS.has(name) ? [{ key: name }] : undefined;
    visit(child, `${childPath(path, 'properties')}[${name}]`, false, inMeta, causes);
  }
}

function ownDefaultErrors(s: JSONSchemaProps, at: string, embedded: boolean): FieldCause[] {
  const pruned = structuredClone(s.default);
  pruneUnknownFields(pruned, s, { isResourceRoot: embedded });
  if (!jsonEqual(pruned, s.default)) return [fieldCause.invalid(at, s.default, 'must not have unknown fields')];
  const embeddedErrors = embeddedResourceErrors(s.default, s, { isResourceRoot: embedded });
  if (embeddedErrors.length > 0) return embeddedErrors.map((c) => ({ ...c, field: c.field === '' ? at : `${at}.${c.field}` }));
  return schemaErrors(s, at);
}

/** A default inside resource meta must make the surrounding object's metadata valid. */
function metaDefaultErrors(s: JSONSchemaProps, at: string, steps: Step[]): FieldCause[] {
  let value: unknown = structuredClone(s.default);
  for (const step of [...steps].reverse()) value = step === 'item' ? [value] : { [step.key]: value };
  const object = { apiVersion: 'validation/v1', kind: 'Validation', ...(value as object) };
  const meta = embeddedResourceErrors(object, {}, { isResourceRoot: true });
  if (meta.length > 0) {
    const detail = meta.map((c) => `${c.field}: ${c.message}`).join(', ');
    return [fieldCause.invalid(at, s.default, `must result in valid metadata: ${meta.length > 1 ? `[${detail}]` : detail}`)];
  }
  return schemaErrors(s, at);
}

function schemaErrors(s: JSONSchemaProps, at: string): FieldCause[] {
  return validateAgainstSchema(s.default, s).map((c) => ({ ...c, field: c.field === '' ? at : `${at}.${c.field}` }));
}
