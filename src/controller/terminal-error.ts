/**
 * TerminalError: the way a reconciler says "retrying will not help". The reconcile loop logs and counts
 * it (`controller_runtime_terminal_reconcile_errors_total`, and `reconcile_errors_total` too) and never
 * requeues the request; it does not forget the key's backoff either, as in controller-runtime. The
 * request is reconciled again only when a new event arrives.
 */
import { ConvergeError } from '../meta/index.js';

/** Thrown by a reconciler to say that retrying will not help: the request is logged and counted, never requeued. */
export class TerminalError extends ConvergeError {
  readonly code = 'CONVERGE_TERMINAL';
  override readonly name = 'TerminalError';
  /**
   * Wraps `cause` (an error or a message). The message reads `terminal error: <cause's message>`, or
   * `nil terminal error` when there is no cause.
   */
  constructor(cause?: unknown) {
    super(cause === undefined || cause === null ? 'nil terminal error' : `terminal error: ${messageOf(cause)}`, { cause });
  }
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * True if `err`, or any error in its `cause` chain, is a TerminalError (Go's `errors.Is`). Checks the
 * brand and code rather than `instanceof`, so duplicate copies of the package still agree.
 */
export function isTerminalError(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = err; typeof e === 'object' && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (ConvergeError.is(e) && e.code === 'CONVERGE_TERMINAL') return true;
  }
  return false;
}
