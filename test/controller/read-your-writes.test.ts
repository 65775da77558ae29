// Imports the controller's internal (private) face for noteReconcileWrite, the hook a manager's client calls.
// Read-your-writes in the controller loop, with a fake host and FakeClock: a reconcile's noted writes
// hold the next reconcile of the same request until they are observed, bounded by the timeout; the
// option turns it off; other requests and writes outside a reconcile are not held.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enqueueRequestForObject, kindSource, newUnmanagedController } from 'kube-converge/controller';
import { noteReconcileWrite } from '../../src/controller/internal.js';
import type { ControllerOptions, Reconciler, Request } from 'kube-converge/controller';
import { ConfigMapResource } from 'kube-converge/meta';
import type { ObjectOf } from 'kube-converge/meta';
import { FakeHost, settle, step } from './fake-host.js';
import type { FakeClient } from './fake-host.js';

type Obj = ObjectOf<typeof ConfigMapResource>;
const cm = (name: string, rv = '1'): Obj => ({ metadata: { namespace: 'ns', name, resourceVersion: rv } });

/**
 * A controller whose reconciler notes one write per reconcile of `ns/a`, observed once the test says
 * so; `calls` records the fake time of every reconcile per key.
 */
async function running(options: ControllerOptions = {}) {
  const host = new FakeHost();
  const calls: { key: string; at: number }[] = [];
  const cache = { seen: false };
  const reconciler: Reconciler<FakeClient> = async (req: Request) => {
    calls.push({ key: `${req.namespace}/${req.name}`, at: host.clock.now() });
    if (req.name === 'a') noteReconcileWrite({ object: 'ConfigMap ns/a-child', observed: () => cache.seen });
  };
  const informer = host.informer(ConfigMapResource);
  informer.sync();
  const controller = newUnmanagedController(host, { name: 'cms', reconciler, ...options });
  await controller.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
  const stop = new AbortController();
  const done = controller.start(stop.signal);
  await settle();
  const of = (key: string): number[] => calls.filter((c) => c.key === key).map((c) => c.at);
  return { host, informer, cache, of, stop, done };
}

describe('read-your-writes', () => {
  it('holds the next reconcile of a request until the cache has observed the previous reconcile’s writes', async () => {
    const t = await running();
    const start = t.host.clock.now();
    t.informer.add(cm('a'));
    await step(t.host.clock, 1);
    t.informer.update(cm('a', '2')); // an event from before the write reached the cache
    await step(t.host.clock, 50);
    assert.equal(t.of('ns/a').length, 1, 'the second reconcile waits while the write is unseen');
    t.cache.seen = true;
    await step(t.host.clock, 10);
    assert.equal(t.of('ns/a').length, 2);
    assert.ok(t.of('ns/a')[1]! - start >= 51);
    assert.equal(t.host.controllerMetrics.count('read_your_writes_timeouts_total{cms}'), 0);
    t.stop.abort();
    await t.done;
  });

  it('runs the reconcile anyway once the timeout passed, and counts and logs it', async () => {
    const t = await running({ readYourWritesTimeoutMs: 100 });
    t.informer.add(cm('a'));
    await step(t.host.clock, 1);
    t.informer.update(cm('a', '2'));
    await step(t.host.clock, 90);
    assert.equal(t.of('ns/a').length, 1);
    await step(t.host.clock, 20);
    assert.equal(t.of('ns/a').length, 2);
    assert.equal(t.host.controllerMetrics.count('read_your_writes_timeouts_total{cms}'), 1);
    const line = t.host.lines.find((l) => /did not catch up/.test(l.msg));
    assert.ok(line, 'a log line says why');
    assert.deepEqual(line.fields['unobserved'], ['ConfigMap ns/a-child']);
    t.stop.abort();
    await t.done;
  });

  it('does not wait when the controller opted out', async () => {
    const t = await running({ readYourWrites: false });
    t.informer.add(cm('a'));
    await step(t.host.clock, 1);
    t.informer.update(cm('a', '2'));
    await step(t.host.clock, 1);
    assert.equal(t.of('ns/a').length, 2);
    t.stop.abort();
    await t.done;
  });

  it('holds only the request that wrote: another request is reconciled at once', async () => {
    const t = await running();
    t.informer.add(cm('a'));
    await step(t.host.clock, 1);
    t.informer.update(cm('a', '2'));
    t.informer.add(cm('b'));
    await step(t.host.clock, 2);
    assert.equal(t.of('ns/b').length, 1, 'b has no writes in flight');
    assert.equal(t.of('ns/a').length, 1);
    t.stop.abort();
    await t.done;
  });

  it('ignores writes noted outside any reconcile', async () => {
    const t = await running();
    noteReconcileWrite({ object: 'ConfigMap ns/b', observed: () => false });
    t.informer.add(cm('b'));
    await step(t.host.clock, 1);
    t.informer.update(cm('b', '2'));
    await step(t.host.clock, 1);
    assert.equal(t.of('ns/b').length, 2);
    t.stop.abort();
    await t.done;
  });

  it('refuses a negative timeout, naming the option', () => {
    assert.throws(
      () => newUnmanagedController(new FakeHost(), { name: 'x', reconciler: async () => {}, readYourWritesTimeoutMs: -1 }),
      /readYourWritesTimeoutMs/,
    );
  });
});
