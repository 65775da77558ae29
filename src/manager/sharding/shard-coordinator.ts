/**
 * Shard ownership across replicas, through Leases in one namespace: `<id>-shard-<i>` for each shard
 * and `<id>-member-<identity>` for each replica. Every `retryPeriodMs` a replica lists the Leases,
 * renews its member Lease and the shard Leases it holds, counts the live members (member Leases
 * renewed within their duration, measured on OUR clock as leader election does), and aims to hold
 * `ceil(shards / liveMembers)` shards: it releases its excess, highest-numbered first, and acquires
 * free or expired shards, lowest-numbered first. Each acquire, renew and takeover is leader
 * election's `leaseStep` written through the same `LeaseLock`, so racing replicas get one success and
 * one conflict.
 *
 * Invariants (with the shard gate): a shard is opened for reconciles only after its Lease was
 * written; a release first closes the shard and waits for its in-flight reconciles, then writes the
 * Lease free; a shard whose renewal has not succeeded for `renewDeadlineMs` is closed at that instant,
 * before any other replica may take it (`leaseDurationMs > renewDeadlineMs`). A reconcile already
 * running when a shard is lost that way is not cut short.
 */
import { LeaseResource, type Clock, type Logger } from '../../meta/index.js';
import { isConflict, type Client } from '../../client/index.js';
import { leaseLock, leaseStep, observe, releasedRecord, snapshotOf, type LockSnapshot, type Observation } from '../leaderelection/index.js';
import type { ShardGate } from './shard-gate.js';

/** Options of a `ShardCoordinator`: its client, Lease namespace and names, identity, shard count and timings. */
export interface ShardCoordinatorOptions {
  client: Client;
  namespace: string;
  /** Lease name prefix. */
  id: string;
  identity: string;
  shards: number;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  gate: ShardGate;
  clock: Clock;
  logger: Logger;
  /** Called with the owned set whenever it changed (after opening, before releasing a Lease). */
  onOwnedChange(owned: ReadonlySet<number>): void;
}

/** A Lease name may hold only lower-case alphanumerics, '-' and '.'; identities like `host_uuid` do not. */
export const memberLeaseName = (id: string, identity: string): string =>
  `${id}-member-${identity.toLowerCase().replace(/[^a-z0-9.-]/g, '-')}`;
export const shardLeaseName = (id: string, shard: number): string => `${id}-shard-${shard}`;

interface Held {
  snapshot: LockSnapshot;
  lostTimer: { cancel(): void };
}

/** Shares namespace shards among replicas through Leases, telling its caller which shards it owns. */
export class ShardCoordinator {
  readonly #o: ShardCoordinatorOptions;
  readonly #leaseSeconds: number;
  readonly #memberName: string;
  readonly #memberPrefix: string;
  readonly #held = new Map<number, Held>();
  readonly #observed = new Map<string, Observation>();
  readonly #log: Logger;
  #rounds = 0;

  constructor(options: ShardCoordinatorOptions) {
    this.#o = options;
    this.#leaseSeconds = Math.max(1, Math.ceil(options.leaseDurationMs / 1000));
    this.#memberName = memberLeaseName(options.id, options.identity);
    this.#memberPrefix = `${options.id}-member-`;
    this.#log = options.logger.child({ sharding: options.id, identity: options.identity });
  }

