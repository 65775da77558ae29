/**
 * The `LeaseLock` of leader election stored in a `coordination.k8s.io/v1` Lease, as controller-runtime
 * does by default. A renewal or takeover is an `update` quoting the resourceVersion it was computed
 * from, so the API server's optimistic concurrency (409 Conflict) decides races between candidates;
 * creation races resolve the same way through 409 AlreadyExists. A candidate keeps a watch on the
 * Lease to learn of a release at once. Invariant: times are written as
 * MicroTime (RFC 3339 with six fractional digits) and read back to the millisecond.
 */
import { LeaseResource, type ObjectOf } from '../../meta/index.js';
import { formatMicroTime } from '../../meta/internal.js';
import { isNotFound, type Client } from '../../client/index.js';
import type { LeaderElectionRecord, LeaseLock, LockChange, LockSnapshot } from './lock.js';

type Lease = ObjectOf<typeof LeaseResource>;

const parseTime = (s: string | undefined): number => (s ? Date.parse(s) : 0);

/** The lock snapshot a Lease holds (also for Leases read by a list). */
export function snapshotOf(lease: Lease): LockSnapshot {
  const spec = lease.spec ?? {};
  return {
    record: {
      holderIdentity: spec.holderIdentity ?? '',
      leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
      acquireTimeMs: parseTime(spec.acquireTime),
      renewTimeMs: parseTime(spec.renewTime),
      leaderTransitions: spec.leaseTransitions ?? 0,
    },
    version: lease.metadata.resourceVersion ?? '',
  };
}

function specOf(r: LeaderElectionRecord): NonNullable<Lease['spec']> {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: formatMicroTime(r.acquireTimeMs),
    renewTime: formatMicroTime(r.renewTimeMs),
    leaseTransitions: r.leaderTransitions,
  };
}

/** A lock on the Lease `namespace/name`, read and written through `client` (never a cache). */
export function leaseLock(options: { client: Client; namespace: string; name: string }): LeaseLock {
  const { client, namespace, name } = options;
  const meta = { namespace, name };
  return Object.freeze({
    description: `${namespace}/${name}`,
    async get({ signal }: { signal: AbortSignal }) {
      try {
        return snapshotOf(await client.get(LeaseResource, meta, { signal }));
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async create(record: LeaderElectionRecord, { signal }: { signal: AbortSignal }) {
      const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: meta, spec: specOf(record) };
      return snapshotOf(await client.create(LeaseResource, lease, { signal }));
    },
    async update(record: LeaderElectionRecord, version: string, { signal }: { signal: AbortSignal }) {
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { ...meta, resourceVersion: version },
        spec: specOf(record),
      };
      return snapshotOf(await client.update(LeaseResource, lease, { signal }));
    },
    async watch(version: string, onChange: (change: LockChange) => void, { signal }: { signal: AbortSignal }) {
      const events = await client.watch(LeaseResource, {
        namespace,
        fieldSelector: `metadata.name=${name}`,
        resourceVersion: version,
        // Bookmarks keep the version fresh, so that a watch reopened after the server ended it is not 410 Gone.
        allowWatchBookmarks: true,
        signal,
      });
      try {
        for await (const e of events) {
          if (e.type === 'ERROR')
            throw new Error(`watching Lease ${namespace}/${name}: ${e.object.message ?? e.object.reason ?? 'error event'}`);
          const at = e.object.metadata.resourceVersion;
          if (at === undefined) continue;
          const kind = e.type === 'BOOKMARK' ? 'bookmark' : e.type === 'DELETED' || !e.object.spec?.holderIdentity ? 'released' : 'held';
          onChange({ kind, version: at });
        }
      } finally {
        events.close();
      }
    },
  } satisfies LeaseLock);
}
