/**
 * Follows the sharding Leases between the coordinator's rounds: one watch on the namespace's Leases
 * from the version a round listed, handing each Lease whose name has the prefix to `onLease` as its
 * write arrives (`undefined` when it was deleted), so that another replica's renewal is timed when the
 * server applied it rather than at the next list. Invariant: it only reports what the server wrote, in
 * the server's order; it decides nothing, and it returns when the watch ends and throws when it fails,
 * leaving the next round to list and follow again.
 */
import { LeaseResource } from '../../meta/index.js';
import type { Client } from '../../client/index.js';
import { snapshotOf, type LockSnapshot } from '../leaderelection/index.js';

export interface FollowLeasesOptions {
  client: Client;
  namespace: string;
  /** Only Leases whose name starts with this are reported. */
  prefix: string;
  /** The list's resourceVersion: events after it are reported. */
  resourceVersion: string;
  signal: AbortSignal;
  onLease(name: string, snapshot: LockSnapshot | undefined): void;
}

/** Watches until the stream ends (resolves), fails or delivers an error event (rejects), or `signal` aborts (resolves). */
export async function followLeases(o: FollowLeasesOptions): Promise<void> {
  const events = await o.client.watch(LeaseResource, { namespace: o.namespace, resourceVersion: o.resourceVersion, signal: o.signal });
  try {
    for await (const e of events) {
      if (e.type === 'ERROR') throw new Error(`watching Leases in ${o.namespace}: ${e.object.message ?? e.object.reason ?? 'error event'}`);
      if (e.type === 'BOOKMARK') continue;
      const name = e.object.metadata.name ?? '';
      if (name.startsWith(o.prefix)) o.onLease(name, e.type === 'DELETED' ? undefined : snapshotOf(e.object));
    }
  } catch (err) {
    if (!o.signal.aborted) throw err;
  } finally {
    events.close();
  }
}
