// Imports the controller's private kind-source retry interval, the deadline its fake-clock tests advance by.
// The controller's reconcile loop with a fake host and FakeClock: outcomes in controller-runtime's
// order, sources and sync, and stopping. The kind source's retry interval comes from its private file,
// to step the fake clock by exactly that much.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AlreadyStartedError,
  CacheSyncTimeoutError,
  channelSource,
  enqueueRequestForObject,
  EventChannel,
  funcs,
  kindSource,
  newUnmanagedController,
  TerminalError,
} from 'kube-converge/controller';
import type { ControllerOptions, DeleteEvent, Reconciler, Request } from 'kube-converge/controller';
import { KIND_RETRY_INTERVAL_MS } from '../../src/controller/kind-source.js';
import { ConfigMapResource, SecretResource } from 'kube-converge/meta';
import type { ObjectOf } from 'kube-converge/meta';
import { FakeHost, settle, step } from './fake-host.js';
import type { FakeClient } from './fake-host.js';

/** A ConfigMap (also usable as a Secret: only metadata matters here). */
type Obj = ObjectOf<typeof ConfigMapResource> & ObjectOf<typeof SecretResource>;
const cm = (name: string, rv = '1'): Obj => ({ metadata: { namespace: 'ns', name, resourceVersion: rv } });
const keyOf = (r: Request): string => `${r.namespace ?? ''}/${r.name}`;

/** Starts a controller for ConfigMaps on a fresh fake host; the informer is synced. */
async function running(
  reconciler: Reconciler<FakeClient>,
  options: ControllerOptions = {},
  { seed = [], host = new FakeHost() }: { seed?: Obj[]; host?: FakeHost } = {},
) {
  const informer = host.informer(ConfigMapResource);
  for (const o of seed) informer.seed(o);
  informer.sync();
  const controller = newUnmanagedController(host, { name: 'cms', reconciler, ...options });
  await controller.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
  const stop = new AbortController();
  const done = controller.start(stop.signal);
  await settle();
  return { host, informer, controller, stop, done, m: host.controllerMetrics };
}

/** A reconciler that records when (fake time) it was called for which key, then does what `act` says. */
function recorder(host: FakeHost, act: (req: Request, n: number) => Promise<unknown> | unknown = () => undefined) {
  const calls: { key: string; at: number }[] = [];
  const reconciler: Reconciler<FakeClient> = async (req) => {
    calls.push({ key: keyOf(req), at: host.clock.now() });
    return (await act(req, calls.filter((c) => c.key === keyOf(req)).length)) as never;
  };
  return { calls, reconciler };
}

const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

