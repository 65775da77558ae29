// Makes the built-in kinds' schema data from Kubernetes' published OpenAPI v3 documents (one JSON
// document per group-version, as in api/openapi-spec/v3 of https://github.com/kubernetes/kubernetes):
// kubernetes-openapi.json.gz keeps, unchanged, the component of every built-in kind this server
// serves, that kind's List, what its subresources answer with (Scale, Eviction, TokenRequest), the
// meta.k8s.io types every document references, and everything those reference; the documents'
// paths are dropped, since the server writes its own from what it serves. list-shapes.json is the
// small part server-side apply reads on every write: the way to each keyed or set list.
// Run: node --import tsx scripts/builtin-schemas.mts <directory of the documents> <release, e.g. 1.35>
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { builtinStrategies } from '../src/apiserver/registry/builtins.js';

type Json = Record<string, unknown>;
const [dir, kubernetesVersion] = process.argv.slice(2);
if (!dir || !kubernetesVersion) throw new Error('usage: builtin-schemas.mts <dir of OpenAPI v3 documents> <kubernetes version, e.g. 1.35>');

function documents(at: string): string[] {
  return readdirSync(at).flatMap((name) => {
    const p = join(at, name);
    return statSync(p).isDirectory() ? documents(p) : name.endsWith('.json') ? [p] : [];
  });
}

const all: Record<string, Json> = {};
for (const file of documents(dir)) {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { components?: { schemas?: Record<string, Json> } };
  Object.assign(all, doc.components?.schemas ?? {});
}

const gvkKey = (g: string, v: string, k: string): string => `${g}/${v}/${k}`;
const byGvk = new Map<string, string>();
for (const [name, schema] of Object.entries(all)) {
  for (const gvk of (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
    byGvk.set(gvkKey(gvk.group, gvk.version, gvk.kind), name);
  }
}

const roots = new Set<string>(
  ['ObjectMeta', 'ListMeta', 'Status', 'Patch', 'DeleteOptions', 'WatchEvent'].map((k) => `io.k8s.apimachinery.pkg.apis.meta.v1.${k}`),
);
const noStore = { list: () => [] };
for (const strategy of builtinStrategies(noStore)) {
  for (const v of strategy.versions) {
    const served = strategy.served(v.name);
    const kinds = [served, { ...served, kind: `${served.kind}List` }, ...served.subresources.map((s) => s.responseKind)];
    for (const { group, version, kind } of kinds) {
      const name = byGvk.get(gvkKey(group, version, kind));
      if (name) roots.add(name);
      else if (!kind.endsWith('List')) console.warn(`no schema for ${group}/${version} ${kind}`);
    }
  }
}

const kept: Record<string, Json> = {};
const refsOf = (value: unknown, out: string[]): string[] => {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.replace('#/components/schemas/', ''));
      else refsOf(v, out);
    }
  }
  return out;
};
const pending = [...roots];
while (pending.length > 0) {
  const name = pending.pop()!;
  if (kept[name] !== undefined) continue;
  const schema = all[name];
  if (schema === undefined) throw new Error(`${name} is referenced but no document defines it`);
  kept[name] = schema;
  pending.push(...refsOf(schema, []));
}

const sorted = Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));

