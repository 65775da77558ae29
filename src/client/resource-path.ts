/**
 * REST paths and queries for a resource descriptor (the URL layout of the API server): `/api/v1`
 * for the core group, `/apis/{group}/{version}` otherwise, then `namespaces/{ns}/` for namespaced
 * kinds addressed in one namespace, the plural, the name and the subresource; and the query
 * parameters list, watch and write options become. Every client of the server (over HTTP or in
 * process) builds its URLs here. Invariant: every segment is percent-encoded, so a name can never
 * escape its path position.
 */
import { InvalidOptionError, type KubeObject, type ResourceDescriptor } from '../meta/index.js';
import type { ListOptions, WatchOptions, WriteOptions } from './types.js';

/** Query parameters by name; undefined and '' are left out of the query string. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** Where in a resource's REST layout a request goes: a namespace, an object's name, its subresource. */
export interface PathParts {
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

/** The REST path of a resource, or of one object or subresource of it; an empty name is refused. */
export function resourcePath(r: ResourceDescriptor<KubeObject>, { namespace, name, subresource }: PathParts = {}): string {
  let p = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  if (r.namespaced && namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
  p += `/${r.plural}`;
  if (name !== undefined) {
    if (name === '') throw new InvalidOptionError('name', `must not be empty (${r.kind})`);
    p += `/${encodeURIComponent(name)}`;
    if (subresource) p += `/${subresource.split('/').map(encodeURIComponent).join('/')}`;
  }
  return p;
}

/** `?a=b&…` from the defined entries (booleans as `true`/`false`), or '' when none. */
export function queryString(params: QueryParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The query parameters of a write's options (`dryRun=All`, `fieldManager`, `fieldValidation`). */
export function writeQuery(o: Pick<WriteOptions, 'dryRun' | 'fieldManager' | 'fieldValidation'> | undefined): QueryParams {
  return { dryRun: o?.dryRun ? 'All' : undefined, fieldManager: o?.fieldManager, fieldValidation: o?.fieldValidation };
}

/** The query parameters a list, watch or collection delete shares: selectors and the resourceVersion to read at. */
export function listQuery(o: ListOptions | WatchOptions | undefined): QueryParams {
  return {
    labelSelector: o?.labelSelector,
    fieldSelector: o?.fieldSelector,
    resourceVersion: o?.resourceVersion,
    resourceVersionMatch: o?.resourceVersionMatch,
    shardSelector: o?.shardSelector,
  };
}
