/**
 * The one watch a campaigning candidate keeps on its lock, so that it tries at once when the holder
 * gives the lock up instead of at its next retry. It opens at the first wait and stays open across
 * rounds; only when it failed or ended is it opened again, at the next wait, from the newest version
 * seen (read or written by a round, or sent by the watch). While it is down a wait is the whole retry
 * period, as when the lock cannot be watched at all. Invariant: at most one watch request is open at a
 * time, and a release wakes a wait only when it is newer than what the candidate last read or wrote.
 */
import type { Clock, Logger } from '../../meta/index.js';
import type { LeaseLock, LockChange } from './lock.js';

/** A lock's watch (`LeaseLock.watch`), bound to its lock. */
export type LockWatch = NonNullable<LeaseLock['watch']>;

/** Options of a `ReleaseWatch`: the lock's watch, the clock that times waits, the log, the campaign's signal. */
export interface ReleaseWatchOptions {
  watch: LockWatch;
  clock: Clock;
  logger: Logger;
  /** Aborts when the campaign ends (won or cancelled); it closes the watch and every wait. */
  signal: AbortSignal;
}

/** Waits between a candidate's rounds, cut short by a release its one watch on the lock reports. */
export class ReleaseWatch {
  readonly #o: ReleaseWatchOptions;
  #open = false;
  /** Whether a watch failed once (logged once: it fails the same way each time it is opened again). */
  #failed = false;
  /** The newest version seen, by the candidate or the watch: where a reopened watch starts. */
  #latest: string | undefined;
  /** The version the candidate last read or wrote: a release at this version is one it knows of. */
  #seen: string | undefined;
  /** The version of the watch's last change when that change was a release, else undefined. */
  #release: string | undefined;
  /** Ends the wait in progress, if any. */
  #wake: (() => void) | undefined;

  constructor(options: ReleaseWatchOptions) {
    this.#o = options;
  }

  /** The candidate read or wrote the lock at `version`. */
  saw(version: string): void {
    this.#seen = this.#latest = version;
  }

  /**
   * Waits `periodMs`, or less when the watch reports a release the candidate has not seen (also one
   * reported while the round before ran). Opens the watch if it is not open. Rejects once the
   * campaign's signal aborts.
   */
  async wait(periodMs: number): Promise<void> {
    const { clock, signal } = this.#o;
    signal.throwIfAborted();
    if (this.#releasePending()) {
      this.#release = undefined;
      return;
    }
    if (!this.#open && this.#latest !== undefined) this.#start(this.#latest);
    const done = new AbortController();
    const woken = new Promise<void>((resolve) => (this.#wake = resolve));
    try {
      await Promise.race([clock.sleep(periodMs, { signal: AbortSignal.any([signal, done.signal]) }), woken]);
    } finally {
      this.#wake = undefined;
      // The next round reads the lock after this wait, so it learns of any release before now.
      this.#release = undefined;
      done.abort();
    }
  }

  #releasePending(): boolean {
    return this.#release !== undefined && this.#release !== this.#seen;
  }

  #onChange(change: LockChange): void {
    this.#latest = change.version;
    if (change.kind === 'bookmark') return;
    this.#release = change.kind === 'released' ? change.version : undefined;
    if (this.#releasePending()) this.#wake?.();
  }

  #start(version: string): void {
    const { watch, logger, signal } = this.#o;
    this.#open = true;
    void watch(version, (change) => this.#onChange(change), { signal })
      .catch((err: unknown) => {
        if (signal.aborted || this.#failed) return;
        this.#failed = true;
        logger.info({ err }, 'cannot watch the lock for a release; trying every retry period');
      })
      .finally(() => (this.#open = false));
  }
}
