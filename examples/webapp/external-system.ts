/**
 * A stand-in for the system outside Kubernetes that a WebApp depends on (a DNS record, a CDN entry,
 * a database user…): the controller registers each live WebApp and its finalizer cleans the record
 * up. It lives in the process so tests can look inside and make it misbehave: fail, lose a response,
 * or hold calls at a gate. Invariant: `register` and `cleanup` are idempotent — registering twice
 * keeps one record, deleting what is already gone succeeds — which is what makes retries safe.
 */
import { realClock, type Clock } from 'kube-converge/meta';

export interface ExternalSystemOptions {
  /** Makes the next `n` cleanup calls fail (after doing nothing) to exercise finalizer retries. */
  failNextCleanups?: number;
  /** Timestamps calls (`calls[].atMs`); default the real clock. */
  clock?: Clock;
}

export interface ExternalCall {
  op: 'register' | 'cleanup';
  key: string;
  atMs: number;
  outcome: 'ok' | 'failed' | 'response-lost';
}

/** Holds every call until `release()`; `reached` resolves with the key of the first call that waits. */
export interface Gate {
  readonly reached: Promise<string>;
  release(): void;
}

export class ExternalSystem {
  readonly #records = new Set<string>();
  readonly #clock: Clock;
  #failuresLeft: number;
  #loseNextResponse: ExternalCall['op'] | undefined;
  #gate: { open: Promise<void>; arrived: (key: string) => void } | undefined;
  /** Every call, in the order it finished, with its outcome. */
  readonly calls: ExternalCall[] = [];

  constructor(options: ExternalSystemOptions = {}) {
    this.#failuresLeft = options.failNextCleanups ?? 0;
    this.#clock = options.clock ?? realClock;
  }

  has(key: string): boolean {
    return this.#records.has(key);
  }

  get size(): number {
    return this.#records.size;
  }

  /** Keys of the cleanup calls made so far, failed ones included. */
  get cleanupCalls(): string[] {
    return this.calls.filter((c) => c.op === 'cleanup').map((c) => c.key);
  }

  /** Makes the next `n` cleanup calls fail. */
  failNextCleanups(n: number): void {
    this.#failuresLeft = n;
  }

  /** The next `op` call succeeds on the external side but its response is lost (the caller sees an error). */
  loseNextResponse(op: ExternalCall['op']): void {
    this.#loseNextResponse = op;
  }

  /** From now on, calls wait until the gate is released (a slow external API, or a crash window). */
  hold(): Gate {
    let release!: () => void;
    let arrived!: (key: string) => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<string>((resolve) => (arrived = resolve));
    this.#gate = { open, arrived };
    return {
      reached,
      release: () => {
        this.#gate = undefined;
        release();
      },
    };
  }

  /** Registers the app (idempotent). */
  async register(key: string): Promise<void> {
    await this.#pass(key);
    this.#records.add(key);
    this.#respond('register', key);
  }

  /** Removes the app's record; succeeds when it is already gone. */
  async cleanup(key: string): Promise<void> {
    await this.#pass(key);
    if (this.#failuresLeft > 0) {
      this.#failuresLeft--;
      this.calls.push({ op: 'cleanup', key, atMs: this.#clock.now(), outcome: 'failed' });
      throw new Error(`external system unavailable while cleaning up ${key}`);
    }
    this.#records.delete(key);
    this.#respond('cleanup', key);
  }

  async #pass(key: string): Promise<void> {
    const gate = this.#gate;
    if (!gate) return;
    gate.arrived(key);
    await gate.open;
  }

  #respond(op: ExternalCall['op'], key: string): void {
    if (this.#loseNextResponse === op) {
      this.#loseNextResponse = undefined;
      this.calls.push({ op, key, atMs: this.#clock.now(), outcome: 'response-lost' });
      throw new Error(`connection reset after ${op} of ${key} (the change was made, the response lost)`);
    }
    this.calls.push({ op, key, atMs: this.#clock.now(), outcome: 'ok' });
  }
}
