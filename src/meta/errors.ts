/**
 * The error catalogue: every error Converge throws on purpose carries a stable string `code` and a
 * brand that survives duplicate copies of the package (`ConvergeError.is`). Callers branch on `code`
 * (or, for API failures, on the Status `reason`), never on message text. `docs/errors.md` lists the
 * same codes; a test keeps them in step.
 */

export type ErrorCode =
  | 'CONVERGE_INVALID_OPTION'
  | 'CONVERGE_INVALID_KEY'
  | 'CONVERGE_SELECTOR_PARSE'
  | 'CONVERGE_API_STATUS'
  | 'CONVERGE_NETWORK'
  | 'CONVERGE_KUBECONFIG'
  | 'CONVERGE_WATCH_DECODE'
  | 'CONVERGE_LIST_DECODE'
  | 'CONVERGE_CACHE_NOT_SYNCED'
  | 'CONVERGE_SHARD_NOT_OWNED'
  | 'CONVERGE_ALREADY_OWNED'
  | 'CONVERGE_TERMINAL'
  | 'CONVERGE_UNKNOWN_RESOURCE'
  | 'CONVERGE_PATCH'
  | 'CONVERGE_PROTOBUF_DECODE'
  | 'CONVERGE_INDEXER'
  | 'CONVERGE_INFORMER_STOPPED'
  | 'CONVERGE_WATCH_INTERRUPTED'
  | 'CONVERGE_SHARD_SELECTOR_IGNORED'
  | 'CONVERGE_CACHE_SYNC_TIMEOUT'
  | 'CONVERGE_ALREADY_STARTED'
  | 'CONVERGE_LEADER_ELECTION_LOST'
  | 'CONVERGE_WRITE_FENCED'
  | 'CONVERGE_SHUTDOWN_TIMEOUT'
  | 'CONVERGE_CRD_NOT_SERVED'
  | 'CONVERGE_EVENTUALLY_TIMEOUT'
  | 'CONVERGE_SCHEMA_NOT_STRUCTURAL'
  | 'CONVERGE_INFORMER_FORBIDDEN'
  | 'CONVERGE_CLUSTER_NOT_ENGAGED';

const brand = Symbol.for('converge.error');

export abstract class ConvergeError extends Error {
  abstract readonly code: ErrorCode;
  readonly [brand] = true;
  static is(e: unknown): e is ConvergeError {
    return typeof e === 'object' && e !== null && brand in e;
  }
}

/** A public entry point was given a bad option; `path` names it (e.g. `leaderElection.leaseDurationMs`). */
export class InvalidOptionError extends ConvergeError {
  readonly code = 'CONVERGE_INVALID_OPTION';
  override readonly name = 'InvalidOptionError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`invalid option ${path}: ${reason}`);
  }
}

/** A cache key did not have the `namespace/name` or `name` form. */
export class InvalidKeyError extends ConvergeError {
  readonly code = 'CONVERGE_INVALID_KEY';
  override readonly name = 'InvalidKeyError';
  constructor(readonly key: string) {
    super(`unexpected key format: ${JSON.stringify(key)}`);
  }
}

/** A resource kind is not known to a REST mapping or registry. */
export class UnknownResourceError extends ConvergeError {
  readonly code = 'CONVERGE_UNKNOWN_RESOURCE';
  override readonly name = 'UnknownResourceError';
  constructor(
    readonly what: string,
    options?: { cause?: unknown },
  ) {
    super(`no resource is known for ${what}`, options);
  }
}

/** Validates a non-negative (or >= min) finite integer option. @extension */
export function requireInt(path: string, value: number, { min = 0 }: { min?: number } = {}): void {
  if (!Number.isInteger(value) || value < min) throw new InvalidOptionError(path, `must be an integer >= ${min}, got ${value}`);
}

/** Validates a non-negative finite number option (durations in ms). @extension */
export function requireDuration(path: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidOptionError(path, `must be a finite number of milliseconds >= 0, got ${String(value)}`);
  }
}

/**
 * A label or field selector did not parse or validate. `position` is the 0-based offset in the selector
 * text where the offending token starts (undefined for the struct form, which has no text); `reason`
 * is the Kubernetes-style explanation without the selector, and `message` reads like the API server's.
 */
export class SelectorParseError extends ConvergeError {
  readonly code = 'CONVERGE_SELECTOR_PARSE';
  override readonly name = 'SelectorParseError';
  constructor(
    message: string,
    readonly reason: string,
    readonly position: number | undefined,
  ) {
    super(message);
  }
}