describe('Controller reconcile loop', () => {
  it('reconciles every object of the initial list once the source synced', async () => {
    const h = new FakeHost();
    const r = recorder(h);
    const t = await running(r.reconciler, {}, { seed: [cm('a'), cm('b')], host: h });
    await step(h.clock, 1);
    assert.deepEqual(r.calls.map((c) => c.key).sort(), ['ns/a', 'ns/b']);
    assert.equal(t.m.count('reconcile_total{cms,success}'), 2);
    assert.equal(t.m.gauges.get('max_concurrent_reconciles{cms}'), 1);
    t.stop.abort();
    await t.done;
  });

  it('retries a failing request with per-key exponential backoff: 5, 10, 20, 40 ms', async () => {
    const h = new FakeHost();
    const r = recorder(h, () => {
      throw new Error('boom');
    });
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 40);
    t.informer.add(cm('b')); // a second key starts its own backoff at 5 ms
    await step(h.clock, 60);
    const at = (k: string) => r.calls.filter((c) => c.key === k).map((c) => c.at);
    assert.deepEqual(gaps(at('ns/a')), [5, 10, 20, 40]);
    assert.deepEqual(gaps(at('ns/b')).slice(0, 3), [5, 10, 20]);
    assert.equal(t.m.count('reconcile_errors_total{cms}'), r.calls.length);
    assert.equal(t.m.count('reconcile_total{cms,error}'), r.calls.length);
    t.stop.abort();
    await t.done;
  });

  it('never retries a TerminalError and does not reset the backoff either', async () => {
    const h = new FakeHost();
    const r = recorder(h, (_req, n) => {
      if (n === 3) throw new TerminalError(new Error('spec is invalid'));
      throw new Error('transient');
    });
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 15); // attempts at 0, 5, 15 → the third is terminal
    assert.equal(r.calls.length, 3);
    await h.clock.advance(60_000);
    await settle();
    assert.equal(r.calls.length, 3, 'a terminal error is not retried');
    assert.equal(t.m.count('terminal_reconcile_errors_total{cms}'), 1);
    assert.equal(t.m.count('reconcile_errors_total{cms}'), 3);
    const line = h.lines.find((l) => l.fields['terminal'] === true)!;
    assert.equal(line.level, 'error');
    assert.match(String((line.fields['err'] as Error).message), /^terminal error: spec is invalid$/);
    // A new event reconciles again; two failures were never forgotten, so the next delay is 5·2² ms.
    const start = h.clock.now();
    t.informer.update(cm('a', '2'));
    await step(h.clock, 25);
    assert.deepEqual(
      r.calls.slice(3).map((c) => c.at - start),
      [0, 20],
    );
    t.stop.abort();
    await t.done;
  });

  it('requeueAfter fires on time and resets the backoff', async () => {
    const h = new FakeHost();
    const r = recorder(h, (_req, n) => {
      if (n === 3) return { requeueAfter: 1000 };
      throw new Error('transient');
    });
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 1030);
    assert.deepEqual(gaps(r.calls.map((c) => c.at)).slice(0, 4), [5, 10, 1000, 5]);
    assert.equal(t.m.count('reconcile_total{cms,requeue_after}'), 1);
    t.stop.abort();
    await t.done;
  });

  it('collapses 50 rapid updates of one object into few reconciles', async () => {
    const h = new FakeHost();
    const r = recorder(h, () => h.clock.sleep(100));
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await settle(); // the first reconcile is in flight
    for (let i = 2; i <= 51; i++) t.informer.update(cm('a', String(i)));
    await step(h.clock, 500);
    assert.equal(r.calls.length, 2, `50 updates while one reconcile ran gave ${r.calls.length} reconciles`);
    for (let i = 52; i <= 101; i++) t.informer.update(cm('a', String(i)));
    await step(h.clock, 500);
    // An idle worker takes the first update at once; the other 49 collapse into one more pass.
    assert.equal(r.calls.length, 4, `50 more while idle gave ${r.calls.length - 2} reconciles`);
    t.stop.abort();
    await t.done;
  });

  it('never reconciles one key concurrently, even with 4 workers busy on others', async () => {
    const h = new FakeHost();
    const active = new Map<string, number>();
    let maxSameKey = 0;
    let maxTotal = 0;
    const r = recorder(h, async (req) => {
      const k = keyOf(req);
      active.set(k, (active.get(k) ?? 0) + 1);
      maxSameKey = Math.max(maxSameKey, active.get(k)!);
      maxTotal = Math.max(
        maxTotal,
        [...active.values()].reduce((a, b) => a + b, 0),
      );
      await h.clock.sleep(10);
      active.set(k, active.get(k)! - 1);
    });
    const t = await running(r.reconciler, { maxConcurrentReconciles: 4 }, { host: h });
    for (const n of ['a', 'b', 'c', 'd', 'e']) t.informer.add(cm(n));
    for (let round = 2; round < 12; round++) {
      for (const n of ['a', 'b', 'c', 'd', 'e']) t.informer.update(cm(n, String(round)));
      await step(h.clock, 3);
    }
    await step(h.clock, 100);
    assert.equal(maxSameKey, 1);
    assert.equal(maxTotal, 4, 'four workers did run at once');
    assert.equal(t.host.controllerMetrics.gauges.get('active_workers{cms}'), 0);
    t.stop.abort();
    await t.done;
  });

  it('counts a thrown non-Error as a panic, retries it, and keeps running', async () => {
    const h = new FakeHost();
    const r = recorder(h, (_req, n) => {
      if (n === 1) throw 'kaboom'; // a non-Error throw, on purpose
    });
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 10);
    assert.equal(r.calls.length, 2);
    assert.equal(t.m.count('reconcile_panics_total{cms}'), 1);
    assert.equal(t.m.count('reconcile_total{cms,error}'), 1);
    assert.equal(t.m.count('reconcile_total{cms,success}'), 1);
    assert.ok(h.lines.some((l) => l.level === 'error' && /panic: kaboom \[recovered\]/.test(l.msg)));
    t.stop.abort();
    await t.done;
  });

  it('aborts the signal of a reconcile that outlives reconciliationTimeoutMs and counts the timeout', async () => {
    const h = new FakeHost();
    let reason: unknown;
    const r = recorder(h, async () => {
      await h.clock.sleep(60_000, { signal: ctxSignal! }).catch((e: unknown) => {
        reason = e;
        throw e;
      });
    });
    let ctxSignal: AbortSignal | undefined;
    const wrapped: Reconciler<FakeClient> = (req, ctx) => ((ctxSignal = ctx.signal), r.reconciler(req, ctx));
    const t = await running(wrapped, { reconciliationTimeoutMs: 100 }, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 101);
    assert.equal((reason as DOMException).name, 'TimeoutError');
    assert.equal(t.m.count('reconcile_timeouts_total{cms}'), 1);
    assert.equal(t.m.count('reconcile_total{cms,error}'), 1);
    t.stop.abort();
    await t.done;
  });

  it('logs every reconcile line with controller, namespace, name and a UUID reconcileID', async () => {
    const t = await running(async (_req, { log }) => log.info({ step: 'inside' }, 'working'));
    t.informer.add(cm('a'));
    t.informer.add(cm('b'));
    await step(t.host.clock, 1);
    const inside = t.host.lines.filter((l) => l.msg === 'working');
    assert.equal(inside.length, 2);
    for (const l of inside) {
      assert.equal(l.fields['controller'], 'cms');
      assert.equal(l.fields['namespace'], 'ns');
      assert.match(String(l.fields['reconcileID']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    assert.notEqual(inside[0]!.fields['reconcileID'], inside[1]!.fields['reconcileID']);
    const own = t.host.lines.filter((l) => l.fields['reconcileID'] === inside[0]!.fields['reconcileID']);
    assert.ok(
      own.some((l) => l.msg === 'Reconcile successful'),
      'the loop logs the outcome on the same reconcile line fields',
    );
    t.stop.abort();
    await t.done;
  });

  it('hands reconcilers the host client and a request without the event', async () => {
    const seen: unknown[] = [];
    const t = await running(async (req, ctx) => void seen.push(req, ctx.client));
    t.informer.add(cm('a'));
    await step(t.host.clock, 1);
    assert.deepEqual(seen, [{ namespace: 'ns', name: 'a' }, { fake: true }]);
    t.stop.abort();
    await t.done;
  });

  it('requeues with the priority the result asks for, else the one the request was dequeued with', async () => {
    const h = new FakeHost();
    const r = recorder(h, (req, n) => (n === 1 ? { requeueAfter: 10, ...(req.name === 'x' ? { priority: 5 } : {}) } : undefined));
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('y'));
    t.informer.add(cm('x'));
    await step(h.clock, 12);
    assert.deepEqual(
      r.calls.map((c) => `${c.key}@${c.at - r.calls[0]!.at}`),
      ['ns/y@0', 'ns/x@0', 'ns/x@10', 'ns/y@10'],
    );
    t.stop.abort();
    await t.done;
  });

  it('turns a result with a non-finite requeueAfter into an error that is retried', async () => {
    const h = new FakeHost();
    const r = recorder(h, (_req, n) => (n === 1 ? { requeueAfter: Number.NaN } : undefined));
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 6);
    assert.deepEqual(gaps(r.calls.map((c) => c.at)), [5]);
    assert.equal(t.m.count('reconcile_total{cms,error}'), 1);
    assert.ok(
      h.lines.some((l) => l.level === 'error' && /result\.requeueAfter/.test(String((l.fields['err'] as Error | undefined)?.message))),
    );
    t.stop.abort();
    await t.done;
  });

  it('survives a thrown value that cannot even be turned into a string', async () => {
    const h = new FakeHost();
    const r = recorder(h, (_req, n) => {
      if (n === 1) throw Object.create(null);
    });
    const t = await running(r.reconciler, {}, { host: h });
    t.informer.add(cm('a'));
    await step(h.clock, 6);
    assert.equal(r.calls.length, 2);
    assert.equal(t.m.count('reconcile_panics_total{cms}'), 1);
    t.stop.abort();
    await t.done;
  });

  it('refuses a second start while it runs', async () => {
    const t = await running(async () => undefined);
    await assert.rejects(t.controller.start(new AbortController().signal), AlreadyStartedError);
    t.stop.abort();
    await t.done;
  });

  it('starts again once stopped, from a fresh queue its kind source fills again from the cache', async () => {
    const h = new FakeHost();
    const r = recorder(h, () => ({ requeueAfter: 60_000 }));
    const t = await running(r.reconciler, {}, { seed: [cm('a')], host: h });
    await step(h.clock, 1);
    t.stop.abort();
    await t.done;
    t.informer.add(cm('b')); // while stopped: nobody listens
    const again = new AbortController();
    const done = t.controller.start(again.signal);
    await step(h.clock, 1);
    // Both objects once each: the first run's delayed requeue of `a` left with its queue.
    assert.deepEqual(r.calls.map((c) => c.key).sort(), ['ns/a', 'ns/a', 'ns/b']);
    t.informer.add(cm('c'));
    await step(h.clock, 1);
    assert.deepEqual(r.calls.at(-1)?.key, 'ns/c', 'one handler registered, on the new queue');
    assert.equal(t.informer.handlers.size, 1);
    again.abort();
    await done;
  });

  it("aborts a reconcile's signal when the host withdraws its admission, and settles the admission once", async () => {
    const withdrawn = new AbortController();
    let settled = 0;
    const h = Object.assign(new FakeHost(), {
      admitReconcile: () => ({ signal: withdrawn.signal, done: () => void settled++ }),
    });
    let reason: unknown;
    const t = await running(
      async (_req, { signal }) => {
        await h.clock.sleep(60_000, { signal }).catch((e: unknown) => {
          reason = e;
          throw e;
        });
      },
      {},
      { host: h },
    );
    t.informer.add(cm('a'));
    await step(h.clock, 1);
    withdrawn.abort(new Error('shard 3 lost'));
    await settle();
    assert.match(String(reason), /shard 3 lost/);
    assert.equal(settled, 1);
    t.stop.abort();
    await t.done;
  });
});

