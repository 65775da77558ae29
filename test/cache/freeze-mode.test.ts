// Imports the cache's private freeze default (src/cache/freeze-policy.ts), which no face exports.
// The informer deep-freezes what it stores in tests and development and stores objects as decoded in
// production (`NODE_ENV=production`), unless told; a TestEnv manager always freezes. Both modes must
// store the same values and skip the same unchanged versions: only frozenness differs.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, type KubeObject } from 'kube-converge/meta';
import { freezeByDefault, shareWithStored } from '../../src/cache/freeze-policy.js';
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

  it("freeze: false keeps the parts of spec and status an update left equal as the stored version's, and only those", async () => {
    type Workload = KubeObject & {
      spec: { containers: { name: string; image: string }[]; paused: boolean };
      status: Record<string, unknown>;
    };
    const workload = (image: string, phase: string): Workload =>
      ({
        metadata: { namespace: 'default', name: 'w', labels: { app: 'w' } },
        spec: {
          containers: [
            { name: 'app', image },
            { name: 'sidecar', image: 'proxy:1' },
          ],
          paused: false,
        },
        status: { phase, conditions: [{ type: 'Ready', status: 'True' }], empty: {} },
      }) as Workload;
    const h = harness({ informer: { freeze: false } });
    h.client.upsert(workload('app:1', 'Running'));
    const olds: Workload[] = [];
    h.informer.addEventHandler({ onUpdate: (o) => void olds.push(o as Workload) });
    h.start();
    await h.advance(0);
    const stored = (): Workload => h.informer.getIndexer().getByKey('default/w') as Workload;
    const v1 = stored();

    h.client.upsert(workload('app:1', 'Pending'));
    await h.advance(0);
    const v2 = stored();
    assert.deepEqual(
      { spec: v2.spec, status: v2.status },
      { spec: workload('app:1', 'Pending').spec, status: workload('app:1', 'Pending').status },
    );
    assert.equal(v2.spec, v1.spec, 'an unchanged spec is the stored one');
    assert.notEqual(v2.status, v1.status, 'a changed status is not');
    assert.equal(v2.status['conditions'], v1.status['conditions'], 'but its unchanged members are');
    assert.equal(v2.status['empty'], v1.status['empty']);
    assert.notEqual(v2.metadata, v1.metadata);
    assert.equal(olds[0], v1, 'the handler still gets the stored version as the old one');

    h.client.upsert(workload('app:2', 'Pending'));
    await h.advance(0);
    const v3 = stored();
    assert.equal(v3.spec.containers[0]!.image, 'app:2');
    assert.equal(v2.spec.containers[0]!.image, 'app:1', 'the old version is not changed');
    assert.notEqual(v3.spec, v2.spec);
    assert.equal(v3.spec.containers[1], v2.spec.containers[1]);
    assert.equal(v3.status, v2.status, 'an unchanged status is the stored one');
    assert.equal(Object.isFrozen(v3.spec), false);
    await h.stop();
  });

  it('shareWithStored takes a stored part only when it is the same JSON', () => {
    const share = (next: string, prev: string): { kept: Record<string, unknown>; stored: Record<string, unknown> } => {
      const stored = JSON.parse(prev) as Record<string, unknown>;
      const kept = shareWithStored(JSON.parse(next) as KubeObject, stored as KubeObject) as Record<string, unknown>;
      assert.deepEqual(kept, JSON.parse(next), 'values never change');
      return { kept, stored };
    };
    const same = '{"spec":{"a":[1,{"b":null}],"c":"x"},"status":[{}]}';
    const equal = share(same, same);
    assert.equal(equal.kept['spec'], equal.stored['spec']);
    assert.equal(equal.kept['status'], equal.stored['status']);
    for (const [next, prev] of [
      ['{"a":1}', '{"a":1,"b":2}'],
      ['{"a":1,"b":2}', '{"a":1}'],
      ['{"a":[1,2]}', '{"a":[1,2,3]}'],
      ['{"a":[1,2,3]}', '{"a":[1,2]}'],
      ['{"a":{}}', '{"a":[]}'],
      ['{"a":null}', '{"a":{}}'],
      ['{"a":"1"}', '{"a":1}'],
    ]) {
      const { kept, stored } = share(`{"spec":${next}}`, `{"spec":${prev}}`);
      assert.notEqual(kept['spec'], stored['spec'], `${next} is not ${prev}`);
    }
    const { kept } = share('{"spec":{"__proto__":{"x":1}}}', '{"spec":{"__proto__":{"x":1}}}');
    assert.ok(Object.hasOwn(kept['spec'] as object, '__proto__'), 'a "__proto__" member stays a member');
    assert.equal(Object.getPrototypeOf(kept['spec']), Object.prototype);
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
