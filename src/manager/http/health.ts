/**
 * Health checks: named checks behind `/healthz` and `/readyz`, answered like controller-runtime's
 * `healthz.Handler` (itself the Kubernetes convention). A check passes by returning and fails by
 * throwing. The aggregate path runs every check not named in `?exclude=`; `/<path>/<name>` runs one.
 * Responses are plain text: `ok` when healthy, and with `?verbose` or on failure one line per check
 * (`[+]name ok`, `[-]name failed: reason withheld`) then `<path> check passed|failed`. Invariant: a
 * failure's reason goes to the log, never to the (unauthenticated) response of the aggregate path.
 */
import { InvalidOptionError, type Logger } from '../../meta/index.js';

/** Passes by returning, fails by throwing or rejecting. `signal` aborts when the prober hangs up. */
export type HealthCheck = (options: { signal: AbortSignal }) => void | Promise<void>;

/** The check that always passes (controller-runtime's `healthz.Ping`). */
export const ping: HealthCheck = () => {};

/** The status code and body a health check path answers with. */
export interface HealthResponse {
  status: 200 | 404 | 500;
  body: string;
}

/** A set of named checks served under one path (`healthz` or `readyz`). */
export class HealthChecks {
  readonly #checks = new Map<string, HealthCheck>();
  readonly #path: string;
  readonly #log: Logger;

  constructor(options: { path: string; logger: Logger }) {
    this.#path = options.path;
    this.#log = options.logger;
  }

  /** Adds a named check; names are unique and URL-safe (`[A-Za-z0-9._-]`). */
  add(name: string, check: HealthCheck): void {
    if (!/^[A-Za-z0-9._-]+$/.test(name))
      throw new InvalidOptionError(`${this.#path}.${name}`, 'check names may only contain letters, digits, ".", "_" and "-"');
    if (this.#checks.has(name)) throw new InvalidOptionError(`${this.#path}.${name}`, 'a check with this name was already added');
    this.#checks.set(name, check);
  }

  /**
   * Answers a request for `/<path>` (`name` undefined) or `/<path>/<name>`. `query` is the request's
   * search params (`verbose`, repeated `exclude`).
   */
  async handle(request: { name?: string | undefined; query: URLSearchParams; signal: AbortSignal }): Promise<HealthResponse> {
    const { name, query, signal } = request;
    if (name !== undefined) {
      const check = this.#checks.get(name);
      if (!check) return { status: 404, body: `no ${this.#path} check named ${JSON.stringify(name)}\n` };
      const err = await this.#run(name, check, signal);
      return err === undefined ? { status: 200, body: 'ok' } : { status: 500, body: `internal server error: ${describe(err)}\n` };
    }
    const excluded = new Set(
      query
        .getAll('exclude')
        .flatMap((e) => e.split(','))
        .filter((e) => e !== ''),
    );
    const names = [...this.#checks.keys()].filter((n) => !excluded.has(n)).sort();
    const results = await Promise.all(names.map(async (n) => ({ name: n, err: await this.#run(n, this.#checks.get(n)!, signal) })));
    const healthy = results.every((r) => r.err === undefined);
    if (healthy && !query.has('verbose')) return { status: 200, body: 'ok' };
    const lines = results.map((r) => (r.err === undefined ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
    for (const n of excluded) if (!this.#checks.has(n)) lines.push(`warn: some health checks cannot be excluded: no matches for "${n}"`);
    lines.push(`${this.#path} check ${healthy ? 'passed' : 'failed'}`);
    return { status: healthy ? 200 : 500, body: lines.join('\n') + '\n' };
  }

  async #run(name: string, check: HealthCheck, signal: AbortSignal): Promise<unknown> {
    try {
      await check({ signal });
      return undefined;
    } catch (err) {
      // Undefined is the "passed" marker, so a check that throws `undefined` still counts as failed.
      const failure = err ?? new Error('check failed without a reason');
      this.#log.info({ check: name, path: this.#path, err: failure }, 'health check failed');
      return failure;
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
