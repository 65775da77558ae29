/**
 * Path routing (the layout of https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-uris):
 * splits a URL path into either a non-resource endpoint (health, version,
 * discovery, OpenAPI) or a resource request — group, version, namespace, resource, name,
 * subresource and whether it is a legacy `/watch/` path. Pure: knows the URL layout, not the types
 * (the one lookup it needs, "is this a resource of that group/version", is passed in).
 */

export type Route =
  | { kind: 'health' }
  | { kind: 'version' }
  | { kind: 'api' }
  | { kind: 'apis' }
  | { kind: 'group'; group: string }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'openapi'; rest: string[] }
  | {
      kind: 'resource';
      group: string;
      version: string;
      namespace: string;
      resource: string;
      name: string;
      subresource: string;
      legacyWatch: boolean;
      /** The path had more segments than any route uses. */
      extra: boolean;
    }
  | { kind: 'notFound' };

export function route(path: string, isResource: (group: string, version: string, resource: string) => boolean): Route {
  let segs: string[];
  try {
    segs = path
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return { kind: 'notFound' }; // malformed percent-encoding names no route
  }
  const [first, ...rest] = segs;
  if (segs.length === 0) return { kind: 'notFound' };
  if (first === 'healthz' || first === 'livez' || first === 'readyz') return { kind: 'health' };
  if (first === 'version' && segs.length === 1) return { kind: 'version' };
  if (first === 'openapi') return { kind: 'openapi', rest };
  let group: string;
  let version: string | undefined;
  let tail: string[];
  if (first === 'api') {
    if (rest.length === 0) return { kind: 'api' };
    group = '';
    version = rest[0];
    tail = rest.slice(1);
  } else if (first === 'apis') {
    if (rest.length === 0) return { kind: 'apis' };
    group = rest[0]!;
    if (rest.length === 1) return { kind: 'group', group };
    version = rest[1];
    tail = rest.slice(2);
  } else {
    return { kind: 'notFound' };
  }
  if (!version) return { kind: 'notFound' };
  if (tail.length === 0) return { kind: 'groupVersion', group, version };
  let legacyWatch = false;
  if (tail[0] === 'watch') {
    legacyWatch = true;
    tail = tail.slice(1);
  }
  let namespace = '';
  if (tail[0] === 'namespaces' && tail.length >= 3 && isResource(group, version, tail[2]!)) {
    namespace = tail[1]!;
    tail = tail.slice(2);
  }
  const [resource = '', name = '', subresource = '', ...more] = tail;
  if (!resource) return { kind: 'notFound' };
  return { kind: 'resource', group, version, namespace, resource, name, subresource, legacyWatch, extra: more.length > 0 };
}
