/**
 * The controller layer's own errors, each with a stable code from the catalogue in `src/meta/errors.ts`.
 * (`TerminalError` has its own file: reconcilers throw it, the controller never does.)
 */
import { ConvergeError } from '../meta/index.js';

/** A source did not sync within the controller's `cacheSyncTimeoutMs`. The message names the kind. */
export class CacheSyncTimeoutError extends ConvergeError {
  readonly code = 'CONVERGE_CACHE_SYNC_TIMEOUT';
  override readonly name = 'CacheSyncTimeoutError';
  constructor(
    readonly controller: string,
    readonly source: string,
    readonly timeoutMs: number,
  ) {
    super(`controller ${controller}: timed out after ${timeoutMs}ms waiting for cache to be synced for ${source}`);
  }
}

/** A controller's `start` was called a second time. */
export class AlreadyStartedError extends ConvergeError {
  readonly code = 'CONVERGE_ALREADY_STARTED';
  override readonly name = 'AlreadyStartedError';
  constructor(readonly what: string) {
    super(`${what} was already started`);
  }
}
