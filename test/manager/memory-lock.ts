// Imports the manager's private lease lock types, which this in-memory lock implements for the tests.
import { type LeaderElectionRecord, type LeaseLock, type LockSnapshot } from '../../src/manager/leaderelection/index.js';
/**
 * An in-memory `LeaseLock` for leader-election tests, with the API server's optimistic concurrency
 * (a stale version or an existing lock is a 409). `mode` injects failures for every caller; `view()`
 * gives one candidate its own failure mode over the same record (one leader's network fails, not the
 * successor's). `releaseWatch` gives the lock a `released` watch that works, or one that fails at once
 * (a 403 on watch). Invariant: every successful write bumps the version.
 */

export type LockMode = 'ok' | 'fail' | 'hang';

export class MemoryLock implements LeaseLock {
  readonly description = 'test/lock';
  snapshot: LockSnapshot | undefined;
  mode: LockMode = 'ok';
  releaseWatch: 'none' | 'works' | 'fails' = 'none';
  #rv = 0;
  readonly #writeListeners = new Set<() => void>();

  get(o: { signal: AbortSignal }): Promise<LockSnapshot | undefined> {
    return this.view(() => this.mode).get(o);
  }
  create(record: LeaderElectionRecord, o: { signal: AbortSignal }): Promise<LockSnapshot> {
    return this.view(() => this.mode).create(record, o);
  }
  update(record: LeaderElectionRecord, version: string, o: { signal: AbortSignal }): Promise<LockSnapshot> {
    return this.view(() => this.mode).update(record, version, o);
  }
  released(version: string, o: { signal: AbortSignal }): Promise<void> {
    return this.#released(version, o.signal);
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
        : { released: (version: string, o: { signal: AbortSignal }) => this.#released(version, o.signal) }),
    };
  }

  /**
   * Resolves once a write after `version` leaves the lock without a holder; rejects on abort, or at once
   * when watches fail; with `releaseWatch` 'none' it never learns of a release (as a lock that cannot tell).
   */
  #released(version: string, signal: AbortSignal): Promise<void> {
    if (this.releaseWatch === 'fails') return Promise.reject(new Error('403 Forbidden: cannot watch leases'));
    if (this.releaseWatch === 'none')
      return new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const isReleased = (): boolean =>
      this.snapshot !== undefined && Number(this.snapshot.version) > Number(version) && this.snapshot.record.holderIdentity === '';
    if (isReleased()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (!isReleased()) return;
        this.#writeListeners.delete(check);
        resolve();
      };
      this.#writeListeners.add(check);
      signal.addEventListener('abort', () => (this.#writeListeners.delete(check), reject(signal.reason)), { once: true });
    });
  }
}
