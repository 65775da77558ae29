/**
 * The manager's own lifecycle errors, each with its code from the catalogue in `src/meta/errors.ts`.
 * Callers branch on `code`, never on the message.
 */
import { ConvergeError } from '../meta/index.js';

/** Runnables were still running when the graceful shutdown timeout passed. */
export class ShutdownTimeoutError extends ConvergeError {
  readonly code = 'CONVERGE_SHUTDOWN_TIMEOUT';
  override readonly name = 'ShutdownTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly pending: readonly string[],
  ) {
    super(`failed waiting for all runnables to end within grace period of ${timeoutMs} ms (still running: ${pending.join(', ')})`);
  }
}

/** Why a write through the manager's client was refused. */
export type WriteFencedReason = 'leadership-lost' | 'shard-lost' | 'cache-stale';

/**
 * A write through the manager's client was refused locally, before it was sent: this replica no longer
 * leads (or no longer owns the object's shard), or a guarded delete met a stale cache.
 */
export class WriteFencedError extends ConvergeError {
  readonly code = 'CONVERGE_WRITE_FENCED';
  override readonly name = 'WriteFencedError';
  constructor(
    readonly why: WriteFencedReason,
    readonly verb: string,
    readonly object: string,
    detail: string,
  ) {
    super(`${verb} ${object} refused before it was sent (${why}): ${detail}`);
  }
}
