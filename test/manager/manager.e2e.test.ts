// End-to-end: a real local API server on loopback, a Manager and controllers built through the
// public API only. Waits are bounded `eventually` polls on real I/O.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApiServer, type RunningApiServer } from 'kube-converge/apiserver';
import { createClient } from 'kube-converge/client';
import { controllerManagedBy, enqueueRequestsFromMapFunc, newPredicateFuncs } from 'kube-converge/controller';
import { createManager, createOrUpdate, setControllerReference, type Manager, type ManagerOptions } from 'kube-converge/manager';
import {
  ConfigMapResource,
  EventResource,
  SecretResource,
  jsonLogger,
  noopLogger,
  namespacedNameOf,
  type ObjectOf,
} from 'kube-converge/meta';
import { TestEnv, eventually, restConfigFor } from 'kube-converge/testing';

type ConfigMap = ObjectOf<typeof ConfigMapResource>;
const NS = 'default';
const isPrimary = newPredicateFuncs<ConfigMap>((o) => o.metadata.labels?.['role'] === 'primary');

async function env(
  options: Partial<ManagerOptions> = {},
): Promise<{ api: RunningApiServer; mgr: Manager; admin: ReturnType<typeof createClient> }> {
  const api = await startApiServer({ port: 0 });
  const mgr = await createManager({ config: restConfigFor(api), logger: noopLogger, gracefulShutdownTimeoutMs: 5_000, ...options });
  const admin = createClient({ config: restConfigFor(api) });
  return { api, mgr, admin };
}

async function teardown(e: { api: RunningApiServer; mgr: Manager; admin: ReturnType<typeof createClient> }): Promise<void> {
  await e.mgr.shutdown();
  e.admin.close();
  await e.api.stop();
}

const primary = (name: string, data: Record<string, string> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: NS, labels: { role: 'primary' } },
  data,
});

/** A controller for primary ConfigMaps that owns one child ConfigMap each, written with createOrUpdate. */
function childController(mgr: Manager, stats: { reconciles: Map<string, number>; created: number }): void {
  controllerManagedBy(mgr)
    .for(ConfigMapResource, { predicates: [isPrimary] })
    .owns(ConfigMapResource)
    .named('primary')
    .complete(async (req, { client, signal }) => {
      stats.reconciles.set(req.name, (stats.reconciles.get(req.name) ?? 0) + 1);
      const p = client.get(ConfigMapResource, req);
      if (!p) return;
      const { result } = await createOrUpdate(
        client,
        ConfigMapResource,
        { metadata: { name: `${req.name}-child`, namespace: NS } },
        (cm) => {
          cm.data = { copied: p.data?.['value'] ?? '' };
          setControllerReference(p, cm, { ownerResource: ConfigMapResource });
        },
        { signal },
      );
      if (result === 'created') stats.created++;
    });
}

