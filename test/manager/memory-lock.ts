// Imports the manager's private lease lock types, which this in-memory lock implements for the tests.
import { type LeaderElectionRecord, type LeaseLock, type LockChange, type LockSnapshot } from '../../src/manager/leaderelection/index.js';
/**
 * An in-memory `LeaseLock` for leader-election tests, with the API server's optimistic concurrency
 * (a stale version or an existing lock is a 409). `mode` injects failures for every caller; `view()`
 * gives one candidate its own failure mode over the same record (one leader's network fails, not the
 * successor's). `releaseWatch` gives the lock a `watch` that works, or one that fails at once (a 403 on
 * watch); `watchesFrom` lists the version each watch request started from, and `endWatches()` ends the
 * open ones as a server does. Invariant: every successful write bumps the version.
 */

export type LockMode = 'ok' | 'fail' | 'hang';

export class MemoryLock implements LeaseLock {
  readonly description = 'test/lock';
  snapshot: LockSnapshot | undefined;
  mode: LockMode = 'ok';
  releaseWatch: 'none' | 'works' | 'fails' = 'none';
  /** The version each watch request started from, in order. */
  readonly watchesFrom: string[] = [];
  #rv = 0;
  readonly #writeListeners = new Set<() => void>();
  readonly #openWatches = new Set<() => void>();

  get(o: { signal: AbortSignal }): Promise<LockSnapshot | undefined> {
    return this.view(() => this.mode).get(o);
  }
  create(record: LeaderElectionRecord, o: { signal: AbortSignal }): Promise<LockSnapshot> {
    return this.view(() => this.mode).create(record, o);
  }
  update(record: LeaderElectionRecord, version: string, o: { signal: AbortSignal }): Promise<LockSnapshot> {
    return this.view(() => this.mode).update(record, version, o);
  }
  watch(version: string, onChange: (change: LockChange) => void, o: { signal: AbortSignal }): Promise<void> {
    return this.#watch(version, onChange, o.signal);
  }

  /** Ends every open watch cleanly, as an API server does when a watch's timeout passes. */
  endWatches(): void {
    for (const end of this.#openWatches) end();
  }

  /** Writes `record` as a new version (also what an intruder does behind the candidates' backs). */
  write(record: LeaderElectionRecord): LockSnapshot {
    this.snapshot = { record: { ...record }, version: String(++this.#rv) };
    for (const l of this.#writeListeners) l();
    return structuredClone(this.snapshot);
  }

  /** The same lock seen through a network whose failures `mode()` decides. */
  view(mode: () => LockMode): LeaseLock {
    const gate = async (signal: AbortSignal): Promise<void> => {
      signal.throwIfAborted();
      if (mode() === 'fail') throw new Error('503 ServiceUnavailable');
      if (mode() === 'hang') {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      }
    };
    return {
      description: this.description,
      get: async ({ signal }) => {
        await gate(signal);
        return this.snapshot && structuredClone(this.snapshot);
      },
      create: async (record, { signal }) => {
        await gate(signal);
        if (this.snapshot) throw new Error('409 AlreadyExists');
        return this.write(record);
      },
      update: async (record, version, { signal }) => {
        await gate(signal);
        if (!this.snapshot || this.snapshot.version !== version) throw new Error('409 Conflict');
        return this.write(record);
      },
      ...(this.releaseWatch === 'none'
        ? {}
        : {
            watch: (version: string, onChange: (change: LockChange) => void, o: { signal: AbortSignal }) =>
              this.#watch(version, onChange, o.signal),
          }),
    };
  }

  /**
   * Reports each write after `version` (writes it missed before it opened as one change: the record
   * now, as a server compacts history) until `signal` aborts or `endWatches()`; rejects at once when
   * watches fail; with `releaseWatch` 'none' it never reports anything (as a lock that cannot tell).
   */
  async #watch(version: string, onChange: (change: LockChange) => void, signal: AbortSignal): Promise<void> {
    this.watchesFrom.push(version);
    if (this.releaseWatch === 'fails') throw new Error('403 Forbidden: cannot watch leases');
    const report = (): void => {
      const s = this.snapshot;
      if (s === undefined || this.releaseWatch === 'none') return;
      onChange({ kind: s.record.holderIdentity === '' ? 'released' : 'held', version: s.version });
    };
    if (this.snapshot !== undefined && Number(this.snapshot.version) > Number(version)) report();
    if (signal.aborted) return;
    await new Promise<void>((resolve) => {
      const end = (): void => {
        this.#writeListeners.delete(report);
        this.#openWatches.delete(end);
        signal.removeEventListener('abort', end);
        resolve();
      };
      this.#writeListeners.add(report);
      this.#openWatches.add(end);
      signal.addEventListener('abort', end, { once: true });
    });
  }
}
