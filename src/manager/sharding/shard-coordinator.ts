/**
 * Shard ownership across replicas, through Leases in one namespace: `<id>-shard-<i>` for each shard
 * and `<id>-member-<identity>` for each replica. Every `retryPeriodMs` a replica lists the Leases,
 * renews its member Lease and the shard Leases it holds, and deletes member Leases that expired (a
 * crashed replica's; the delete quotes the resourceVersion seen, so one renewed meanwhile stays).
 * Between rounds it follows the Leases with a watch, so that another replica's renewal is timed when
 * it was written, and it runs a round early at the instant another's Lease expires and at once when
 * one is released or a member leaves. The
 * live members (member Leases valid on OUR clock, as leader election measures) decide the
 * assignment (`assignedShards`: the same blocks on every replica that sees the same members); a
 * replica releases the shards it holds outside its block and acquires the free or expired ones in
 * it. Each acquire, renew and takeover is leader election's `leaseStep` written through the same
 * `LeaseLock`, so racing replicas get one success and one conflict.
 *
 * A replica joins (writes its member Lease, so that the others count it) only once it can trust what
 * it sees (`LeaseView.trusted`): a newcomer that finds a crashed replica's Leases waits until it has
 * watched them for their duration, so that it is never assigned a shard it still believes held. It
 * acquires from the round after it joined, by when replicas started at the same time see each other. A
 * crashed replica's shards are thus re-owned by the survivors' assignment one lease duration after
 * its last renewal was seen — as it was written, on the watch — plus the round that takes them. When
 * the watch is down, the renewal is seen on the next list, up to one retry period later.
 *
 * Invariants (with the shard gate): a shard is opened for reconciles only after its Lease was
 * written and its cache synced (`whenSynced`); a release first closes the shard and waits for its
 * in-flight reconciles, then writes the Lease free; a shard whose renewal has not succeeded for
 * `renewDeadlineMs` is closed at that instant, before any other replica may take it
 * (`leaseDurationMs > renewDeadlineMs`); the gate then aborts the signal of the reconciles already
 * running in it.
 */
import { LeaseResource, type Clock, type Logger } from '../../meta/index.js';
import { isConflict, isNotFound, type Client } from '../../client/index.js';
import { leaseLock, leaseStep, releasedRecord, snapshotOf, type LockSnapshot } from '../leaderelection/index.js';
import type { ShardGate } from './shard-gate.js';
import { assignedShards } from './shard-assignment.js';
import { LeaseView } from './lease-view.js';
import { followLeases } from './lease-watch.js';

/** Options of a `ShardCoordinator`: its client, Lease namespace and names, identity, shard count, timings and hooks. */
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
  /** Called with the owned set whenever it changed (after acquiring, before releasing a Lease). */
  onOwnedChange(owned: ReadonlySet<number>): void;
  /**
   * Resolves once a newly acquired shard's cache synced; its gate opens only then (`signal` aborts
   * if the shard is lost first). Absent: the gate opens as soon as the Lease is written.
   */
  whenSynced?(shard: number, signal: AbortSignal): Promise<void>;
  /** Called right after a shard's gate opened. */
  onOpened?(shard: number): void;
}

/** A Lease name may hold only lower-case alphanumerics, '-' and '.'; identities like `host_uuid` do not. */
export const memberLeaseName = (id: string, identity: string): string =>
  `${id}-member-${identity.toLowerCase().replace(/[^a-z0-9.-]/g, '-')}`;
export const shardLeaseName = (id: string, shard: number): string => `${id}-shard-${shard}`;

interface Held {
  snapshot: LockSnapshot;
  lostTimer: { cancel(): void };
  /** Aborted when the shard is lost or released, ending its wait for the cache. */
  readonly stop: AbortController;
}

/** Shares namespace shards among replicas through Leases, telling its caller which shards it owns. */
export class ShardCoordinator {
  readonly #o: ShardCoordinatorOptions;
  readonly #leaseSeconds: number;
  readonly #memberName: string;
  readonly #memberPrefix: string;
  readonly #held = new Map<number, Held>();
  readonly #view = new LeaseView();
  readonly #log: Logger;
  #joined = false;
  #rounds = 0;
  /** Whether a watch is following the Leases now. */
  #following = false;
  /** Aborted to end the current wait between rounds early; undefined during a round. */
  #nap: AbortController | undefined;
  /** A wake-up asked for during a round: the next wait ends at once. */
  #wakePending = false;
  /** When the last round began, on our clock: it judged every Lease that expired before then. */
  #roundStartedAt = 0;
  #expiryTimer: { cancel(): void } | undefined;

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

