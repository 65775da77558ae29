/**
 * Discovery: what the API server serves, read from `/api`, `/apis` and each group-version's resource
 * list (client-go's `DiscoveryClient`). The core group appears first, as the group named `''`. It does
 * not cache; the `RestMapper` does. Invariant: answers are the server's own documents, unmodified.
 */
import type { APIGroup, APIGroupList, APIResourceList, APIVersions } from 'kubernetes-types/meta/v1.js';
import type { Transport } from './transport.js';

export type { APIGroup, APIGroupList, APIResourceList, APIVersions, APIResource } from 'kubernetes-types/meta/v1.js';

/** Options of a `DiscoveryClient`: the transport that reaches the API server. */
export interface DiscoveryClientOptions {
  /** The transport of a client (`createClient(...).transport`). */
  transport: Transport;
}

/** Reads which groups, versions and resources the API server serves (client-go's `DiscoveryClient`), uncached. */
export class DiscoveryClient {
  readonly #transport: Transport;

  constructor({ transport }: DiscoveryClientOptions) {
    this.#transport = transport;
  }

  async #get<T>(path: string, signal?: AbortSignal): Promise<T> {
    const res = await this.#transport.request({ method: 'GET', path, signal });
    return JSON.parse(res.body) as T;
  }

  /** `/api`: the versions of the core group. */
  coreVersions(options?: { signal?: AbortSignal | undefined }): Promise<APIVersions> {
    return this.#get('/api', options?.signal);
  }

  /** Every group, the core group (`''`, from `/api`) first, then `/apis`. */
  async serverGroups(options?: { signal?: AbortSignal | undefined }): Promise<APIGroupList> {
    const [core, named] = await Promise.all([this.coreVersions(options), this.#get<APIGroupList>('/apis', options?.signal)]);
    const groups: APIGroup[] = [];
    if (core.versions.length > 0) {
      groups.push({
        name: '',
        versions: core.versions.map((v) => ({ groupVersion: v, version: v })),
        preferredVersion: { groupVersion: core.versions[0]!, version: core.versions[0]! },
      });
    }
    groups.push(...(named.groups ?? []));
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }

  /** The resource list of one group-version (`v1` → `/api/v1`, `apps/v1` → `/apis/apps/v1`). */
  serverResourcesForGroupVersion(groupVersion: string, options?: { signal?: AbortSignal | undefined }): Promise<APIResourceList> {
    const path = groupVersion.includes('/') ? `/apis/${groupVersion}` : `/api/${groupVersion}`;
    return this.#get(path, options?.signal);
  }
}
