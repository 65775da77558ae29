/**
 * Per-user recording of what requests asked for, in authorization terms (verb, API group,
 * resource, subresource, namespace, name, or a non-resource path): the raw material `converge rbac`
 * turns into a least-privilege Role. Each distinct request is kept once, so a manager running for
 * minutes costs a few hundred entries, not one per request. Invariant: every request of a recorded
 * user is in its recording, allowed or not, from the moment it reached the server.
 */
import type { RequestAttributes } from '../ground/index.js';

/** One distinct request; empty fields are left out. */
export interface RecordedRequest {
  verb: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  nonResourceURL?: string;
}

function recorded(a: RequestAttributes): RecordedRequest {
  if (a.kind === 'nonResource') return { verb: a.verb, nonResourceURL: a.path };
  return {
    verb: a.verb,
    apiGroup: a.apiGroup,
    resource: a.resource,
    ...(a.subresource ? { subresource: a.subresource } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    ...(a.name ? { name: a.name } : {}),
  };
}

const keyOf = (a: RequestAttributes): string =>
  a.kind === 'nonResource' ? `N ${a.verb} ${a.path}` : `R ${a.verb} ${a.apiGroup} ${a.resource} ${a.subresource} ${a.namespace} ${a.name}`;

export class RequestRecorder {
  readonly #byUser = new Map<string, Map<string, RecordedRequest>>();

  record(username: string, a: RequestAttributes): void {
    let seen = this.#byUser.get(username);
    if (!seen) this.#byUser.set(username, (seen = new Map()));
    const key = keyOf(a);
    if (!seen.has(key)) seen.set(key, recorded(a));
  }

  /** The user's distinct requests, in the order first seen. */
  recording(username: string): RecordedRequest[] {
    return [...(this.#byUser.get(username)?.values() ?? [])].map((r) => ({ ...r }));
  }

  clear(username: string): void {
    this.#byUser.delete(username);
  }
}
