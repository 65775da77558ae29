/**
 * The key issuer the ApiKey operator talks to: an in-memory stand-in for the external API (a SaaS
 * account, a database, a cloud's IAM) whose keys a real operator would manage. Invariant: at most one
 * live key per owner; issuing again revokes the previous key, and revoking twice is not an error.
 */
import { randomBytes } from 'node:crypto';

/** The service named by an ApiKey does not exist at the issuer: no retry fixes that, only a new spec. */
export class UnknownServiceError extends Error {
  override readonly name = 'UnknownServiceError';
}

export class KeyIssuer {
  readonly #services: ReadonlySet<string>;
  readonly #keys = new Map<string, string>();

  constructor(services: readonly string[]) {
    this.#services = new Set(services);
  }

  /** A new key for `owner` (a `namespace/name`) on `service`; the owner's previous key stops working. */
  async issue(owner: string, service: string): Promise<string> {
    if (!this.#services.has(service)) throw new UnknownServiceError(`the issuer has no service ${JSON.stringify(service)}`);
    const key = `${service}_${randomBytes(16).toString('hex')}`;
    this.#keys.set(owner, key);
    return key;
  }

  async revoke(owner: string): Promise<void> {
    this.#keys.delete(owner);
  }

  /** The owner's live key, if any (what the issuer would accept right now). */
  liveKey(owner: string): string | undefined {
    return this.#keys.get(owner);
  }
}
