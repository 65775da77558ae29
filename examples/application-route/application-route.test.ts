// End-to-end tests of the ApplicationRoute operator on the local API server (TestEnv), with the
// ApplicationRoute CRD and the Gateway API HTTPRoute subset installed. Each test runs its own server
// and manager; waits are bounded `eventually` polls on real I/O. Reconciles are counted from the
// controller's own `Reconciling` log lines (a recording logger), never from inside the operator.
//
// The failure tests for this operator are here, each named after its case. Two of
// them apply only to the WebApp operator and are tested there: "external API succeeds but the
// response is lost" and "finalization is retried 10 times". The ApplicationRoute operator has no
// external state and so no finalizer: its only output is the HTTPRoute it controls, which the
// garbage collector deletes with the route. A finalizer here would only delay deletion.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { StatusError, isNotFound, type Client } from 'kube-converge/client';
import type { Manager } from 'kube-converge/manager';
import { NamespaceResource, SecretResource, ServiceResource, findStatusCondition } from 'kube-converge/meta';
import { TestEnv, eventually, faultInjectingClient, type ClientFaults } from 'kube-converge/testing';
import { setupApplicationRouteController, type ApplicationRouteControllerOptions } from './controller.js';
import { reconcilesOf, recordingLogger, retriesOf, route, service, tlsSecret, type LogLine, type Route } from './fixtures.js';
import { ApplicationRoute, HTTPRouteResource, TLS_SECRET_ANNOTATION, type HTTPRoute } from './types.js';

const NS = 'default';
const CRDS = [
  fileURLToPath(new URL('./networking.converge.dev_applicationroutes.yaml', import.meta.url)),
  fileURLToPath(new URL('./httproute-crd.yaml', import.meta.url)),
];

interface Running {
  mgr: Manager;
  admin: Client;
  lines: LogLine[];
  run: Promise<void>;
}

interface Env {
  admin: Client;
  /** Starts a manager running the operator, optionally through a fault-injecting client. */
  start(options?: { faults?: ClientFaults; controller?: ApplicationRouteControllerOptions }): Promise<Running>;
}

/**
 * Runs `fn` against a fresh TestEnv. Afterwards every manager is stopped and must have stopped
 * cleanly: a manager failure (or a drain that overran its grace period) fails the test.
 */
async function withEnv(fn: (env: Env) => Promise<void>): Promise<void> {
  const env = await TestEnv.start({ crds: CRDS });
  const runs: Promise<void>[] = [];
  const start: Env['start'] = async (options = {}) => {
    const log = recordingLogger();
    const mgr = await env.newManager({
      logger: log,
      gracefulShutdownTimeoutMs: 5_000,
      ...(options.faults ? { client: faultInjectingClient(env.client, options.faults) } : {}),
    });
    setupApplicationRouteController(mgr, options.controller);
    const run = mgr.start();
    runs.push(run);
    return { mgr, admin: env.client, lines: log.lines, run };
  };
  try {
    await fn({ admin: env.client, start });
  } finally {
    await env.stop();
  }
  await Promise.all(runs);
}

const key = (name: string) => ({ namespace: NS, name });
const condition = (r: Route, type: string) => findStatusCondition(r.status?.conditions, type);

/** Resolves with the route once `type` has `status` (and `reason`, when given) for its current generation. */
function routeCondition(admin: Client, name: string, type: string, status: string, reason?: string): Promise<Route> {
  return eventually(
    async () => {
      const r = await admin.get(ApplicationRoute, key(name));
      const c = condition(r, type);
      return (
        c?.status === status && (reason === undefined || c.reason === reason) && r.status?.observedGeneration === r.metadata.generation && r
      );
    },
    { message: `${name}: ${type}=${status}${reason ? ` (${reason})` : ''}` },
  );
}

const httpRoute = (admin: Client, name: string): Promise<HTTPRoute | undefined> =>
  admin.get(HTTPRouteResource, key(name)).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });

