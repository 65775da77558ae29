/**
 * What one replica has seen of the sharding Leases, timed on its own monotonic clock as leader
 * election does: a Lease is valid while its record last changed less than its duration ago, as
 * this replica saw it. A replica that has just started cannot tell a Lease renewed a second ago from
 * one abandoned minutes ago — both look unchanged since it first saw them — so each Lease is also
 * `trusted` once it was written after it was first seen, or it was first seen a lease duration
 * ago. Invariant: a Lease missing from the latest list is forgotten, and a record never goes back to
 * an older resourceVersion (a list answered before a write the watch already reported).
 */
import type { LockSnapshot, Observation } from '../leaderelection/index.js';
import { observe } from '../leaderelection/index.js';
import { compareResourceVersion } from '../../meta/index.js';

export class LeaseView {
  readonly #observed = new Map<string, Observation>();
  readonly #firstSeen = new Map<string, number>();
  /** Leases written (a new resourceVersion) since we first saw them. */
  readonly #written = new Set<string>();

  /** Folds in a fresh list of the Leases (by name); Leases no longer listed are forgotten. */
  update(listed: ReadonlyMap<string, LockSnapshot>, monotonicMs: number): void {
    for (const [name, snapshot] of listed) this.record(name, snapshot, monotonicMs);
    for (const name of [...this.#observed.keys()]) if (!listed.has(name)) this.forget(name);
  }

  /** One Lease as read, watched or written now; ignored when it is older than the one held. */
  record(name: string, snapshot: LockSnapshot, monotonicMs: number): void {
    const prev = this.#observed.get(name);
    if (prev && compareResourceVersion(snapshot.version, prev.snapshot.version) === -1) return;
    if (!prev) this.#firstSeen.set(name, monotonicMs);
    else if (prev.snapshot.version !== snapshot.version) this.#written.add(name);
    this.#observed.set(name, observe(prev, snapshot, monotonicMs));
  }

  forget(name: string): void {
    this.#observed.delete(name);
    this.#firstSeen.delete(name);
    this.#written.delete(name);
  }

  get(name: string): Observation | undefined {
    return this.#observed.get(name);
  }

  names(): string[] {
    return [...this.#observed.keys()];
  }

  /** Held by someone and renewed within its duration, on our clock. */
  valid(name: string, monotonicMs: number): boolean {
    const o = this.#observed.get(name);
    if (!o || o.snapshot.record.holderIdentity === '') return false;
    return o.atMs + o.snapshot.record.leaseDurationSeconds * 1000 > monotonicMs;
  }

  /** The soonest instant after `afterMs` at which a Lease held by someone other than `holder` expires, on our clock. */
  nextExpiryOfOthers(holder: string, afterMs: number): number | undefined {
    let soonest: number | undefined;
    for (const o of this.#observed.values()) {
      const who = o.snapshot.record.holderIdentity;
      if (who === '' || who === holder) continue;
      const expiry = o.atMs + o.snapshot.record.leaseDurationSeconds * 1000;
      if (expiry > afterMs && (soonest === undefined || expiry < soonest)) soonest = expiry;
    }
    return soonest;
  }

  /** Whether `valid` can be believed: the record changed since we first saw it, or we have watched it for its whole duration. */
  trusted(name: string, monotonicMs: number): boolean {
    const o = this.#observed.get(name);
    const first = this.#firstSeen.get(name);
    if (!o || first === undefined) return true;
    return this.#written.has(name) || first + o.snapshot.record.leaseDurationSeconds * 1000 <= monotonicMs;
  }
}
