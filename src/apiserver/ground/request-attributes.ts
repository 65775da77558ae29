/**
 * What an authorizer is asked about a request, derived from its method and URL alone as
 * kube-apiserver's RequestInfo does (before any routing, so a request for a resource that does not
 * exist is authorized like any other): a resource request (verb, API group and version, resource,
 * subresource, namespace, name) for paths of the form `/api/<v>/…` and `/apis/<g>/<v>/…`, a
 * non-resource request (lower-case method and path) for everything else. Invariant: a collection
 * GET is `list` (or `watch` with `?watch=true` or under `/watch/`), a collection DELETE is
 * `deletecollection`, and a `metadata.name=` field selector names the object, so `resourceNames`
 * can allow a single-object list or watch.
 */

export interface ResourceAttributes {
  kind: 'resource';
  verb: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export interface NonResourceAttributes {
  kind: 'nonResource';
  verb: string;
  path: string;
}

export type RequestAttributes = ResourceAttributes | NonResourceAttributes;

const METHOD_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** Subresources of a namespace, whose path would otherwise read as a namespaced resource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const truthy = (v: string | null): boolean => v !== null && v !== 'false' && v !== '0';

/** A DNS-1123-ish check as `path.IsValidPathSegmentName`: a name that could not be in a path is not taken from a selector. */
const validPathSegment = (s: string): boolean => s !== '.' && s !== '..' && !s.includes('/') && !s.includes('%');

function nameFromFieldSelector(selector: string | null): string {
  if (!selector) return '';
  const terms = selector.split(',');
  for (const t of terms) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(t);
    if (m && validPathSegment(m[1]!)) return m[1]!;
  }
  return '';
}

/** Segments are authorized decoded, as Go's `URL.Path` holds them; a malformed escape stays as sent. */
function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function requestAttributes(method: string, pathAndQuery: string): RequestAttributes {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const m = method.toUpperCase();
  const nonResource: NonResourceAttributes = { kind: 'nonResource', verb: m.toLowerCase(), path };
  let parts = path
    .split('/')
    .filter((s) => s !== '')
    .map(decodeSegment);
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource;
  let apiGroup = '';
  if (parts[0] === 'apis') {
    if (parts.length < 4) return nonResource;
    apiGroup = parts[1]!;
    parts = parts.slice(2);
  } else parts = parts.slice(1);
  const apiVersion = parts[0]!;
  parts = parts.slice(1);
  let verb = METHOD_VERBS[m] ?? '';
  if (parts[0] === 'watch') {
    verb = 'watch';
    parts = parts.slice(1);
  }
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }
  const [resource = '', pathName = '', subresource = ''] = parts;
  let name = pathName;
  if (!name && verb === 'get') {
    const query = new URLSearchParams(q === -1 ? '' : pathAndQuery.slice(q + 1));
    verb = truthy(query.get('watch')) ? 'watch' : 'list';
    name = nameFromFieldSelector(query.get('fieldSelector'));
  }
  if (!name && verb === 'delete') verb = 'deletecollection';
  return { kind: 'resource', verb, apiGroup, apiVersion, resource, subresource, namespace, name };
}