describe('Controller sources', () => {
  it('fails start with an error naming the kind when a source does not sync within cacheSyncTimeoutMs', async () => {
    const host = new FakeHost();
    const c = newUnmanagedController(host, { name: 'slow', reconciler: async () => undefined, cacheSyncTimeoutMs: 5_000 });
    await c.watch(kindSource(SecretResource, enqueueRequestForObject()));
    const done = c.start(new AbortController().signal);
    const outcome = assert.rejects(done, (err: unknown) => {
      assert.ok(err instanceof CacheSyncTimeoutError);
      assert.equal(err.code, 'CONVERGE_CACHE_SYNC_TIMEOUT');
      assert.match(err.message, /Secret\.v1/);
      assert.match(err.message, /slow/);
      return true;
    });
    await host.clock.advance(5_000);
    await outcome;
    assert.equal(host.informer(SecretResource).handlers.size, 0, 'the failed controller unregistered its handler');
  });

  it('retries a kind that is not served yet every 10 s, logging each failure, then syncs', async () => {
    const host = new FakeHost();
    host.unserved.set('Secret.v1', 2);
    const seen: string[] = [];
    const c = newUnmanagedController(host, { name: 'crd', reconciler: async (req) => void seen.push(req.name) });
    await c.watch(kindSource(SecretResource, enqueueRequestForObject()));
    host.informer(SecretResource).seed(cm('s'));
    host.informer(SecretResource).sync();
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await settle();
    assert.equal(host.getInformerCalls, 1);
    await host.clock.advance(KIND_RETRY_INTERVAL_MS - 1);
    assert.equal(host.getInformerCalls, 1);
    await host.clock.advance(1);
    assert.equal(host.getInformerCalls, 2);
    await host.clock.advance(KIND_RETRY_INTERVAL_MS);
    await settle();
    assert.equal(host.getInformerCalls, 3);
    await step(host.clock, 1);
    assert.deepEqual(seen, ['s']);
    const failures = host.lines.filter((l) => l.level === 'error' && /not served yet/.test(l.msg));
    assert.equal(failures.length, 2);
    assert.equal(failures[0]!.fields['kind'], 'Secret.v1');
    stop.abort();
    await done;
  });

  it('starts workers only once the handler registration has synced too, not just the informer', async () => {
    const host = new FakeHost();
    const inf = host.informer(ConfigMapResource);
    inf.seed(cm('a'));
    inf.sync();
    inf.holdRegistrations = true;
    const seen: string[] = [];
    const c = newUnmanagedController(host, { name: 'reg', reconciler: async (req) => void seen.push(req.name) });
    await c.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await step(host.clock, 250);
    assert.deepEqual(seen, [], 'no worker before the registration synced');
    assert.ok(!host.lines.some((l) => l.msg === 'Starting workers'));
    inf.holdRegistrations = false;
    await step(host.clock, 100);
    assert.deepEqual(seen, ['a']);
    stop.abort();
    await done;
  });

  it('unwraps a tombstone into a delete event with deleteStateUnknown set', async () => {
    const host = new FakeHost();
    host.informer(ConfigMapResource).sync();
    const deletes: DeleteEvent[] = [];
    const c = newUnmanagedController(host, { name: 'tomb', reconciler: async () => undefined });
    await c.watch(kindSource(ConfigMapResource, funcs({ delete: (e) => void deletes.push(e) })));
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await settle();
    const inf = host.informer(ConfigMapResource);
    inf.add(cm('x'));
    inf.add(cm('y'));
    inf.delete('ns/x', { tombstone: true });
    inf.delete('ns/y');
    assert.deepEqual(
      deletes.map((d) => [d.object.metadata.name, d.deleteStateUnknown]),
      [
        ['x', true],
        ['y', false],
      ],
    );
    stop.abort();
    await done;
  });

  it('logs and drops an event whose handler throws, and keeps delivering the next ones', async () => {
    const host = new FakeHost();
    host.informer(ConfigMapResource).sync();
    const seen: string[] = [];
    const c = newUnmanagedController(host, { name: 'bad', reconciler: async (req) => void seen.push(req.name) });
    await c.watch(
      kindSource(
        ConfigMapResource,
        funcs({
          create: (e, q) => {
            if (e.object.metadata.name === 'poison') throw new Error('handler bug');
            q.add({ namespace: 'ns', name: e.object.metadata.name! });
          },
        }),
      ),
    );
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await settle();
    host.informer(ConfigMapResource).add(cm('poison'));
    host.informer(ConfigMapResource).add(cm('fine'));
    await step(host.clock, 1);
    assert.deepEqual(seen, ['fine']);
    assert.ok(host.lines.some((l) => l.level === 'error' && l.fields['event'] === 'create' && /dropped/.test(l.msg)));
    stop.abort();
    await done;
  });

  it('delivers external triggers from a channel source, and starts a source watched after start at once', async () => {
    const host = new FakeHost();
    host.informer(ConfigMapResource).sync();
    const seen: string[] = [];
    const c = newUnmanagedController(host, { name: 'chan', reconciler: async (req) => void seen.push(req.name) });
    await c.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await settle();
    const channel = new EventChannel();
    channel.send(cm('early')); // buffered until the source starts
    await c.watch(channelSource(channel, enqueueRequestForObject()));
    channel.send(cm('late'));
    await step(host.clock, 1);
    assert.deepEqual(seen.sort(), ['early', 'late']);
    stop.abort();
    await done;
    assert.equal(channel.send(cm('after-stop')), false, 'stopping closed the channel');
  });

  it('serves initial-list events after real changes with the priority queue', async () => {
    const order: string[] = [];
    const host = new FakeHost();
    const inf = host.informer(ConfigMapResource);
    for (const n of ['old-1', 'old-2', 'old-3']) inf.seed(cm(n));
    inf.sync();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const c = newUnmanagedController(host, {
      name: 'prio',
      reconciler: async (req) => {
        order.push(req.name);
        if (req.name === 'old-1') await gate;
      },
    });
    await c.watch(kindSource(ConfigMapResource, enqueueRequestForObject()));
    const stop = new AbortController();
    const done = c.start(stop.signal);
    await settle();
    inf.add(cm('new')); // arrives while old-1 is being reconciled
    release();
    await step(host.clock, 1);
    assert.deepEqual(order, ['old-1', 'new', 'old-2', 'old-3']);
    stop.abort();
    await done;
  });
});