/** Sum of a metric's series labelled with the operator's controller (or queue) name. */
async function gauge(mgr: Manager, metric: string): Promise<number> {
  const values = (await mgr.metrics.registry.getSingleMetric(metric)?.get())?.values ?? [];
  return values.filter((v) => v.labels['controller'] === 'applicationroute').reduce((sum, v) => sum + v.value, 0);
}

/**
 * Waits until the controller is idle on `name` — its cache holds the route as the server does (so
 * the echo of its own last write was delivered), its queue is empty, no worker is busy, and no new
 * reconcile of `name` ran for `quietMs` — and returns how many reconciles of `name` ran so far.
 */
async function settled(op: Running, name: string, quietMs = 150): Promise<number> {
  let last = -1;
  return eventually(
    async () => {
      const server = (await op.admin.get(ApplicationRoute, key(name))).metadata.resourceVersion;
      if (op.mgr.client.get(ApplicationRoute, key(name))?.metadata.resourceVersion !== server) return false;
      const n = reconcilesOf(op.lines, name);
      const busy = (await gauge(op.mgr, 'workqueue_depth')) + (await gauge(op.mgr, 'controller_runtime_active_workers'));
      if (n !== last || busy > 0) {
        last = n;
        return false;
      }
      return n;
    },
    { intervalMs: quietMs, message: `${name} never went quiet` },
  );
}

const checkout = (name = 'checkout-api'): Route =>
  route(NS, name, {
    hostnames: ['checkout.internal.example.com'],
    backends: [
      { service: 'checkout', port: 8080, weight: 90 },
      { service: 'checkout-canary', port: 8080, weight: 10 },
    ],
    tlsSecret: 'checkout-tls',
    timeout: '2s',
  });

async function createCheckoutDependencies(admin: Client): Promise<void> {
  await admin.create(ServiceResource, service(NS, 'checkout'));
  await admin.create(ServiceResource, service(NS, 'checkout-canary'));
  await admin.create(SecretResource, tlsSecret(NS, 'checkout-tls'));
}

/** The starting point of most failure tests: checkout-api and everything it references, converged to Ready. */
async function checkoutReady(admin: Client): Promise<void> {
  await createCheckoutDependencies(admin);
  await admin.create(ApplicationRoute, checkout());
  await routeCondition(admin, 'checkout-api', 'Ready', 'True');
}

