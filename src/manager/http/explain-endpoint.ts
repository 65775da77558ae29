/**
 * The HTTP face of `explain`, served on the health-probe server:
 *
 *     GET /debug/converge/<group>/<version>/<plural>/<namespace>/<name>   (namespaced kinds)
 *     GET /debug/converge/<group>/<version>/<plural>/<name>               (cluster-scoped kinds)
 *
 * with `?cluster=<name>` for an object of a member cluster (a fleet's), the core group spelled `core`,
 * and `GET /debug/converge/` lists the kinds it explains (JSON `{ kinds: [{ group, version, kind,
 * plural, namespaced }] }`, for clients such as `converge why` that start from a kind's name). It
 * answers the JSON report, or 404 with a message naming what is wrong (a kind this manager neither
 * reconciles nor caches, a namespace missing or extra for the kind's scope, a cluster not engaged
 * here). Invariant: only kinds the manager already knows are explained, so a probe of this path can
 * never make the manager start watching something new.
 */
import { ConvergeError, type NamespacedName, type ResourceDescriptor } from '../../meta/index.js';
import type { ConvergeReport } from '../explain/index.js';
import type { HttpResponse } from './http-server.js';

export const EXPLAIN_PATH_PREFIX = '/debug/converge/';

export interface ExplainRequest {
  method: string;
  pathname: string;
  /** The member cluster asked about (`?cluster=`), if any. */
  cluster?: string | undefined;
  /** The kinds the manager knows (its controllers' and its cache's). */
  known: () => readonly ResourceDescriptor[];
  explain: (resource: ResourceDescriptor, nn: NamespacedName, cluster: string | undefined) => Promise<ConvergeReport>;
}

/** Answers a request whose path starts with `EXPLAIN_PATH_PREFIX`. */
export async function serveExplain(req: ExplainRequest): Promise<HttpResponse> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'method not allowed\n');
  if (req.pathname === EXPLAIN_PATH_PREFIX) return knownKinds(req.known());
  const parsed = parseExplainPath(req.pathname);
  if ('error' in parsed) return text(404, `${parsed.error}\n`);
  const { group, version, plural, rest } = parsed;
  const gvr = `${group === '' ? 'core' : group}/${version}/${plural}`;
  const resource = req.known().find((r) => r.group === group && r.version === version && r.plural === plural);
  if (!resource) {
    const known = [...new Set(req.known().map((r) => `${r.group === '' ? 'core' : r.group}/${r.version}/${r.plural}`))].sort();
    return text(404, `unknown kind ${gvr}: this manager neither reconciles nor caches it (known: ${known.join(', ') || 'none'})\n`);
  }
  if (resource.namespaced && rest.length !== 2) {
    return text(404, `${resource.kind} (${gvr}) is namespaced: use ${EXPLAIN_PATH_PREFIX}${gvr}/<namespace>/<name>\n`);
  }
  if (!resource.namespaced && rest.length !== 1) {
    return text(404, `${resource.kind} (${gvr}) is cluster-scoped: use ${EXPLAIN_PATH_PREFIX}${gvr}/<name>\n`);
  }
  const nn: NamespacedName = rest.length === 2 ? { namespace: rest[0]!, name: rest[1]! } : { name: rest[0]! };
  let report: ConvergeReport;
  try {
    report = await req.explain(resource, nn, req.cluster);
  } catch (err) {
    if (ConvergeError.is(err) && err.code === 'CONVERGE_CLUSTER_NOT_ENGAGED') return text(404, `${err.message}\n`);
    throw err;
  }
  return { status: 200, body: `${JSON.stringify(report, null, 2)}\n`, contentType: 'application/json' };
}

/** Splits `/debug/converge/<group>/<version>/<plural>/…` into its parts (decoded; `core` is the empty group). */
export function parseExplainPath(pathname: string): { group: string; version: string; plural: string; rest: string[] } | { error: string } {
  const usage = `use ${EXPLAIN_PATH_PREFIX}<group>/<version>/<plural>/[<namespace>/]<name> (the core group is "core")`;
  if (!pathname.startsWith(EXPLAIN_PATH_PREFIX)) return { error: usage };
  let parts: string[];
  try {
    parts = pathname.slice(EXPLAIN_PATH_PREFIX.length).replace(/\/$/, '').split('/').map(decodeURIComponent);
  } catch {
    return { error: `the path is not valid percent-encoding; ${usage}` };
  }
  if (parts.length < 4 || parts.length > 5 || parts.some((p) => p === '')) return { error: usage };
  const [group, version, plural, ...rest] = parts as [string, string, string, ...string[]];
  return { group: group === 'core' ? '' : group, version, plural, rest };
}

function knownKinds(known: readonly ResourceDescriptor[]): HttpResponse {
  const kinds = new Map<string, { group: string; version: string; kind: string; plural: string; namespaced: boolean }>();
  for (const r of known) {
    kinds.set(`${r.group}/${r.version}/${r.plural}`, {
      group: r.group,
      version: r.version,
      kind: r.kind,
      plural: r.plural,
      namespaced: r.namespaced,
    });
  }
  const sorted = [...kinds.values()].sort((a, b) => `${a.group}/${a.plural}`.localeCompare(`${b.group}/${b.plural}`));
  return { status: 200, body: `${JSON.stringify({ kinds: sorted }, null, 2)}\n`, contentType: 'application/json' };
}

function text(status: number, body: string): HttpResponse {
  return { status, body };
}