describe('Controller stop', () => {
  for (const usePriorityQueue of [true, false]) {
    it(`lets the in-flight reconcile finish and starts no queued work (${usePriorityQueue ? 'priority' : 'rate-limiting'} queue)`, async () => {
      const started: string[] = [];
      const finished: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let inflightSignal: AbortSignal | undefined;
      const t = await running(
        async (req, { signal }) => {
          started.push(req.name);
          inflightSignal = signal;
          await gate; // ignores the signal on purpose
          finished.push(req.name);
        },
        { usePriorityQueue },
      );
      t.informer.add(cm('first'));
      await settle();
      t.informer.add(cm('queued-1'));
      t.informer.add(cm('queued-2'));
      t.stop.abort();
      let stopped = false;
      void t.done.then(() => (stopped = true));
      await settle();
      assert.equal(inflightSignal?.aborted, true, 'the in-flight reconcile was told to stop');
      assert.equal(stopped, false, 'start waits for the in-flight reconcile');
      release();
      await t.done;
      assert.deepEqual(started, ['first']);
      assert.deepEqual(finished, ['first']);
      assert.equal(t.m.count('reconcile_total{cms,success}'), 1);
    });
  }

  it('resolves at once when stopped before any work arrived', async () => {
    const t = await running(async () => undefined, { maxConcurrentReconciles: 3 });
    t.stop.abort();
    await t.done;
    assert.ok(t.host.lines.some((l) => l.msg === 'All workers finished'));
  });
});