describe('ApplicationRoute operator', () => {
  it('renders an owned HTTPRoute with the weighted backends, hostnames, TLS secret and timeout, and reports Ready', async () => {
    await withEnv(async ({ admin, start }) => {
      const op = await start();
      await createCheckoutDependencies(admin);
      const created = await admin.create(ApplicationRoute, checkout());
      const ready = await routeCondition(admin, 'checkout-api', 'Ready', 'True', 'HTTPRouteRendered');
      assert.equal(condition(ready, 'DependenciesReady')?.status, 'True');
      assert.equal(ready.status?.observedGeneration, created.metadata.generation);
      const hr = (await httpRoute(admin, 'checkout-api'))!;
      assert.deepEqual(hr.spec.hostnames, ['checkout.internal.example.com']);
      const rule = hr.spec.rules?.[0];
      assert.deepEqual(
        rule?.backendRefs?.map((b) => [b.name, b.port, b.weight]),
        [
          ['checkout', 8080, 90],
          ['checkout-canary', 8080, 10],
        ],
      );
      assert.deepEqual(rule?.timeouts, { request: '2s' });
      assert.equal(hr.metadata.annotations?.[TLS_SECRET_ANNOTATION], 'checkout-tls');
      const owner = hr.metadata.ownerReferences?.[0];
      assert.deepEqual(
        [owner?.kind, owner?.name, owner?.uid, owner?.controller],
        ['ApplicationRoute', 'checkout-api', created.metadata.uid, true],
      );

      // A spec change is rendered into the same HTTPRoute; the status follows the generation.
      const n = await settled(op, 'checkout-api');
      await admin.patch(ApplicationRoute, key('checkout-api'), { spec: { timeout: '5s' } }, 'merge');
      await eventually(async () => (await httpRoute(admin, 'checkout-api'))?.spec.rules?.[0]?.timeouts?.request === '5s');
      await routeCondition(admin, 'checkout-api', 'Ready', 'True');
      assert.equal((await httpRoute(admin, 'checkout-api'))?.metadata.uid, hr.metadata.uid);
      assert.ok(reconcilesOf(op.lines, 'checkout-api') > n);
      assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);
    });
  });

  it('waits for a missing backend Service without polling (DependenciesReady=False, ServiceNotFound, no HTTPRoute), then converges when it is created', async () => {
    await withEnv(async ({ admin, start }) => {
      const op = await start();
      await admin.create(ServiceResource, service(NS, 'checkout'));
      await admin.create(SecretResource, tlsSecret(NS, 'checkout-tls'));
      await admin.create(ApplicationRoute, checkout());
      const waiting = await routeCondition(admin, 'checkout-api', 'DependenciesReady', 'False', 'ServiceNotFound');
      assert.match(condition(waiting, 'DependenciesReady')?.message ?? '', /checkout-canary/);
      assert.deepEqual([condition(waiting, 'Ready')?.status, condition(waiting, 'Ready')?.reason], ['False', 'DependenciesNotReady']);
      assert.equal(await httpRoute(admin, 'checkout-api'), undefined);

      // Waiting is idle: no reconcile runs, none is scheduled (no error backoff, no requeueAfter).
      const n = await settled(op, 'checkout-api');
      await sleep(300);
      assert.equal(reconcilesOf(op.lines, 'checkout-api'), n, 'a reconcile ran while the Service was missing');
      assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);

      await admin.create(ServiceResource, service(NS, 'checkout-canary'));
      const ready = await routeCondition(admin, 'checkout-api', 'Ready', 'True');
      assert.equal(condition(ready, 'DependenciesReady')?.status, 'True');
      assert.ok(await httpRoute(admin, 'checkout-api'));
    });
  });

  it('waits for a missing TLS Secret without polling (DependenciesReady=False, SecretNotFound), then converges when it is created', async () => {
    await withEnv(async ({ admin, start }) => {
      const op = await start();
      await admin.create(ServiceResource, service(NS, 'checkout'));
      await admin.create(ServiceResource, service(NS, 'checkout-canary'));
      await admin.create(ApplicationRoute, checkout());
      const waiting = await routeCondition(admin, 'checkout-api', 'DependenciesReady', 'False', 'SecretNotFound');
      assert.match(condition(waiting, 'DependenciesReady')?.message ?? '', /checkout-tls/);
      assert.equal(condition(waiting, 'Ready')?.status, 'False');
      assert.equal(await httpRoute(admin, 'checkout-api'), undefined);
      const n = await settled(op, 'checkout-api');
      await sleep(300);
      assert.equal(reconcilesOf(op.lines, 'checkout-api'), n, 'a reconcile ran while the Secret was missing');
      assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);

      await admin.create(SecretResource, tlsSecret(NS, 'checkout-tls'));
      await routeCondition(admin, 'checkout-api', 'Ready', 'True');
      assert.equal((await httpRoute(admin, 'checkout-api'))?.metadata.annotations?.[TLS_SECRET_ANNOTATION], 'checkout-tls');
    });
  });

  it('maps a Service or Secret change to exactly the routes that reference it', async () => {
    await withEnv(async ({ admin, start }) => {
      const op = await start();
      for (const s of ['shared', 'only-a', 'only-b', 'only-c']) await admin.create(ServiceResource, service(NS, s));
      await admin.create(SecretResource, tlsSecret(NS, 'tls-a'));
      await admin.create(
        ApplicationRoute,
        route(NS, 'a', {
          backends: [
            { service: 'shared', port: 8080 },
            { service: 'only-a', port: 8080 },
          ],
          tlsSecret: 'tls-a',
        }),
      );
      await admin.create(
        ApplicationRoute,
        route(NS, 'b', {
          backends: [
            { service: 'shared', port: 8080 },
            { service: 'only-b', port: 8080 },
          ],
        }),
      );
      await admin.create(ApplicationRoute, route(NS, 'c', { backends: [{ service: 'only-c', port: 8080 }] }));
      for (const name of ['a', 'b', 'c']) await routeCondition(admin, name, 'Ready', 'True');
      const counts = async () =>
        Object.fromEntries(await Promise.all(['a', 'b', 'c'].map(async (n) => [n, await settled(op, n)] as const)));
      const touch = (resource: typeof ServiceResource | typeof SecretResource, name: string, i: number) =>
        admin.patch(resource as typeof ServiceResource, key(name), { metadata: { labels: { touched: String(i) } } }, 'merge');

      let before = await counts();
      await touch(ServiceResource, 'shared', 1);
      let after = await eventually(async () => {
        const now = await counts();
        return now['a']! > before['a']! && now['b']! > before['b']! && now;
      });
      assert.equal(after['c'], before['c'], 'route c does not reference Service shared');

      before = after;
      await touch(ServiceResource, 'only-a', 2);
      after = await eventually(async () => {
        const now = await counts();
        return now['a']! > before['a']! && now;
      });
      assert.deepEqual([after['b'], after['c']], [before['b'], before['c']]);

      before = after;
      await touch(SecretResource, 'tls-a', 3);
      after = await eventually(async () => {
        const now = await counts();
        return now['a']! > before['a']! && now;
      });
      assert.deepEqual([after['b'], after['c']], [before['b'], before['c']]);

      // A Service of the same name in another namespace is another Service: the index is namespaced.
      await admin.create(NamespaceResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
      await admin.create(ServiceResource, service('other', 'shared'));
      await admin.patch(ServiceResource, { namespace: 'other', name: 'shared' }, { metadata: { labels: { touched: '4' } } }, 'merge');
      // Route c moves from only-c to only-b: the index follows, only-c no longer maps to it.
      await admin.patch(ApplicationRoute, key('c'), { spec: { backends: [{ service: 'only-b', port: 8080 }] } }, 'merge');
      await eventually(async () => (await httpRoute(admin, 'c'))?.spec.rules?.[0]?.backendRefs?.[0]?.name === 'only-b');
      before = await counts();
      assert.deepEqual([before['a'], before['b']], [after['a'], after['b']], 'a Service in another namespace woke no route here');
      await touch(ServiceResource, 'only-c', 5);
      await touch(ServiceResource, 'only-b', 6);
      after = await eventually(async () => {
        const now = await counts();
        return now['b']! > before['b']! && now['c']! > before['c']! && now;
      });
      await touch(ServiceResource, 'only-c', 7);
      await sleep(200);
      assert.deepEqual(await counts(), after, 'Service only-c is no longer referenced by any route');
    });
  });

  it('leaves an HTTPRoute controlled by another owner alone and reports Ready=False (HTTPRouteNotOwned) without retrying', async () => {
    await withEnv(async ({ admin, start }) => {
      const op = await start();
      await createCheckoutDependencies(admin);
      const squatter = await admin.create(ServiceResource, service(NS, 'squatter'));
      const foreign = await admin.create(HTTPRouteResource, {
        apiVersion: HTTPRouteResource.apiVersion,
        kind: HTTPRouteResource.kind,
        metadata: {
          name: 'checkout-api',
          namespace: NS,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Service', name: 'squatter', uid: squatter.metadata.uid!, controller: true }],
        },
        spec: { hostnames: ['elsewhere.example.com'] },
      });
      await admin.create(ApplicationRoute, checkout());
      const r = await routeCondition(admin, 'checkout-api', 'Ready', 'False', 'HTTPRouteNotOwned');
      assert.match(condition(r, 'Ready')?.message ?? '', /already owned by another Service controller squatter/);
      assert.equal(condition(r, 'DependenciesReady')?.status, 'True');
      await settled(op, 'checkout-api');
      assert.equal((await httpRoute(admin, 'checkout-api'))?.metadata.resourceVersion, foreign.metadata.resourceVersion);
      assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);
    });
  });

  it('needs no finalizer: deleting a route lets garbage collection remove its HTTPRoute', async () => {
    await using env = await TestEnv.start({ crds: CRDS, garbageCollection: true });
    const mgr = await env.newManager();
    setupApplicationRouteController(mgr);
    const run = mgr.start();
    try {
      await checkoutReady(env.client);
      assert.equal((await env.client.get(ApplicationRoute, key('checkout-api'))).metadata.finalizers, undefined);
      await env.client.delete(ApplicationRoute, key('checkout-api'));
      await eventually(async () => (await httpRoute(env.client, 'checkout-api')) === undefined, {
        message: 'the HTTPRoute is garbage-collected',
      });
    } finally {
      await mgr.shutdown();
      await run;
    }
  });

  describe('failure tests', () => {
    it('controller restarts after child create but before status update: the next controller adopts the HTTPRoute as is and writes the status', async () => {
      await withEnv(async ({ admin, start }) => {
        await createCheckoutDependencies(admin);
        let first: Running | undefined;
        let crashed = false;
        first = await start({
          faults: {
            beforeWrite: (w) => {
              if (w.resource === ApplicationRoute && w.subresource === 'status') {
                // The process dies here: the HTTPRoute exists, the status was never written.
                crashed = true;
                void first!.mgr.shutdown();
                throw new Error('process killed before the status update');
              }
            },
          },
        });
        await admin.create(ApplicationRoute, checkout());
        await eventually(() => crashed);
        await first.run;
        const child = (await httpRoute(admin, 'checkout-api'))!;
        assert.ok(child, 'the HTTPRoute was created before the crash');
        assert.equal((await admin.get(ApplicationRoute, key('checkout-api'))).status?.conditions, undefined);

        const second = await start();
        await routeCondition(admin, 'checkout-api', 'Ready', 'True');
        const after = (await admin.list(HTTPRouteResource, { namespace: NS })).items;
        assert.equal(after.length, 1);
        // Same object, not even rewritten: the rendering already matched.
        assert.deepEqual(
          [after[0]!.metadata.uid, after[0]!.metadata.resourceVersion],
          [child.metadata.uid, child.metadata.resourceVersion],
        );
        assert.deepEqual(retriesOf(second.lines, 'checkout-api'), []);
      });
    });

    it('child deleted by another actor: the HTTPRoute is recreated', async () => {
      await withEnv(async ({ admin, start }) => {
        await start();
        await checkoutReady(admin);
        const child = (await httpRoute(admin, 'checkout-api'))!;
        await admin.delete(HTTPRouteResource, key('checkout-api'));
        const recreated = await eventually(async () => {
          const hr = await httpRoute(admin, 'checkout-api');
          return hr !== undefined && hr.metadata.uid !== child.metadata.uid && hr;
        });
        assert.deepEqual(recreated.spec, child.spec);
        assert.equal(condition(await admin.get(ApplicationRoute, key('checkout-api')), 'Ready')?.status, 'True');
      });
    });

    it('API write returns conflict: the reconcile is retried with backoff and converges', async () => {
      await withEnv(async ({ admin, start }) => {
        const conflicted = new Set<string>();
        const conflict = (what: string) =>
          new StatusError({
            apiVersion: 'v1',
            kind: 'Status',
            status: 'Failure',
            reason: 'Conflict',
            code: 409,
            message: `Operation cannot be fulfilled on ${what}: the object has been modified`,
          });
        const op = await start({
          faults: {
            // The first write of the HTTPRoute and the first status write each answer 409.
            beforeWrite: (w) => {
              const what = `${w.resource.plural}/${w.subresource ?? ''}`;
              if (w.resource === ApplicationRoute || w.resource === HTTPRouteResource) {
                if (!conflicted.has(what)) {
                  conflicted.add(what);
                  throw conflict(what);
                }
              }
            },
          },
        });
        await checkoutReady(admin);
        assert.deepEqual([...conflicted].sort(), ['applicationroutes/status', 'httproutes/']);
        const errors = retriesOf(op.lines, 'checkout-api');
        assert.equal(errors.length, 2);
        assert.ok(errors.every((l) => /409 Conflict/.test(String((l['err'] as Error).message))));
        assert.equal((await admin.list(HTTPRouteResource, { namespace: NS })).items.length, 1);
      });
    });

    it('cache has not observed the previous write yet: no duplicate HTTPRoute and no error loop', async () => {
      await withEnv(async ({ admin, start }) => {
        // HTTPRoute watch events reach the manager's cache 400 ms late. Read-your-writes (the default)
        // would hold each pass until the cache caught up; this case is about the operator's own answer.
        const op = await start({
          faults: { beforeWatchEvent: (r) => (r === HTTPRouteResource ? sleep(400) : undefined) },
          controller: { readYourWrites: false },
        });
        await checkoutReady(admin);
        const child = (await httpRoute(admin, 'checkout-api'))!;
        assert.equal(op.mgr.client.get(HTTPRouteResource, key('checkout-api')), undefined, 'the cache should still lag');
        // Re-trigger the route while its cache has no HTTPRoute: each pass finds the child on the
        // server (create → AlreadyExists → live read) and leaves it alone.
        const before = reconcilesOf(op.lines, 'checkout-api');
        for (let i = 0; i < 3; i++) {
          await admin.patch(ServiceResource, key('checkout'), { metadata: { labels: { touched: String(i) } } }, 'merge');
          await eventually(() => reconcilesOf(op.lines, 'checkout-api') > before + i);
        }
        assert.equal(
          op.mgr.client.get(HTTPRouteResource, key('checkout-api')),
          undefined,
          'the re-triggered passes ran before the cache caught up',
        );
        await eventually(() => op.mgr.client.get(HTTPRouteResource, key('checkout-api')) !== undefined);
        await settled(op, 'checkout-api');
        const all = (await admin.list(HTTPRouteResource, { namespace: NS })).items;
        assert.deepEqual(
          all.map((h) => [h.metadata.uid, h.metadata.resourceVersion]),
          [[child.metadata.uid, child.metadata.resourceVersion]],
        );
        assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);
      });
    });

    it('referenced object deleted and recreated with the same name: DependenciesReady goes False, then True', async () => {
      await withEnv(async ({ admin, start }) => {
        await start();
        await checkoutReady(admin);
        const child = (await httpRoute(admin, 'checkout-api'))!;
        const old = await admin.get(ServiceResource, key('checkout-canary'));
        await admin.delete(ServiceResource, key('checkout-canary'));
        const waiting = await routeCondition(admin, 'checkout-api', 'DependenciesReady', 'False', 'ServiceNotFound');
        assert.equal(condition(waiting, 'Ready')?.status, 'False');
        // The last good HTTPRoute stays: the healthy backend keeps serving.
        assert.equal((await httpRoute(admin, 'checkout-api'))?.metadata.resourceVersion, child.metadata.resourceVersion);
        const recreated = await admin.create(ServiceResource, service(NS, 'checkout-canary'));
        assert.notEqual(recreated.metadata.uid, old.metadata.uid);
        const ready = await routeCondition(admin, 'checkout-api', 'DependenciesReady', 'True');
        assert.equal(condition(ready, 'Ready')?.status, 'True');
      });
    });

    it('200 secondary events mapping to one primary collapse into a few reconciles', async () => {
      await withEnv(async ({ admin, start }) => {
        // A rollout: the route's weights change, and while that reconcile waits on a slow HTTPRoute
        // write, the rollout touches its Service and Secret 200 times.
        let gate: Promise<void> | undefined;
        let writing = false;
        let release!: () => void;
        const op = await start({
          faults: {
            beforeWrite: async (w) => {
              if (w.resource === HTTPRouteResource && w.verb === 'patch' && gate) {
                writing = true;
                await gate;
              }
            },
          },
        });
        await checkoutReady(admin);
        const before = await settled(op, 'checkout-api');
        gate = new Promise((resolve) => (release = resolve));
        await admin.patch(
          ApplicationRoute,
          key('checkout-api'),
          {
            spec: {
              backends: [
                { service: 'checkout', port: 8080, weight: 50 },
                { service: 'checkout-canary', port: 8080, weight: 50 },
              ],
            },
          },
          'merge',
        );
        await eventually(() => writing);
        await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            i % 2 === 0
              ? admin.patch(ServiceResource, key('checkout'), { metadata: { labels: { burst: String(i) } } }, 'merge')
              : admin.patch(SecretResource, key('checkout-tls'), { metadata: { labels: { burst: String(i) } } }, 'merge'),
          ),
        );
        // Every event has reached the cache (so its handler ran) before the write is let go.
        await eventually(() => op.mgr.client.get(SecretResource, key('checkout-tls'))?.metadata.labels?.['burst'] === '199');
        assert.equal(reconcilesOf(op.lines, 'checkout-api'), before + 1, 'the in-flight reconcile blocks the key: nothing else started');
        gate = undefined;
        release();
        await eventually(async () => (await httpRoute(admin, 'checkout-api'))?.spec.rules?.[0]?.backendRefs?.[1]?.weight === 50);
        await routeCondition(admin, 'checkout-api', 'Ready', 'True');
        const reconciles = (await settled(op, 'checkout-api')) - before;
        // The spec change's pass, one pass for the whole burst, at most one more for the pass's own writes.
        assert.ok(reconciles >= 2 && reconciles <= 3, `the spec change and 200 events caused ${reconciles} reconciles`);
        assert.deepEqual(retriesOf(op.lines, 'checkout-api'), []);
      });
    });

    it('shutdown with queued work: in-flight reconciles finish, queued ones are not started, and the next manager converges them', async () => {
      await withEnv(async ({ admin, start }) => {
        const names = Array.from({ length: 12 }, (_, i) => `route-${i}`);
        await admin.create(ServiceResource, service(NS, 'shared'));
        for (const n of names) await admin.create(ApplicationRoute, route(NS, n, { backends: [{ service: 'shared', port: 8080 }] }));
        // Slow HTTPRoute creates keep most of the 12 keys queued behind 2 workers.
        const op = await start({
          controller: { maxConcurrentReconciles: 2 },
          faults: { beforeWrite: (w) => (w.resource === HTTPRouteResource ? sleep(100) : undefined) },
        });
        await eventually(async () => (await admin.list(HTTPRouteResource, { namespace: NS })).items.length >= 1);
        const atShutdown = op.lines.length;
        await op.mgr.shutdown();
        await op.run; // a clean stop: no ShutdownTimeoutError
        const startedAfter = op.lines.slice(atShutdown).filter((l) => l.msg === 'Reconciling');
        assert.deepEqual(startedAfter, [], 'no queued reconcile may start once shutdown began');
        // Each reconcile that had started settled (succeeded, or failed on its aborted write) before the stop.
        const settledIds = new Set(
          op.lines.filter((l) => l.msg === 'Reconcile successful' || l.msg === 'Reconciler error').map((l) => l['reconcileID']),
        );
        const unsettled = op.lines.filter((l) => l.msg === 'Reconciling' && !settledIds.has(l['reconcileID']));
        assert.deepEqual(unsettled, [], 'a reconcile was cut off instead of drained');
        const started = new Set(op.lines.filter((l) => l.msg === 'Reconciling').map((l) => l.name));
        assert.ok(started.size < names.length, `work was left queued (${started.size} of ${names.length} started)`);

        await start();
        for (const n of names) await routeCondition(admin, n, 'Ready', 'True');
        assert.equal((await admin.list(HTTPRouteResource, { namespace: NS })).items.length, names.length);
      });
    });
  });
});
