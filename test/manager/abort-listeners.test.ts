// A manager caching many kinds waits for all their informers with one abort listener on its signal,
// not one per kind: eleven listeners on one AbortSignal make Node warn MaxListenersExceededWarning,
// which a manager of eleven kinds (or a sharded one acquiring a dozen shards) printed at every start.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createManager } from 'kube-converge/manager';
import { FakeClock, defineResource, noopLogger } from 'kube-converge/meta';
import { FakeClient, settle } from '../cache/fake-client.js';

describe('abort listeners of a manager with many kinds', () => {
  it('starts a manager caching 16 kinds without a MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    // Listings stay unanswered until the test lets them through: every informer waits on the manager's signal at once.
    const api = new FakeClient();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const list = api.list.bind(api);
    api.list = (async (...args: Parameters<FakeClient['list']>) => {
      await gate;
      return list(...args);
    }) as FakeClient['list'];
    const mgr = await createManager({ client: api, clock: new FakeClock(0), logger: noopLogger, staleness: false });
    for (let i = 0; i < 16; i++) {
      await mgr.getInformer(
        defineResource({ group: 'example.dev', version: 'v1', kind: `Kind${i}`, plural: `kinds${i}`, namespaced: true }),
      );
    }
    const run = mgr.start();
    try {
      await settle(20);
      release();
      await mgr.elected();
      await settle(5);
      assert.deepEqual(
        warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')),
        [],
      );
    } finally {
      process.off('warning', onWarning);
      await mgr.shutdown();
      await run;
    }
  });
});
