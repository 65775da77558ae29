/**
 * The lock that leader election runs on, as a contract: the record it stores, a snapshot of it with
 * the version a conditional write must quote, the changes a watch of it reports, and the storage
 * operations. The elector, its release watch and the Lease implementation all speak it, so it stands
 * apart from each of them. Invariant: a write quoting a stale version fails, and so does creating a
 * lock that exists.
 */

/** What a lock stores (the fields of a Lease spec that election uses). Times are epoch ms. */
export interface LeaderElectionRecord {
  /** '' when released. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTimeMs: number;
  renewTimeMs: number;
  leaderTransitions: number;
}

/** A record plus the opaque version (resourceVersion) that a conditional update must quote. */
export interface LockSnapshot {
  record: LeaderElectionRecord;
  version: string;
}

/** A change a lock's watch saw: what it left the lock as, and its version (a bookmark only moves the version). */
export interface LockChange {
  kind: 'released' | 'held' | 'bookmark';
  version: string;
}

/**
 * Storage for one election. `update` must fail when `version` is stale and `create` when the lock
 * exists (the API server's 409s); the elector treats any failure as "not this time".
 */
export interface LeaseLock {
  /** For logs: `namespace/name`. */
  readonly description: string;
  /** The current record, or undefined when the lock does not exist. */
  get(options: { signal: AbortSignal }): Promise<LockSnapshot | undefined>;
  create(record: LeaderElectionRecord, options: { signal: AbortSignal }): Promise<LockSnapshot>;
  update(record: LeaderElectionRecord, version: string, options: { signal: AbortSignal }): Promise<LockSnapshot>;
  /**
   * Optional: watches the lock from `version` until `signal` aborts, telling `onChange` of each
   * change (a release is a write leaving no holder, or a deletion). Resolves when the watch ends and
   * rejects when it fails (a 403 on watch, an error event such as 410 Gone). A candidate keeps one
   * open for its whole campaign to take a released lock at once instead of at its next retry, and
   * reopens it at its next wait when it ended or failed (then it waits out the retry period as without it).
   */
  watch?(version: string, onChange: (change: LockChange) => void, options: { signal: AbortSignal }): Promise<void>;
}
