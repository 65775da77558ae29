/**
 * The cache layer's own errors (API failures stay the client's `StatusError`/`NetworkError`). Each
 * has a stable code from the catalogue in `src/meta/errors.ts`.
 */
import { ConvergeError } from '../meta/index.js';

/** An index name is unknown, or `addIndexers` would overwrite an existing index. */
export class IndexerError extends ConvergeError {
  readonly code = 'CONVERGE_INDEXER';
  override readonly name = 'IndexerError';
}

/** Handlers and indexers cannot be added to an informer that has stopped. */
export class InformerStoppedError extends ConvergeError {
  readonly code = 'CONVERGE_INFORMER_STOPPED';
  override readonly name = 'InformerStoppedError';
  constructor(readonly informer: string, what: string) {
    super(`informer ${informer} has stopped: cannot ${what}`);
  }
}

/**
 * A watch ended without a server error but in a way the reflector treats as a failure: it closed
 * within a second without delivering anything (`tooShort`), went silent for longer than the
 * inactivity timeout (`inactive`), or a streaming list ended before its initial-events-end bookmark
 * (`incomplete`).
 */
export class WatchInterruptedError extends ConvergeError {
  readonly code = 'CONVERGE_WATCH_INTERRUPTED';
  override readonly name = 'WatchInterruptedError';
  constructor(readonly why: 'tooShort' | 'inactive' | 'incomplete', message: string) {
    super(message);
  }
}
