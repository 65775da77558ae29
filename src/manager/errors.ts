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
