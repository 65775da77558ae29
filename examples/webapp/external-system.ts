/**
 * A stand-in for the system outside Kubernetes that a WebApp's finalizer must clean up (a DNS
 * record, a CDN entry, a database user…). It lives in the process so tests can look inside and make
 * it fail. Invariant: `cleanup` is idempotent — deleting what is already gone succeeds — which is
 * what makes a finalizer safe to retry.
 */

export interface ExternalSystemOptions {
  /** Makes the next `n` cleanup calls fail (after doing nothing) to exercise finalizer retries. */
  failNextCleanups?: number;
}

export class ExternalSystem {
  readonly #records = new Set<string>();
  #failuresLeft: number;
  #loseNextResponse = false;
  /** Every cleanup call, successful or not, in order. */
  readonly cleanupCalls: string[] = [];

  constructor(options: ExternalSystemOptions = {}) {
    this.#failuresLeft = options.failNextCleanups ?? 0;
  }

  /** Registers the app (idempotent). */
  register(key: string): void {
    this.#records.add(key);
  }

  has(key: string): boolean {
    return this.#records.has(key);
  }

  get size(): number {
    return this.#records.size;
  }

  /** Makes the next `n` cleanup calls fail. */
  failNextCleanups(n: number): void {
    this.#failuresLeft = n;
  }

  /** The next cleanup succeeds on the external side but its response is lost (the caller sees an error). */
  loseNextResponse(): void {
    this.#loseNextResponse = true;
  }

  /** Removes the app's record; succeeds when it is already gone. */
  async cleanup(key: string): Promise<void> {
    this.cleanupCalls.push(key);
    if (this.#failuresLeft > 0) {
      this.#failuresLeft--;
      throw new Error(`external system unavailable while cleaning up ${key}`);
    }
    this.#records.delete(key);
    if (this.#loseNextResponse) {
      this.#loseNextResponse = false;
      throw new Error(`connection reset after cleaning up ${key} (response lost)`);
    }
  }
}
