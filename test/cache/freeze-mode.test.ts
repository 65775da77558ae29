// Imports the cache's private freeze default (src/cache/freeze-policy.ts), which no face exports.
// The informer deep-freezes what it stores in tests and development and stores objects as decoded in
// production (`NODE_ENV=production`), unless told; a TestEnv manager always freezes. Both modes must
// store the same values and skip the same unchanged versions: only frozenness differs.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { freezeByDefault } from '../../src/cache/freeze-policy.js';
import { TestEnv } from 'kube-converge/testing';
import { cm } from './fake-client.js';
import { harness } from './helpers.js';

const nodeEnv = process.env['NODE_ENV'];
afterEach(() => {
  if (nodeEnv === undefined) delete process.env['NODE_ENV'];
  else process.env['NODE_ENV'] = nodeEnv;
});

type Data = KubeObject & { data: Record<string, string> };

describe('freezing cached objects', () => {
  it('freeze: true stores deep-frozen objects, so a write to a cached object throws', async () => {
    process.env['NODE_ENV'] = 'production';
    const h = harness({ informer: { freeze: true } });
    h.client.upsert(cm('a', { k: 'v' }));
    h.start();
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a') as Data;
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.metadata) && Object.isFrozen(a.data));
    assert.throws(() => {
      a.data['k'] = 'changed';
    }, TypeError);
    await h.stop();
  });

  it('freeze: false stores the decoded objects unfrozen, with the same values, and still keeps an unchanged version', async () => {
    const h = harness({ informer: { freeze: false } });
    h.client.upsert(cm('a', { k: 'v' }));
    const updates: string[] = [];
    h.informer.addEventHandler({ onUpdate: (o, n) => void updates.push(`${o.metadata.resourceVersion}>${n.metadata.resourceVersion}`) });
    h.start();
    await h.advance(0);
    const a = h.informer.getIndexer().getByKey('default/a') as Data;
    assert.equal(Object.isFrozen(a), false);
    assert.equal(Object.isFrozen(a.data), false);
    assert.deepEqual(a.data, { k: 'v' });
    h.client.upsert(cm('a', { k: 'w' }));
    await h.advance(0);
    const a2 = h.informer.getIndexer().getByKey('default/a') as Data;
    assert.deepEqual(a2.data, { k: 'w' });
    assert.deepEqual(updates, [`${a.metadata.resourceVersion}>${a2.metadata.resourceVersion}`]);
    await h.stop();
  });

  it('by default freezes unless NODE_ENV is production', async () => {
    for (const [env, frozen] of [
      ['production', false],
      ['development', true],
      [undefined, true],
    ] as const) {
      if (env === undefined) delete process.env['NODE_ENV'];
      else process.env['NODE_ENV'] = env;
      assert.equal(freezeByDefault(), frozen, `NODE_ENV=${env}`);
      const h = harness();
      h.client.upsert(cm('a', { k: 'v' }));
      h.start();
      await h.advance(0);
      assert.equal(Object.isFrozen(h.informer.getIndexer().getByKey('default/a')), frozen, `NODE_ENV=${env}`);
      await h.stop();
    }
  });

  it("a TestEnv manager's cache freezes even under NODE_ENV=production", async () => {
    process.env['NODE_ENV'] = 'production';
    await using env = await TestEnv.start();
    await env.client.create(ConfigMapResource, { metadata: { name: 'c', namespace: 'default' }, data: { k: 'v' } });
    const mgr = await env.newManager();
    const informer = await mgr.getInformer(ConfigMapResource);
    const ac = new AbortController();
    const running = mgr.start(ac.signal);
    await informer.waitForSync();
    const c = informer.getIndexer().getByKey('default/c') as Data;
    assert.ok(Object.isFrozen(c) && Object.isFrozen(c.data));
    assert.throws(() => {
      c.data['k'] = 'changed';
    }, TypeError);
    ac.abort();
    await running;
  });
});