// The list shapes server-side apply needs, without the rest: per component, the fields on the way to
// a list that is a `map` (with its keys) or a `set`; every other list is atomic, so it is left out.
// A map list's optional keys may carry defaults (a container port's `protocol` is `TCP`): an element
// without the key is keyed by the default, as the real server keys it.
type ShapeNode = { ref?: string; list?: string[]; keyDefaults?: Json; items?: ShapeNode; values?: ShapeNode };
const refOf = (s: Json): string | undefined => {
  const direct = s['$ref'] ?? (s['allOf'] as Json[] | undefined)?.[0]?.['$ref'];
  return typeof direct === 'string' ? direct.replace('#/components/schemas/', '') : undefined;
};
function nodeOf(s: Json): ShapeNode | undefined {
  const ref = refOf(s);
  if (ref) return { ref };
  const out: ShapeNode = {};
  if (s['type'] === 'array') {
    const type = s['x-kubernetes-list-type'];
    const keys = s['x-kubernetes-list-map-keys'];
    if (type === 'map' && Array.isArray(keys)) {
      out.list = ['map', ...(keys as string[])];
      const item = typeof s['items'] === 'object' ? refOf(s['items'] as Json) : undefined;
      const props = (item === undefined ? {} : (all[item]?.['properties'] ?? {})) as Record<string, Json>;
      const required = (item === undefined ? [] : (all[item]?.['required'] ?? [])) as string[];
      const defaulted = (keys as string[]).filter((k) => !required.includes(k) && props[k]?.['default'] !== undefined);
      const defaults = defaulted.map((k) => [k, props[k]!['default']] as const);
      if (defaults.length > 0) out.keyDefaults = Object.fromEntries(defaults);
    }
    if (type === 'set') out.list = ['set'];
    const items = typeof s['items'] === 'object' ? nodeOf(s['items'] as Json) : undefined;
    if (items) out.items = items;
  } else if (typeof s['additionalProperties'] === 'object') {
    const values = nodeOf(s['additionalProperties'] as Json);
    if (values) out.values = values;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
const raw: Record<string, Record<string, ShapeNode>> = {};
for (const [name, schema] of Object.entries(sorted)) {
  const fields = Object.entries((schema['properties'] ?? {}) as Record<string, Json>).flatMap(([f, s]) => {
    const n = nodeOf(s);
    return n ? [[f, n] as const] : [];
  });
  raw[name] = Object.fromEntries(fields);
}
// A component matters when some field leads to a map or set list; refs to the others are dropped.
const matters = new Set<string>();
const leads = (n: ShapeNode | undefined): boolean =>
  n !== undefined && (n.list !== undefined || (n.ref !== undefined && matters.has(n.ref)) || leads(n.items) || leads(n.values));
for (let grew = true; grew;) {
  grew = false;
  for (const [name, fields] of Object.entries(raw)) {
    if (!matters.has(name) && Object.values(fields).some(leads)) {
      matters.add(name);
      grew = true;
    }
  }
}
function pruned(n: ShapeNode | undefined): ShapeNode | undefined {
  if (!leads(n)) return undefined;
  const out: ShapeNode = {};
  if (n!.ref) out.ref = n!.ref;
  if (n!.list) out.list = n!.list;
  if (n!.keyDefaults) out.keyDefaults = n!.keyDefaults;
  const items = pruned(n!.items);
  if (items) out.items = items;
  const values = pruned(n!.values);
  if (values) out.values = values;
  return out;
}
const shapes = Object.fromEntries(
  [...matters]
    .sort()
    .map((name) => [name, Object.fromEntries(Object.entries(raw[name]!).flatMap(([f, n]) => (pruned(n) ? [[f, pruned(n)]] : [])))]),
);

const here = (file: string): URL => new URL(`../src/apiserver/builtin-schemas/${file}`, import.meta.url);
const bytes = gzipSync(JSON.stringify({ kubernetesVersion, schemas: sorted }), { level: 9 });
writeFileSync(here('kubernetes-openapi.json.gz'), bytes);
const kinds = Object.fromEntries(
  [...byGvk]
    .filter(([gvk, name]) => roots.has(name) && !gvk.endsWith('List') && !name.startsWith('io.k8s.apimachinery.'))
    .sort(([a], [b]) => a.localeCompare(b)),
);
const shapeText = JSON.stringify({ kubernetesVersion, kinds, shapes });
writeFileSync(here('list-shapes.json'), shapeText);
console.log(
  `${Object.keys(sorted).length} schemas of ${Object.keys(all).length}: ${bytes.length} bytes gzipped; list shapes of ${matters.size}: ${shapeText.length} bytes`,
);
