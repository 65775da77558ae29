// explain on a sharded replica, through the private explainObject with stub controllers (a sharded
// manager needs Leases and a server): a replica that does not own the object's shard judges the object
// itself, so an object converged on its owner is converged here too; a replica that owns the shard
// forgets what its controllers remembered from before it began serving it (a retry dropped unreconciled
// while another replica owned it stays waiting-retry in the tracker), and keeps what came after.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from 'kube-converge/client';
import type { Controller } from 'kube-converge/controller';
import type { ReconcileState } from '../../src/controller/internal.js';
import { ConfigMapResource, FakeClock, type KubeObject, type ResourceDescriptor } from 'kube-converge/meta';
import { explainObject, type ShardReport } from '../../src/manager/explain/index.js';
import type { InformerCache } from '../../src/manager/cache/index.js';

const nn = { namespace: 'team-a', name: 'page' };
const page: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...nn, uid: 'u', resourceVersion: '9' } };

/** A controller of ConfigMaps that remembers one failed reconcile of `nn`, finished at `finishedAt`. */
function failedEarlier(finishedAt: number): Controller<unknown> {
  const state: ReconcileState = {
    request: nn,
    phase: 'waiting-retry',
    nextAttemptAt: finishedAt + 80,
    lastOutcome: 'error',
    lastError: { message: 'the object has been modified', reason: 'Conflict' },
    failures: 4,
    lastFinishedAt: finishedAt,
    reconciles: 4,
  };
  return {
    name: 'pages',
    forResource: ConfigMapResource as ResourceDescriptor,
    ownedResources: [],
    reconcileState: () => state,
  } as unknown as Controller<unknown>;
}

async function explain(shard: ShardReport, controller: Controller<unknown>) {
  const clock = new FakeClock(10_000);
  return explainObject({
    resource: ConfigMapResource as ResourceDescriptor,
    nn,
    cache: { peek: () => ({ informer: 'synced', object: undefined }) } as unknown as InformerCache,
    apiReader: { get: async () => page } as unknown as Pick<Client, 'get'>,
    controllers: [controller],
    clock,
    shardOf: () => shard,
  });
}

describe('explain on a sharded replica', () => {
  it('calls an object converged on a replica that does not own its shard when the object itself is, and names the owner', async () => {
    const r = await explain({ shard: 3, owner: 'b', ownedHere: false }, failedEarlier(9_000));
    assert.equal(r.converged, true, r.summary);
    assert.deepEqual(r.reasons, []);
    assert.deepEqual(r.controllers, []);
    assert.match(r.summary, /^converged: ConfigMap team-a\/page — .*owned by replica "b"/);
  });

  it('drops a failed retry remembered from before this replica began serving the shard', async () => {
    const r = await explain({ shard: 3, owner: 'a', ownedHere: true, servingSinceMs: 9_500 }, failedEarlier(2_000));
    assert.equal(r.controllers[0]?.state, null);
    assert.equal(r.converged, true, r.summary);
  });

  it('drops every settled state while the shard is owned but its cache not yet served', async () => {
    const r = await explain({ shard: 3, owner: 'a', ownedHere: true }, failedEarlier(9_900));
    assert.equal(r.controllers[0]?.state, null);
  });

  it('keeps a failure that happened while serving the shard', async () => {
    const r = await explain({ shard: 3, owner: 'a', ownedHere: true, servingSinceMs: 9_500 }, failedEarlier(9_900));
    assert.equal(r.controllers[0]?.state?.phase, 'waiting-retry');
    assert.equal(r.converged, false);
    assert.match(r.summary, /reconcile failing for 4 attempts \(Conflict/);
  });
});
