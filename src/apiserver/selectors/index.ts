// The face of the API server's selectors: the shardSelector of sharded list and watch.
export { parseShardSelector, shardMatcher } from './shard-selector.js';
