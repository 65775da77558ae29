// Imports the manager's private sharded informer and shard selectors, to run the contract on them too.
// Runs the SharedIndexInformer contract against every informer that claims it: the cache's plain
// informer, and the manager's multi-namespace and sharded informers, each through its public face
// (`namespaceSharder`, which maps a namespace to its shard, is the sharding sub-package's, not the layer's).
import { SharedInformerFactory, createListerWatcher, createSharedIndexInformer } from 'kube-converge/cache';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { createManager } from 'kube-converge/manager';
import { namespaceSharder } from '../../src/manager/sharding/index.js';
import { NAMESPACES, sharedIndexInformerContract } from './informer-contract.js';
import { ShardedInformer } from '../../src/manager/cache/index.js';
import { namespaceShardSelector, shardRanges } from '../../src/manager/sharding/index.js';

sharedIndexInformerContract('the plain informer (all namespaces)', async (client) =>
  createSharedIndexInformer<KubeObject>({ listerWatcher: createListerWatcher<KubeObject>({ client, resource: ConfigMapResource }) }),
);

// The manager builds a multi-namespace informer for a kind cached in more than one namespace.
sharedIndexInformerContract("the manager's multi-namespace informer", async (client) => {
  const mgr = await createManager({ client, cache: { defaults: { namespaces: [...NAMESPACES] } } });
  return mgr.getInformer<KubeObject>(ConfigMapResource);
});

sharedIndexInformerContract("the manager's sharded informer (two shards, both owned)", async (client) => {
  const ranges = shardRanges(2);
  const informer = new ShardedInformer<KubeObject>({
    factory: new SharedInformerFactory({ client }),
    resource: ConfigMapResource,
    member: (shard) => ({ shardSelector: namespaceShardSelector([ranges[shard]!]) }),
    shardOf: namespaceSharder(ranges),
  });
  // Resolves only once the members synced, which needs run(): the contract awaits sync itself.
  void informer.setShards(new Set([0, 1]));
  return informer;
});