describe('manager end to end', () => {
  it('recreates a deleted owned child, and writes each change through once', async () => {
    const e = await env();
    const stats = { reconciles: new Map<string, number>(), created: 0 };
    childController(e.mgr, stats);
    const run = e.mgr.start();
    try {
      await e.admin.create(ConfigMapResource, primary('app', { value: 'v1' }));
      const child = await eventually(() => e.admin.get(ConfigMapResource, { namespace: NS, name: 'app-child' }));
      assert.equal(child.data?.['copied'], 'v1');
      assert.equal(child.metadata.ownerReferences?.[0]?.name, 'app');
      await e.admin.delete(ConfigMapResource, { namespace: NS, name: 'app-child' });
      await eventually(
        async () => (await e.admin.get(ConfigMapResource, { namespace: NS, name: 'app-child' })).metadata.uid !== child.metadata.uid,
      );
      await e.admin.patch(ConfigMapResource, { namespace: NS, name: 'app' }, { data: { value: 'v2' } }, 'merge');
      await eventually(async () => (await e.admin.get(ConfigMapResource, { namespace: NS, name: 'app-child' })).data?.['copied'] === 'v2');
      assert.equal(stats.created, 2);
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('collapses 50 rapid updates of one object into at most two reconciles', async () => {
    const e = await env();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('collapse')
      .complete(async (req, { client }) => {
        seen.push(client.get(ConfigMapResource, req)?.data?.['value'] ?? '');
        // After the first, a reconcile holds its key until every update has reached the cache: the
        // key is then in flight (at most one reconcile) and dirty (at most one more), never queued twice.
        if (seen.length > 1) await gate;
      });
    const run = e.mgr.start();
    try {
      await e.admin.create(ConfigMapResource, primary('busy', { value: '0' }));
      await eventually(() => seen.length === 1);
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          e.admin.patch(ConfigMapResource, { namespace: NS, name: 'busy' }, { data: { value: String(i + 1), [`k${i}`]: 'x' } }, 'merge'),
        ),
      );
      await e.admin.patch(ConfigMapResource, { namespace: NS, name: 'busy' }, { data: { value: 'last' } }, 'merge');
      await eventually(() => e.mgr.client.get(ConfigMapResource, { namespace: NS, name: 'busy' })?.data?.['value'] === 'last');
      release();
      await eventually(() => seen.at(-1) === 'last');
      await new Promise((r) => setTimeout(r, 50));
      const reconciles = seen.length - 1;
      assert.ok(reconciles >= 1 && reconciles <= 2, `51 updates caused ${reconciles} reconciles`);
    } finally {
      release();
      await teardown(e);
    }
    await run;
  });

  it('never duplicates or fails on a child when re-triggered before its own write reached the cache', async () => {
    const e = await env();
    let reconciles = 0;
    let errors = 0;
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('laggy')
      .withOptions({ maxConcurrentReconciles: 1 })
      .complete(async (req, { client, signal }) => {
        reconciles++;
        try {
          // Two writes of the same child back to back: the second runs before the cache saw the first.
          for (let i = 0; i < 2; i++) {
            await createOrUpdate(
              client,
              ConfigMapResource,
              { metadata: { name: `${req.name}-child`, namespace: NS } },
              (cm) => {
                cm.data = { n: '1' };
              },
              { signal },
            );
          }
        } catch (err) {
          errors++;
          throw err;
        }
        return reconciles < 5 ? { requeueAfter: 1 } : undefined;
      });
    const run = e.mgr.start();
    try {
      await e.admin.create(ConfigMapResource, primary('lag'));
      await eventually(() => reconciles >= 5);
      const children = (await e.admin.list(ConfigMapResource, { namespace: NS })).items.filter((c) => c.metadata.name === 'lag-child');
      assert.equal(children.length, 1);
      assert.equal(errors, 0);
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('retries a conflicting update (409) and converges', async () => {
    const e = await env({ metricsBindAddress: '127.0.0.1:0' });
    let attempts = 0;
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('conflicted')
      .complete(async (req, { client, signal }) => {
        const p = client.get(ConfigMapResource, req);
        if (!p || p.data?.['stamped'] === 'yes') return;
        attempts++;
        // The first attempt writes from a copy that another writer has just made stale.
        if (attempts === 1) await e.admin.patch(ConfigMapResource, req, { data: { other: 'writer' } }, 'merge');
        await client.update(ConfigMapResource, { ...p, data: { ...p.data, stamped: 'yes' } }, { signal });
      });
    const run = e.mgr.start();
    try {
      await e.admin.create(ConfigMapResource, primary('c'));
      const done = await eventually(async () => {
        const cm = await e.admin.get(ConfigMapResource, { namespace: NS, name: 'c' });
        return cm.data?.['stamped'] === 'yes' && cm;
      });
      assert.equal(done.data?.['other'], 'writer');
      assert.ok(attempts >= 2, `attempts ${attempts}`);
      const text = await (await fetch(`${(await e.mgr.listening()).metrics}/metrics`)).text();
      assert.match(text, /controller_runtime_reconcile_errors_total\{controller="conflicted"\} [1-9]/);
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('serves controller-runtime metrics with correct counts on /metrics', async () => {
    const e = await env({ metricsBindAddress: '127.0.0.1:0' });
    let ok = 0;
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('counted')
      .complete(async () => {
        ok++;
      });
    const run = e.mgr.start();
    try {
      await Promise.all(['m1', 'm2', 'm3'].map((n) => e.admin.create(ConfigMapResource, primary(n))));
      await eventually(() => ok === 3);
      const { metrics } = await e.mgr.listening();
      const text = await (await fetch(`${metrics}/metrics`)).text();
      const value = (series: string): number =>
        Number(
          text
            .split('\n')
            .find((l) => l.startsWith(series + ' '))
            ?.split(' ')[1],
        );
      assert.equal(value('controller_runtime_reconcile_total{controller="counted",result="success"}'), 3);
      assert.equal(value('controller_runtime_reconcile_total{controller="counted",result="error"}'), 0);
      assert.equal(value('controller_runtime_reconcile_errors_total{controller="counted"}'), 0);
      assert.equal(value('controller_runtime_active_workers{controller="counted"}'), 0);
      assert.equal(value('controller_runtime_max_concurrent_reconciles{controller="counted"}'), 1);
      assert.equal(value('controller_runtime_reconcile_time_seconds_count{controller="counted"}'), 3);
      assert.equal(value('workqueue_adds_total{name="counted",controller="counted"}'), 3);
      assert.match(text, /^workqueue_depth\{name="counted",controller="counted",priority="[^"]*"\} 0$/m);
      assert.match(text, /^workqueue_queue_duration_seconds_count\{name="counted",controller="counted"\} 3$/m);
      assert.match(text, /^workqueue_work_duration_seconds_count\{name="counted",controller="counted"\} 3$/m);
      assert.match(text, /^workqueue_unfinished_work_seconds\{name="counted",controller="counted"\} /m);
      assert.match(text, /^workqueue_longest_running_processor_seconds\{name="counted",controller="counted"\} /m);
      assert.match(text, /^workqueue_retries_total\{name="counted",controller="counted"\} 0$/m);
      assert.match(text, /^rest_client_requests_total\{code="200",method="GET",host="127\.0\.0\.1:\d+"\} [1-9]/m);
      assert.equal((await fetch(`${metrics}/nope`)).status, 404);
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('answers /readyz 500 until the caches synced, while /healthz passes', async () => {
    const e = await env({ healthProbeBindAddress: '127.0.0.1:0' });
    // An informer for a kind the server does not serve never syncs: the manager stays not-ready.
    const Missing = {
      ...ConfigMapResource,
      group: 'example.converge.dev',
      version: 'v1',
      plural: 'missings',
      kind: 'Missing',
      apiVersion: 'example.converge.dev/v1',
    };
    await e.mgr.getInformer(Missing);
    const run = e.mgr.start();
    try {
      const { healthProbe } = await e.mgr.listening();
      const ready = await fetch(`${healthProbe}/readyz?verbose`);
      assert.equal(ready.status, 500);
      assert.match(await ready.text(), /\[-\]cache-sync failed: reason withheld/);
      const one = await fetch(`${healthProbe}/readyz/cache-sync`);
      assert.equal(one.status, 500);
      assert.match(await one.text(), /caches not synced: Missing/);
      assert.equal((await fetch(`${healthProbe}/healthz`)).status, 200);
    } finally {
      await teardown(e);
    }
    await run;

    const f = await env({ healthProbeBindAddress: '127.0.0.1:0' });
    await f.mgr.getInformer(ConfigMapResource);
    const run2 = f.mgr.start();
    try {
      await f.mgr.elected();
      const { healthProbe } = await f.mgr.listening();
      const ready = await fetch(`${healthProbe}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(await ready.text(), 'ok');
    } finally {
      await teardown(f);
    }
    await run2;
  });

  it('on shutdown lets in-flight reconciles finish and starts no queued work', async () => {
    const e = await env();
    const started: string[] = [];
    const finished: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('slow')
      .withOptions({ maxConcurrentReconciles: 1 })
      .complete(async (req) => {
        started.push(req.name);
        await gate;
        finished.push(req.name);
      });
    const run = e.mgr.start();
    try {
      await Promise.all(['s1', 's2', 's3'].map((n) => e.admin.create(ConfigMapResource, primary(n))));
      await eventually(() => started.length === 1);
      const stopping = e.mgr.shutdown();
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(finished, []);
      release();
      await stopping;
      assert.equal(started.length, 1);
      assert.deepEqual(finished, started);
    } finally {
      release();
      await teardown(e);
    }
    await run;
  });

  it('reconciles exactly the primaries that reference a changed Secret, found through a field index', async () => {
    const e = await env();
    const reconciled: string[] = [];
    e.mgr.indexField(ConfigMapResource, 'secretRef', (cm) => (cm.data?.['secretRef'] ? [cm.data['secretRef']] : []));
    controllerManagedBy(e.mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .watches(
        SecretResource,
        enqueueRequestsFromMapFunc((secret) =>
          e.mgr.client
            .list(ConfigMapResource, { namespace: secret.metadata.namespace, matchingFields: { secretRef: secret.metadata.name! } })
            .map(namespacedNameOf),
        ),
      )
      .named('secret-watcher')
      .complete(async (req) => {
        reconciled.push(req.name);
      });
    const run = e.mgr.start();
    try {
      for (const s of ['s1', 's2']) await e.admin.create(SecretResource, { metadata: { name: s, namespace: NS }, stringData: { k: 'v' } });
      await e.admin.create(ConfigMapResource, primary('p1', { secretRef: 's1' }));
      await e.admin.create(ConfigMapResource, primary('p2', { secretRef: 's1' }));
      await e.admin.create(ConfigMapResource, primary('p3', { secretRef: 's2' }));
      await eventually(() => ['p1', 'p2', 'p3'].every((n) => reconciled.includes(n)));
      // A cross-namespace list through the same index sees both referrers of s1.
      assert.deepEqual(
        e.mgr.client
          .list(ConfigMapResource, { matchingFields: { secretRef: 's1' } })
          .map((c) => c.metadata.name)
          .sort(),
        ['p1', 'p2'],
      );
      await new Promise((r) => setTimeout(r, 100));
      reconciled.length = 0;
      await e.admin.patch(SecretResource, { namespace: NS, name: 's1' }, { stringData: { k: 'changed' } }, 'merge');
      await eventually(() => reconciled.includes('p1') && reconciled.includes('p2'));
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual([...new Set(reconciled)].sort(), ['p1', 'p2']);
      assert.throws(() => e.mgr.client.list(ConfigMapResource, { matchingFields: { nope: 'x' } }), { code: 'CONVERGE_INVALID_OPTION' });
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('records events.k8s.io Events and folds repeats into one series', async () => {
    const e = await env();
    const run = e.mgr.start();
    try {
      const cm = await e.admin.create(ConfigMapResource, primary('evented'));
      const recorder = e.mgr.getEventRecorder('webapp-controller');
      for (let i = 0; i < 3; i++) recorder.event(cm, 'Normal', 'Synced', 'configuration applied');
      recorder.event(cm, 'Warning', 'Failed', 'something broke');
      const events = await eventually(async () => {
        const list = (await e.admin.list(EventResource, { namespace: NS })).items;
        const synced = list.find((x) => x.reason === 'Synced');
        return list.length === 2 && synced?.series?.count === 3 && list;
      });
      const synced = events.find((x) => x.reason === 'Synced')!;
      assert.equal(synced.reportingController, 'webapp-controller');
      assert.match(synced.reportingInstance ?? '', /^webapp-controller-/);
      assert.equal(synced.regarding?.name, 'evented');
      assert.equal(synced.regarding?.kind, 'ConfigMap');
      assert.equal(synced.note, 'configuration applied');
      assert.equal(synced.type, 'Normal');
      assert.equal(events.find((x) => x.reason === 'Failed')?.type, 'Warning');
    } finally {
      await teardown(e);
    }
    await run;
  });

  it('writes JSON log lines carrying controller, namespace, name and reconcileID for every reconcile', async () => {
    await using env = await TestEnv.start();
    const lines: Record<string, unknown>[] = [];
    // Loads the kubeconfig file the way an operator's main would.
    const mgr = await env.newManager({
      kubeconfig: env.kubeconfigPath,
      logger: jsonLogger({ level: 'debug', write: (l) => lines.push(JSON.parse(l)) }),
    });
    controllerManagedBy(mgr)
      .for(ConfigMapResource, { predicates: [isPrimary] })
      .named('logged')
      .complete(async (_req, { log }) => {
        log.info({ step: 'render' }, 'rendering');
      });
    const run = mgr.start();
    await env.client.create(ConfigMapResource, primary('logme'));
    const line = await eventually(() => lines.find((l) => l['msg'] === 'rendering') ?? false);
    assert.equal(line['controller'], 'logged');
    assert.equal(line['namespace'], NS);
    assert.equal(line['name'], 'logme');
    assert.match(String(line['reconcileID']), /^[0-9a-f-]{36}$/);
    assert.equal(line['level'], 'info');
    assert.ok(lines.some((l) => l['msg'] === 'starting manager'));
    await mgr.shutdown();
    await run;
  });
});
