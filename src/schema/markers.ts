/**
 * Kubernetes' schema extensions attached to any TypeBox schema, typed: CEL rules, list types (atomic,
 * set, map with its keys), map types, embedded resources and preserved unknown fields. Each returns a
 * copy of the schema with the same static type (TypeBox's `Type.With` keeps its `Optional` and
 * `Readonly` marks), so markers compose with the schema they mark.
 */
import { Type, type Static, type TArray, type TSchema } from 'typebox';

/** One CEL rule (`x-kubernetes-validations`); `self` is the marked value, `oldSelf` its previous value on update. */
export interface ValidationRule {
  rule: string;
  message?: string;
  /** A CEL expression producing the message (wins over `message`). */
  messageExpression?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** The field the failure is reported at, relative to the marked value (`.spec.replicas`). */
  fieldPath?: string;
  /** Run the rule on create too, with `oldSelf` an optional that is empty then. */
  optionalOldSelf?: boolean;
}

const mark = <T extends TSchema>(schema: T, extensions: Record<string, unknown>): T => Type.With(schema, extensions) as unknown as T;

/** Adds CEL rules to a schema (after any it already has). */
export function withValidations<T extends TSchema>(schema: T, rules: readonly ValidationRule[]): T {
  const existing = (schema as { 'x-kubernetes-validations'?: ValidationRule[] })['x-kubernetes-validations'] ?? [];
  return mark(schema, { 'x-kubernetes-validations': [...existing, ...rules.map((r) => ({ ...r }))] });
}

/** A list merged as one value by server-side apply (the default for lists). */
export const listAtomic = <T extends TArray>(schema: T): T => mark(schema, { 'x-kubernetes-list-type': 'atomic' });

/** A list of unique scalars, merged as a set by server-side apply. */
export const listSet = <T extends TArray>(schema: T): T => mark(schema, { 'x-kubernetes-list-type': 'set' });

/** A list of objects identified by `keys` (each required or defaulted), merged item by item by server-side apply. */
export function listMap<Item extends TSchema>(
  schema: TArray<Item>,
  keys: readonly [keyof Static<Item> & string, ...(keyof Static<Item> & string)[]],
): TArray<Item> {
  return mark(schema, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': [...keys] });
}

/** How server-side apply merges an object or map: field by field (`granular`, the default) or as one value (`atomic`). */
export const mapType = <T extends TSchema>(schema: T, type: 'granular' | 'atomic'): T => mark(schema, { 'x-kubernetes-map-type': type });

/**
 * A whole Kubernetes object embedded in a field (`apiVersion`, `kind`, `metadata` are checked as an
 * object's would be). Without a schema its other fields are kept as they are.
 */
export function embeddedResource<T extends TSchema = ReturnType<typeof Type.Unknown>>(schema?: T): T {
  const base = schema ?? (Type.Object({}, { 'x-kubernetes-preserve-unknown-fields': true }) as unknown as T);
  return mark(base, { type: 'object', 'x-kubernetes-embedded-resource': true });
}

/** Keeps fields the schema does not declare instead of pruning them. */
export const preserveUnknownFields = <T extends TSchema>(schema: T): T => mark(schema, { 'x-kubernetes-preserve-unknown-fields': true });