  /** The shards held now, ascending. */
  owned(): number[] {
    return [...this.#held.keys()].sort((a, b) => a - b);
  }

  /** Whether a round of ownership (list, renew, balance) has completed at least once: the readiness check. */
  reconciledOnce(): boolean {
    return this.#rounds > 0;
  }

  /** Coordinates until `signal` aborts, then closes every shard and writes its Leases free. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const attempt = new AbortController();
      const timer = this.#o.clock.setTimer(() => attempt.abort(new Error('sharding round timed out')), this.#o.renewDeadlineMs);
      try {
        await this.#round(AbortSignal.any([signal, attempt.signal]));
        this.#rounds++;
      } catch (err) {
        if (!signal.aborted) this.#log.warn({ err }, 'sharding round failed; retrying');
      } finally {
        timer.cancel();
      }
      try {
        await this.#o.clock.sleep(this.#o.retryPeriodMs, { signal });
      } catch {
        break;
      }
    }
    await this.#releaseAll();
  }

  async #round(signal: AbortSignal): Promise<void> {
    const { clock, shards, id, namespace, client } = this.#o;
    const list = await client.list(LeaseResource, { namespace, signal });
    // Timestamped when the answer arrived, never earlier: a lease seen is counted from when it was visible.
    const now = clock.now();
    const seenAt = clock.monotonicMs();
    const seen = new Map<string, LockSnapshot>();
    for (const lease of list.items) {
      const name = lease.metadata.name ?? '';
      if (!name.startsWith(`${id}-`)) continue;
      const snapshot = snapshotOf(lease);
      seen.set(name, snapshot);
      this.#observed.set(name, observe(this.#observed.get(name), snapshot, seenAt));
    }
    for (const name of this.#observed.keys()) if (!seen.has(name)) this.#observed.delete(name);

    await this.#claim(this.#memberName, now, seenAt, signal);
    const target = Math.ceil(shards / this.#liveMembers(seenAt));

    for (const [shard, held] of [...this.#held]) {
      const written = await this.#claim(shardLeaseName(id, shard), now, seenAt, signal);
      if (written === 'taken') this.#lose(shard, 'another replica holds its Lease');
      // The renew deadline may have passed while the write was in flight: the shard stays lost
      // (closed) and is acquired again, through the gate, by the balancing below.
      else if (written && this.#held.get(shard) === held) this.#renewed(shard, held, written);
    }
    const excess = this.owned()
      .reverse()
      .slice(0, Math.max(0, this.#held.size - target));
    for (const shard of excess) await this.#release(shard);
    for (let shard = 0; shard < shards && this.#held.size < target; shard++) {
      if (this.#held.has(shard)) continue;
      const written = await this.#claim(shardLeaseName(id, shard), now, seenAt, signal);
      if (written && written !== 'taken') this.#acquired(shard, written);
    }
  }

  /** Members whose Lease was renewed within its duration; at least this replica. */
  #liveMembers(monotonicMs: number): number {
    let live = 0;
    for (const [name, o] of this.#observed) {
      if (!name.startsWith(this.#memberPrefix)) continue;
      const r = o.snapshot.record;
      if (r.holderIdentity !== '' && o.atMs + r.leaseDurationSeconds * 1000 > monotonicMs) live++;
    }
    return Math.max(1, live);
  }

  /**
   * One `leaseStep` on the Lease `name` from the freshly listed record: the written snapshot, 'taken'
   * when another holder's Lease is valid, or undefined when the write failed (a lost race, an error).
   */
  async #claim(name: string, now: number, monotonicMs: number, signal: AbortSignal): Promise<LockSnapshot | 'taken' | undefined> {
    const { client, namespace, identity } = this.#o;
    const observed = this.#observed.get(name);
    const step = leaseStep({ identity, leaseSeconds: this.#leaseSeconds, nowMs: now, monotonicMs, observed, fresh: true });
    if (step.kind === 'wait') return 'taken';
    const lock = leaseLock({ client, namespace, name });
    try {
      const written =
        step.kind === 'create'
          ? await lock.create(step.record, { signal })
          : step.kind === 'update'
            ? await lock.update(step.record, step.version, { signal })
            : undefined;
      if (written) this.#observed.set(name, observe(observed, written, this.#o.clock.monotonicMs()));
      return written;
    } catch (err) {
      if (!signal.aborted) this.#log.debug({ err, lease: `${namespace}/${name}` }, 'failed to acquire or renew lease');
      return undefined;
    }
  }

  #armLostTimer(shard: number): { cancel(): void } {
    return this.#o.clock.setTimer(() => this.#lose(shard, 'renew deadline passed'), this.#o.renewDeadlineMs);
  }

  #acquired(shard: number, snapshot: LockSnapshot): void {
    this.#held.set(shard, { snapshot, lostTimer: this.#armLostTimer(shard) });
    this.#o.gate.open(shard);
    this.#log.info({ shard }, 'acquired shard');
    this.#o.onOwnedChange(new Set(this.#held.keys()));
  }

  #renewed(shard: number, held: Held, snapshot: LockSnapshot): void {
    held.lostTimer.cancel();
    held.snapshot = snapshot;
    held.lostTimer = this.#armLostTimer(shard);
  }

  /** Stops reconciling the shard at once (its Lease may already be another's). */
  #lose(shard: number, why: string): void {
    const held = this.#held.get(shard);
    if (!held) return;
    held.lostTimer.cancel();
    this.#held.delete(shard);
    void this.#o.gate.close(shard);
    this.#log.error({ shard, why }, 'lost shard');
    this.#o.onOwnedChange(new Set(this.#held.keys()));
  }

  /** Closes the shard, waits for its in-flight reconciles, then writes its Lease free for another replica. */
  async #release(shard: number): Promise<void> {
    const held = this.#held.get(shard);
    if (!held) return;
    await this.#o.gate.close(shard);
    held.lostTimer.cancel();
    this.#held.delete(shard);
    this.#o.onOwnedChange(new Set(this.#held.keys()));
    await this.#writeFree(shardLeaseName(this.#o.id, shard), held.snapshot);
    this.#log.info({ shard }, 'released shard');
  }

  async #releaseAll(): Promise<void> {
    for (const shard of this.owned()) await this.#release(shard);
    const member = this.#observed.get(this.#memberName);
    if (member?.snapshot.record.holderIdentity === this.#o.identity) await this.#writeFree(this.#memberName, member.snapshot);
  }

  /**
   * Writes the Lease free (holder ''), quoting the version we last wrote; bounded by the renew
   * deadline. On a conflict it re-reads once: a renewal the server applied but whose answer we never
   * saw (the stop aborted it) leaves the Lease ours at a newer version, and still ours to free.
   */
  async #writeFree(name: string, last: LockSnapshot): Promise<void> {
    const { clock, client, namespace, identity } = this.#o;
    const free = releasedRecord(last.record, clock.now());
    const deadline = new AbortController();
    const timer = clock.setTimer(() => deadline.abort(new Error('release deadline passed')), this.#o.renewDeadlineMs);
    const lock = leaseLock({ client, namespace, name });
    const signal = deadline.signal;
    try {
      try {
        await lock.update(free, last.version, { signal });
      } catch (err) {
        if (!isConflict(err)) throw err;
        const current = await lock.get({ signal });
        if (current?.record.holderIdentity !== identity) throw err;
        await lock.update({ ...free, leaderTransitions: current.record.leaderTransitions }, current.version, { signal });
      }
    } catch (err) {
      // Expired or taken over meanwhile: it is no longer ours to free, and whoever holds it decides.
      this.#log.warn({ err, lease: `${namespace}/${name}` }, 'failed to release lease');
    } finally {
      timer.cancel();
    }
  }
}