  /** Who holds `shard`'s Lease as last seen: this replica's identity, another's, or undefined when nobody validly does. */
  holderOf(shard: number): string | undefined {
    if (this.#held.has(shard)) return this.#o.identity;
    const name = shardLeaseName(this.#o.id, shard);
    return this.#view.valid(name, this.#o.clock.monotonicMs()) ? this.#view.get(name)!.snapshot.record.holderIdentity : undefined;
  }

  /** Whether this replica joined and completed a round of ownership (list, renew, balance): the readiness check. */
  reconciledOnce(): boolean {
    return this.#rounds > 0;
  }

  /** Coordinates until `signal` aborts, then closes every shard, writes its Leases free and deletes its member Lease. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const attempt = new AbortController();
      this.#roundStartedAt = this.#o.clock.monotonicMs();
      const timer = this.#o.clock.setTimer(() => attempt.abort(new Error('sharding round timed out')), this.#o.renewDeadlineMs);
      try {
        if (await this.#round(AbortSignal.any([signal, attempt.signal]), signal)) this.#rounds++;
      } catch (err) {
        if (!signal.aborted) this.#log.warn({ err }, 'sharding round failed; retrying');
      } finally {
        timer.cancel();
      }
      await this.#waitForNextRound(signal);
    }
    this.#expiryTimer?.cancel();
    await this.#leave();
  }

  /** Waits one retry period, or less: until another replica's Lease expires, or a wake-up (a release, a leave). */
  async #waitForNextRound(signal: AbortSignal): Promise<void> {
    if (this.#wakePending || signal.aborted) {
      this.#wakePending = false;
      return;
    }
    const nap = (this.#nap = new AbortController());
    this.#armExpiryWake();
    try {
      await this.#o.clock.sleep(this.#o.retryPeriodMs, { signal: AbortSignal.any([signal, nap.signal]) });
    } catch {
      // Woken early or stopping: the loop tells which.
    } finally {
      this.#nap = undefined;
      this.#expiryTimer?.cancel();
    }
  }

  /** Ends the wait between rounds now, or the next one if a round is running. */
  #wake(): void {
    if (this.#nap) this.#nap.abort();
    else this.#wakePending = true;
  }

  /**
   * During a wait, a timer at the instant the soonest of the others' Leases expires on our clock, from
   * those valid when the last round began: one that expired while that round ran wakes the loop at once.
   */
  #armExpiryWake(): void {
    this.#expiryTimer?.cancel();
    this.#expiryTimer = undefined;
    if (!this.#nap) return;
    const expiry = this.#view.nextExpiryOfOthers(this.#o.identity, this.#roundStartedAt);
    if (expiry !== undefined)
      this.#expiryTimer = this.#o.clock.setTimer(() => this.#wake(), Math.max(0, expiry - this.#o.clock.monotonicMs()));
  }

  /** A Lease written or deleted, as the watch reported it: recorded when it arrived; a release or a leave wakes the loop. */
  #onWatched(name: string, snapshot: LockSnapshot | undefined): void {
    const now = this.#o.clock.monotonicMs();
    const wasOthers = this.#heldByOther(name) && this.#view.valid(name, now);
    if (snapshot) this.#view.record(name, snapshot, now);
    else this.#view.forget(name);
    if (wasOthers && !this.#view.valid(name, now)) this.#wake();
    else this.#armExpiryWake();
  }

  /** Starts following the Leases from `resourceVersion` unless a watch already is; it ends with `signal` or on failure. */
  #follow(resourceVersion: string | undefined, signal: AbortSignal): void {
    if (this.#following || !resourceVersion || signal.aborted) return;
    this.#following = true;
    const { client, namespace, id } = this.#o;
    followLeases({ client, namespace, prefix: `${id}-`, resourceVersion, signal, onLease: (name, snap) => this.#onWatched(name, snap) })
      .catch((err: unknown) => {
        if (!signal.aborted)
          this.#log.debug({ err }, 'the watch on the sharding Leases failed; following them by list until the next round');
      })
      .finally(() => {
        this.#following = false;
      });
  }

  /** One round; false until this replica has joined (trusting what it sees) and announced itself. `stop` ends the watch it starts. */
  async #round(signal: AbortSignal, stop: AbortSignal): Promise<boolean> {
    const { clock, shards, id, namespace, client, identity } = this.#o;
    const list = await client.list(LeaseResource, { namespace, signal });
    // Timestamped when the answer arrived, never earlier: a lease seen is counted from when it was visible.
    const now = clock.now();
    const seenAt = clock.monotonicMs();
    const listed = new Map<string, LockSnapshot>();
    for (const lease of list.items) {
      const name = lease.metadata.name ?? '';
      if (name.startsWith(`${id}-`)) listed.set(name, snapshotOf(lease));
    }
    this.#view.update(listed, seenAt);
    this.#follow(list.metadata.resourceVersion, stop);

    if (!this.#joined) {
      const doubtful = this.#view.names().filter((n) => this.#heldByOther(n) && !this.#view.trusted(n, seenAt));
      if (doubtful.length > 0) {
        this.#log.debug({ leases: doubtful }, 'waiting to see whether these Leases are still renewed before joining');
        return false;
      }
      // Announce first and balance from the next round on: replicas that start together then see
      // each other before acquiring, instead of grabbing shards they hand over a round later.
      this.#joined = true;
      this.#log.info({}, 'joining the shard members');
      await this.#claim(this.#memberName, now, seenAt, signal);
      return false;
    }
    await this.#claim(this.#memberName, now, seenAt, signal);
    await this.#deleteExpiredMembers(seenAt, signal);
    const mine = new Set(assignedShards(identity, this.#liveMembers(seenAt), shards));

    // Each Lease is its own lock, so a round writes them side by side: on a slow server a round then
    // takes about one round trip, not one per shard, and a crashed replica's Leases all expire together.
    await Promise.all(
      [...this.#held].map(async ([shard, held]) => {
        const written = await this.#claim(shardLeaseName(id, shard), now, seenAt, signal);
        if (written === 'taken') this.#lose(shard, 'another replica holds its Lease');
        // The renew deadline may have passed while the write was in flight: the shard stays lost
        // (closed) and is acquired again, through the gate, by the balancing below.
        else if (written && this.#held.get(shard) === held) this.#renewed(shard, held, written);
      }),
    );
    await Promise.all(this.owned().flatMap((shard) => (mine.has(shard) ? [] : [this.#release(shard)])));
    await Promise.all(
      [...mine].map(async (shard) => {
        if (this.#held.has(shard)) return;
        const written = await this.#claim(shardLeaseName(id, shard), now, seenAt, signal);
        if (written && written !== 'taken') this.#acquired(shard, written);
      }),
    );
    return true;
  }

  #heldByOther(name: string): boolean {
    const holder = this.#view.get(name)?.snapshot.record.holderIdentity ?? '';
    return holder !== '' && holder !== this.#o.identity;
  }

  /** The identities of the members whose Lease is valid on our clock, this replica always among them. */
  #liveMembers(monotonicMs: number): string[] {
    const live = new Set([this.#o.identity]);
    for (const name of this.#view.names()) {
      if (name.startsWith(this.#memberPrefix) && this.#view.valid(name, monotonicMs))
        live.add(this.#view.get(name)!.snapshot.record.holderIdentity);
    }
    return [...live];
  }

  /** Deletes the member Leases of replicas that stopped renewing (or left one free): nobody else cleans them up. */
  async #deleteExpiredMembers(monotonicMs: number, signal: AbortSignal): Promise<void> {
    for (const name of this.#view.names()) {
      if (!name.startsWith(this.#memberPrefix) || name === this.#memberName || this.#view.valid(name, monotonicMs)) continue;
      const o = this.#view.get(name)!;
      if (await this.#delete(name, o.snapshot.version, signal)) {
        this.#log.info(
          { lease: name, holder: o.snapshot.record.holderIdentity },
          'deleted the member Lease of a replica that stopped renewing it',
        );
      }
    }
  }

  /** Deletes the Lease if it is still at `version`; true when it is gone. A conflict (renewed meanwhile) keeps it. */
  async #delete(name: string, version: string, signal: AbortSignal): Promise<boolean> {
    const { client, namespace } = this.#o;
    try {
      await client.delete(LeaseResource, { namespace, name }, { preconditions: { resourceVersion: version }, signal });
    } catch (err) {
      if (!isNotFound(err)) {
        if (!signal.aborted) this.#log.debug({ err, lease: `${namespace}/${name}` }, 'did not delete lease');
        return false;
      }
    }
    this.#view.forget(name);
    return true;
  }

  /**
   * One `leaseStep` on the Lease `name` from the freshly listed record: the written snapshot, 'taken'
   * when another holder's Lease is valid, or undefined when the write failed (a lost race, an error).
   */
  async #claim(name: string, now: number, monotonicMs: number, signal: AbortSignal): Promise<LockSnapshot | 'taken' | undefined> {
    const { client, namespace, identity } = this.#o;
    const observed = this.#view.get(name);
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
      if (written) this.#view.record(name, written, this.#o.clock.monotonicMs());
      return written;
    } catch (err) {
      if (!signal.aborted) this.#log.debug({ err, lease: `${namespace}/${name}` }, 'failed to acquire or renew lease');
      return undefined;
    }
  }

  #armLostTimer(shard: number): { cancel(): void } {
    return this.#o.clock.setTimer(() => this.#lose(shard, 'renew deadline passed'), this.#o.renewDeadlineMs);
  }

  /** Holds the shard now; opens its gate once its cache synced (at once without `whenSynced`), if still held then. */
  #acquired(shard: number, snapshot: LockSnapshot): void {
    const held: Held = { snapshot, lostTimer: this.#armLostTimer(shard), stop: new AbortController() };
    this.#held.set(shard, held);
    this.#log.info({ shard }, 'acquired shard');
    this.#o.onOwnedChange(new Set(this.#held.keys()));
    const open = (): void => {
      if (this.#held.get(shard) !== held) return;
      this.#o.gate.open(shard);
      this.#o.onOpened?.(shard);
    };
    if (!this.#o.whenSynced) return open();
    this.#o.whenSynced(shard, held.stop.signal).then(open, (err: unknown) => {
      if (!held.stop.signal.aborted) this.#log.warn({ err, shard }, 'the cache of an acquired shard did not sync; not serving it');
    });
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
    held.stop.abort(new Error(`shard ${shard} lost: ${why}`));
    this.#held.delete(shard);
    void this.#o.gate.lose(shard);
    this.#log.error({ shard, why }, 'lost shard');
    this.#o.onOwnedChange(new Set(this.#held.keys()));
  }

  /** Closes the shard, waits for its in-flight reconciles, then writes its Lease free for another replica. */
  async #release(shard: number): Promise<void> {
    const held = this.#held.get(shard);
    if (!held) return;
    await this.#o.gate.close(shard);
    held.lostTimer.cancel();
    held.stop.abort(new Error(`shard ${shard} released`));
    this.#held.delete(shard);
    this.#o.onOwnedChange(new Set(this.#held.keys()));
    await this.#writeFree(shardLeaseName(this.#o.id, shard), held.snapshot);
    this.#log.info({ shard }, 'released shard');
  }

  /** Frees every held shard, then deletes our member Lease, so that the others rebalance at their next round. */
  async #leave(): Promise<void> {
    await Promise.all(this.owned().map((shard) => this.#release(shard)));
    const member = this.#view.get(this.#memberName);
    if (member?.snapshot.record.holderIdentity !== this.#o.identity) return;
    const deadline = new AbortController();
    const timer = this.#o.clock.setTimer(() => deadline.abort(new Error('release deadline passed')), this.#o.renewDeadlineMs);
    try {
      if (!(await this.#delete(this.#memberName, member.snapshot.version, deadline.signal))) {
        // A renewal whose answer the stop cut off moved it to a newer version: still ours to delete.
        const current = await leaseLock({ client: this.#o.client, namespace: this.#o.namespace, name: this.#memberName }).get(deadline);
        if (current?.record.holderIdentity === this.#o.identity) await this.#delete(this.#memberName, current.version, deadline.signal);
      }
    } catch (err) {
      this.#log.warn({ err, lease: `${this.#o.namespace}/${this.#memberName}` }, 'failed to delete the member lease');
    } finally {
      timer.cancel();
    }
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
