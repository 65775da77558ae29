// Where a generated CRD schema and a declared TypeScript shape disagree on structure: the set of
// property paths, each path's type (integer and number both read as TypeScript's `number`; an
// int-or-string field as `number | string`), which properties are optional, and enums.
// Invariant: every difference is reported with its path, none is skipped; an empty list means the
// two structures are the same.
import type { StructuralSchema } from 'kube-converge/schema';
import type { DeclaredShape } from './declared-shape.js';

export function structureDifferences(schema: StructuralSchema, shape: DeclaredShape, path: string): string[] {
  const out: string[] = [];
  walk(schema, shape, path, out);
  return out;
}

function kindOf(schema: StructuralSchema): DeclaredShape['kind'] | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  return schema.type as DeclaredShape['kind'] | undefined;
}

function walk(schema: StructuralSchema, shape: DeclaredShape, path: string, out: string[]): void {
  const kind = kindOf(schema);
  if (kind !== shape.kind) {
    out.push(`${path}: generated ${kind ?? 'untyped'}, declared ${shape.kind}`);
    return;
  }
  if (shape.kind === 'string' || shape.kind === 'number') {
    const ours = ((schema.enum as unknown[] | undefined) ?? []).map(String).sort();
    const theirs = (shape.enum ?? []).map(String).sort();
    if (ours.join('\n') !== theirs.join('\n')) out.push(`${path}: generated enum [${ours}], declared [${theirs}]`);
  }
  if (shape.kind === 'array') walk(schema.items ?? {}, shape.items, `${path}[]`, out);
  if (shape.kind !== 'object') return;
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const name of new Set([...Object.keys(properties), ...Object.keys(shape.properties)])) {
    const ours = properties[name];
    const theirs = shape.properties[name];
    const at = `${path}.${name}`;
    if (ours === undefined || theirs === undefined) {
      out.push(`${at}: ${ours === undefined ? 'declared but not generated' : 'generated but not declared'}`);
      continue;
    }
    if (required.has(name) === theirs.optional) {
      out.push(`${at}: generated ${required.has(name) ? 'required' : 'optional'}, declared ${theirs.optional ? 'optional' : 'required'}`);
    }
    walk(ours, theirs.shape, at, out);
  }
  const values = schema.additionalProperties;
  if ((values === undefined) !== (shape.values === undefined)) {
    out.push(`${path}: ${values === undefined ? 'declared' : 'generated'} with free keys, the other side without`);
  } else if (values !== undefined && shape.values !== undefined) {
    walk(values, shape.values, `${path}[*]`, out);
  }
}
