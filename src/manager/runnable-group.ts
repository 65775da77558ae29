/**
 * A runnable group: runnables started together and stopped together, with one abort signal
 * (controller-runtime's `runnableGroup`). Runnables added before `start()` wait for it; runnables
 * added later start at once. A runnable that rejects while the group is running reports through
 * `onError` (the manager then stops); rejections after the stop began are only logged. Invariant:
 * `stop()` aborts the group's signal exactly once and waits for every runnable ever started.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from '../meta/index.js';
import type { Runnable } from '../controller/index.js';

export class RunnableGroup {
  readonly name: string;
  readonly #ctl = new AbortController();
  readonly #queued: Runnable[] = [];
  readonly #running = new Set<Promise<void>>();
  readonly #onError: (err: unknown) => void;
  readonly #log: Logger;
  #started = false;

  constructor(options: { name: string; logger: Logger; onError: (err: unknown) => void }) {
    this.name = options.name;
    this.#log = options.logger;
    this.#onError = options.onError;
    // Every runnable of the group (each informer's reflector and watch, each controller) listens
    // on this one signal by design, so Node's leak warning at 11 listeners would be a false alarm.
    setMaxListeners(0, this.#ctl.signal);
  }

  get signal(): AbortSignal {
    return this.#ctl.signal;
  }

  add(r: Runnable): void {
    if (this.#ctl.signal.aborted) return;
    if (this.#started) this.#launch(r);
    else this.#queued.push(r);
  }

  start(): void {
    if (this.#started || this.#ctl.signal.aborted) return;
    this.#started = true;
    for (const r of this.#queued.splice(0)) this.#launch(r);
  }

  /** Aborts the group's signal (idempotent, synchronous): runnables see it at once. */
  abort(reason: unknown): void {
    if (!this.#ctl.signal.aborted) this.#ctl.abort(reason);
  }

  /** Aborts, then resolves when every started runnable has returned. */
  async stop(reason: unknown): Promise<void> {
    this.abort(reason);
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  #launch(r: Runnable): void {
    const signal = this.#ctl.signal;
    const run = (async () => {
      try {
        await r.start(signal);
      } catch (err) {
        if (signal.aborted) this.#log.debug({ group: this.name, err }, 'runnable ended with an error during shutdown');
        else this.#onError(err);
      }
    })();
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }
}
