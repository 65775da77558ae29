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
  constructor(
    readonly informer: string,
    what: string,
  ) {
    super(`informer ${informer} has stopped: cannot ${what}`);
  }
}

/**
 * A sharded list came back without `metadata.shardInfo`: the server does not know `shardSelector`
 * and sent the whole collection. Storing it would make the shard's store a superset and overlap
 * every other shard, so the list fails and the reflector retries (and reports) instead.
 */
export class ShardSelectorIgnoredError extends ConvergeError {
  readonly code = 'CONVERGE_SHARD_SELECTOR_IGNORED';
  override readonly name = 'ShardSelectorIgnoredError';
  constructor(
    readonly collection: string,
    readonly shardSelector: string,
  ) {
    super(
      `list of ${collection} has no metadata.shardInfo: the server ignored shardSelector ${JSON.stringify(shardSelector)} (is the ShardedListAndWatch feature gate on?)`,
    );
  }
}

/**
 * A watch ended without a server error but in a way the reflector treats as a failure: it closed
 * within a second without delivering anything (`tooShort`), or a streaming list ended before its
 * initial-events-end bookmark (`incomplete`). A silent watch is the client's `NetworkError`.
 */
export class WatchInterruptedError extends ConvergeError {
  readonly code = 'CONVERGE_WATCH_INTERRUPTED';
  override readonly name = 'WatchInterruptedError';
  constructor(
    readonly why: 'tooShort' | 'incomplete',
    message: string,
  ) {
    super(message);
  }
}
