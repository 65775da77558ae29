// End-to-end tests of the WebApp operator on the in-process API server: the happy path, then the
// failure cases an operator must survive, each test named after its case.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import {
  ConfigMapResource,
  DeploymentResource,
  EventResource,
  ServiceResource,
  getControllerOf,
  jsonLogger,
  type KubeObject,
  type ObjectOf,
  type ResourceDescriptor,
} from 'kube-converge/meta';
import { isNotFound, type Client } from 'kube-converge/client';
import { itemExponentialFailureRateLimiter } from 'kube-converge/workqueue';
import type { Manager } from 'kube-converge/manager';
import { TestEnv, eventually, faultInjectingClient } from 'kube-converge/testing';
import { setupWebAppController } from './controller.js';
import { setupDeploymentSimulator } from './deployment-simulator.js';
import { ExternalSystem } from './external-system.js';
import { configHash } from './render.js';
import { CONFIG_HASH_ANNOTATION, WEBAPP_FINALIZER, WebApp, type WebAppSpec } from './types.js';

const crd = fileURLToPath(new URL('./crd.yaml', import.meta.url));
const ns = 'default';
const KEY = `${ns}/shop`;
type WebAppObject = ObjectOf<typeof WebApp>;

interface Operator {
  mgr: Manager;
  running: Promise<void>;
  external: ExternalSystem;
  /** Every log line of the manager, debug included. */
  logs: LogLine[];
  /** The error-level lines. */
  errors(): LogLine[];
}

interface LogLine {
  level: string;
  msg: string;
  reason?: string;
  err?: { message: string };
}

/** Starts the operator and the deployment simulator in one manager, with a short backoff for tests. */
async function startOperator(
  env: TestEnv,
  options: {
    external?: ExternalSystem;
    client?: Client;
    maxConcurrentReconciles?: number;
    gracefulShutdownTimeoutMs?: number;
    readYourWrites?: boolean;
  } = {},
): Promise<Operator> {
  const external = options.external ?? new ExternalSystem();
  const logs: LogLine[] = [];
  const mgr = await env.newManager({
    ...(options.client ? { client: options.client } : {}),
    ...(options.gracefulShutdownTimeoutMs !== undefined ? { gracefulShutdownTimeoutMs: options.gracefulShutdownTimeoutMs } : {}),
    logger: jsonLogger({ level: 'debug', write: (line) => logs.push(JSON.parse(line) as LogLine) }),
  });
  setupWebAppController(mgr, {
    externalSystem: external,
    controller: {
      maxConcurrentReconciles: options.maxConcurrentReconciles ?? 2,
      ...(options.readYourWrites !== undefined ? { readYourWrites: options.readYourWrites } : {}),
      rateLimiter: itemExponentialFailureRateLimiter({ baseDelayMs: 2, maxDelayMs: 200 }),
    },
  });
  setupDeploymentSimulator(mgr, { stepMs: 5 });
  const running = mgr.start();
  await mgr.elected();
  return { mgr, running, external, logs, errors: () => logs.filter((l) => l.level === 'error') };
}

/** `controller_runtime_reconcile_total` (all results) or `..._errors_total` for one controller. */
async function metric(mgr: Manager, name: 'reconcile_total' | 'reconcile_errors_total', controller = 'webapp'): Promise<number> {
  const m = mgr.metrics.registry.getSingleMetric(`controller_runtime_${name}`);
  assert.ok(m, `metric controller_runtime_${name} is registered`);
  const { values } = await m.get();
  return values.filter((v) => v.labels.controller === controller).reduce((sum, v) => sum + v.value, 0);
}

function createWebApp(env: TestEnv, spec: WebAppSpec, name = 'shop'): Promise<WebAppObject> {
  return env.client.create(WebApp, { apiVersion: WebApp.apiVersion, kind: WebApp.kind, metadata: { name, namespace: ns }, spec });
}

function createConfigMap(env: TestEnv, data: Record<string, string>, name = 'shop-config') {
  return env.client.create(ConfigMapResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });
}

const get = <T extends KubeObject>(env: TestEnv, r: ResourceDescriptor<T>, name = 'shop') => env.client.get(r, { namespace: ns, name });

function condition(app: WebAppObject, type: string) {
  return app.status?.conditions?.find((c) => c.type === type);
}

/** Waits until the WebApp reports Ready=True for its current generation with `replicas` ready. */
async function readyApp(env: TestEnv, replicas: number, name = 'shop'): Promise<WebAppObject> {
  return eventually(
    async () => {
      const app = await get(env, WebApp, name);
      assert.equal(app.status?.observedGeneration, app.metadata.generation, 'observedGeneration');
      assert.equal(app.status?.readyReplicas, replicas, 'readyReplicas');
      assert.equal(condition(app, 'Ready')?.status, 'True', `Ready: ${JSON.stringify(condition(app, 'Ready'))}`);
      return app;
    },
    { timeoutMs: 5000, message: `${ns}/${name} Ready with ${replicas} replicas` },
  );
}

describe('WebApp operator', () => {
  it('creates a Deployment and a Service controlled by the WebApp and reports Ready once the replicas are', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const op = await startOperator(env);
    const cm = await createConfigMap(env, { GREETING: 'hello' });
    const created = await createWebApp(env, { image: 'shop:1', replicas: 3, configRef: 'shop-config' });

    const app = await readyApp(env, 3);
    assert.deepEqual(app.metadata.finalizers, [WEBAPP_FINALIZER]);
    assert.equal(app.status?.observedGeneration, 1);
    assert.deepEqual(app.status?.conditions?.map((c) => [c.type, c.status, c.reason]).sort(), [
      ['Degraded', 'False', 'AsExpected'],
      ['Progressing', 'False', 'RolloutComplete'],
      ['Ready', 'True', 'AllReplicasReady'],
    ]);
    const dep = await get(env, DeploymentResource);
    assert.equal(getControllerOf(dep)?.uid, created.metadata.uid);
    assert.equal(dep.spec?.replicas, 3);
    assert.equal(dep.spec?.template.spec?.containers[0]?.image, 'shop:1');
    assert.equal(dep.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION], configHash(cm));
    const svc = await get(env, ServiceResource);
    assert.equal(getControllerOf(svc)?.uid, created.metadata.uid);
    assert.equal(svc.spec?.ports?.[0]?.targetPort, 'http');
    assert.ok(op.external.has(KEY), 'registered in the external system');
    await eventually(async () => {
      const reasons = (await env.client.list(EventResource, { namespace: ns })).items.map((e) => e.reason);
      assert.ok(reasons.includes('Created'), `events: ${reasons.join(',')}`);
    });
    assert.deepEqual(op.errors(), []);
  });

  it('makes no write when nothing drifted: a reconcile of a converged WebApp leaves every resourceVersion alone', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const op = await startOperator(env);
    await createWebApp(env, { image: 'shop:1', replicas: 2 });
    await readyApp(env, 2);
    // Let the last status events drain, then take a snapshot.
    await eventually(async () => {
      const before = await metric(op.mgr, 'reconcile_total');
      await new Promise((r) => setTimeout(r, 50));
      return (await metric(op.mgr, 'reconcile_total')) === before;
    });
    const [dep, svc] = [await get(env, DeploymentResource), await get(env, ServiceResource)];
    const before = await metric(op.mgr, 'reconcile_total');
    // An annotation nobody owns wakes the reconciler without changing anything it computes.
    const touched = await env.client.patch(WebApp, { namespace: ns, name: 'shop' }, { metadata: { annotations: { note: 'hi' } } }, 'merge');
    await eventually(async () => (await metric(op.mgr, 'reconcile_total')) > before);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await get(env, DeploymentResource)).metadata.resourceVersion, dep.metadata.resourceVersion);
    assert.equal((await get(env, ServiceResource)).metadata.resourceVersion, svc.metadata.resourceVersion);
    assert.equal((await get(env, WebApp)).metadata.resourceVersion, touched.metadata.resourceVersion, 'status was not rewritten');
  });

  it('rolls the pod template when the referenced ConfigMap changes', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    await startOperator(env);
    await createConfigMap(env, { GREETING: 'hello' });
    await createWebApp(env, { image: 'shop:1', replicas: 1, configRef: 'shop-config' });
    await readyApp(env, 1);
    const dep = await get(env, DeploymentResource);
    const cm = await env.client.patch(
      ConfigMapResource,
      { namespace: ns, name: 'shop-config' },
      { data: { GREETING: 'bonjour' } },
      'merge',
    );
    await eventually(async () => {
      const now = await get(env, DeploymentResource);
      assert.equal(now.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION], configHash(cm));
      assert.ok((now.metadata.generation ?? 0) > (dep.metadata.generation ?? 0), 'a new template generation');
    });
    await readyApp(env, 1);
  });

  it('follows a spec change: the generation moves and status.observedGeneration catches up', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    await startOperator(env);
    await createWebApp(env, { image: 'shop:1', replicas: 1 });
    await readyApp(env, 1);
    const changed = await env.client.patch(WebApp, { namespace: ns, name: 'shop' }, { spec: { replicas: 4, image: 'shop:2' } }, 'merge');
    assert.equal(changed.metadata.generation, 2);
    const app = await readyApp(env, 4);
    assert.equal(app.status?.observedGeneration, 2);
    assert.ok(app.status?.conditions?.every((c) => c.observedGeneration === 2));
    const dep = await get(env, DeploymentResource);
    assert.equal(dep.spec?.replicas, 4);
    assert.equal(dep.spec?.template.spec?.containers[0]?.image, 'shop:2');
  });

  it('runs the external cleanup on deletion, then drops the finalizer; the WebApp and its children are gone', async () => {
    await using env = await TestEnv.start({ crds: [crd], garbageCollection: true });
    const op = await startOperator(env);
    await createWebApp(env, { image: 'shop:1', replicas: 1 });
    await readyApp(env, 1);
    await env.client.delete(WebApp, { namespace: ns, name: 'shop' });
    await eventually(() => assert.rejects(get(env, WebApp), (e) => isNotFound(e)));
    assert.equal(op.external.has(KEY), false);
    assert.deepEqual(op.external.cleanupCalls, [KEY]);
    // The children go with their owner: the server's garbage collector follows the owner references.
    await eventually(async () => {
      await assert.rejects(get(env, DeploymentResource), (e) => isNotFound(e));
      await assert.rejects(get(env, ServiceResource), (e) => isNotFound(e));
    });
  });

  describe('failure cases', () => {
    it('controller restarts after child create but before status update', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const first = await startOperator(env, { gracefulShutdownTimeoutMs: 0 });
      const gate = first.external.hold(); // the reconcile stops after the children, before status
      await createWebApp(env, { image: 'shop:1', replicas: 2 });
      assert.equal(await gate.reached, KEY);
      const dep = await get(env, DeploymentResource);
      const svc = await get(env, ServiceResource);
      assert.equal((await get(env, WebApp)).status, undefined, 'no status was written before the crash');
      // The process dies: no grace period, the in-flight reconcile is cut off.
      await first.mgr.shutdown();
      await first.running;
      gate.release();

      const second = await startOperator(env, { external: first.external });
      await readyApp(env, 2);
      const deps = (await env.client.list(DeploymentResource, { namespace: ns })).items;
      const svcs = (await env.client.list(ServiceResource, { namespace: ns })).items.filter((s) => s.metadata.name === 'shop');
      assert.deepEqual(
        deps.map((d) => d.metadata.uid),
        [dep.metadata.uid],
        'the same Deployment, not a duplicate',
      );
      assert.deepEqual(
        svcs.map((s) => s.metadata.uid),
        [svc.metadata.uid],
        'the same Service, not a duplicate',
      );
      assert.equal(second.external.size, 1);
    });

    it('child deleted by another actor', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      await startOperator(env);
      await createWebApp(env, { image: 'shop:1', replicas: 2 });
      await readyApp(env, 2);
      const dep = await get(env, DeploymentResource);
      const svc = await get(env, ServiceResource);
      await env.client.delete(DeploymentResource, { namespace: ns, name: 'shop' });
      await env.client.delete(ServiceResource, { namespace: ns, name: 'shop' });
      await eventually(async () => {
        assert.notEqual((await get(env, DeploymentResource)).metadata.uid, dep.metadata.uid);
        assert.notEqual((await get(env, ServiceResource)).metadata.uid, svc.metadata.uid);
      });
      await readyApp(env, 2);
    });

    it('external API succeeds but the response is lost (registration and cleanup are retried, nothing duplicated)', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env);
      op.external.loseNextResponse('register');
      await createWebApp(env, { image: 'shop:1', replicas: 1 });
      await readyApp(env, 1);
      const registrations = op.external.calls.filter((c) => c.op === 'register');
      assert.equal(registrations[0]?.outcome, 'response-lost');
      assert.ok(registrations.slice(1).every((c) => c.outcome === 'ok') && registrations.length >= 2, 'retried after the lost response');
      assert.equal(op.external.size, 1, 'one record, not two');

      op.external.loseNextResponse('cleanup');
      await env.client.delete(WebApp, { namespace: ns, name: 'shop' });
      await eventually(() => assert.rejects(get(env, WebApp), (e) => isNotFound(e)));
      const cleanups = op.external.calls.filter((c) => c.op === 'cleanup').map((c) => c.outcome);
      assert.deepEqual(cleanups, ['response-lost', 'ok'], 'the finalizer stayed until a cleanup answered');
      assert.equal(op.external.size, 0);
    });

    it('API write returns conflict', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env);
      await createWebApp(env, { image: 'shop:1', replicas: 1 });
      await readyApp(env, 1);
      const gate = op.external.hold();
      await env.client.patch(WebApp, { namespace: ns, name: 'shop' }, { spec: { replicas: 2 } }, 'merge');
      await gate.reached; // the reconcile read generation 2 from the cache and is about to write status
      // A concurrent writer bumps the object, so the status write carries a stale resourceVersion.
      await env.client.patch(WebApp, { namespace: ns, name: 'shop' }, { metadata: { labels: { team: 'payments' } } }, 'merge');
      gate.release();
      const app = await readyApp(env, 2);
      assert.equal(app.metadata.labels?.team, 'payments', "the other writer's change survived");
      assert.ok(
        op.logs.some((l) => l.reason === 'Conflict'),
        'the stale status write was refused with 409 Conflict',
      );
      assert.deepEqual(op.errors(), [], 'a conflict is not an error: the newer version woke the reconciler');
    });

    it('cache has not observed the previous write yet', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      let openGate!: () => void;
      const gate = new Promise<void>((resolve) => (openGate = resolve));
      // The operator's Deployment watch is held back: its cache never sees the Deployment it created.
      // Read-your-writes (the default) would hold the next reconcile until it does; this case is about
      // the operator's own answer to a stale cache, so it is turned off here.
      const op = await startOperator(env, {
        readYourWrites: false,
        client: faultInjectingClient(env.client, {
          // The cache lags the server: Deployment events wait at the gate (bookmarks carry no object).
          beforeWatchEvent: (r, e) =>
            r.group === DeploymentResource.group && r.plural === DeploymentResource.plural && e.type !== 'BOOKMARK' ? gate : undefined,
        }),
      });
      await createWebApp(env, { image: 'shop:1', replicas: 1 });
      const dep = await eventually(() => get(env, DeploymentResource));
      // The finalizer write wakes the reconciler again while its cache still has no Deployment.
      await eventually(async () => (await metric(op.mgr, 'reconcile_total')) >= 2);
      assert.equal(op.mgr.client.get(DeploymentResource, { namespace: ns, name: 'shop' }), undefined, 'the cache still lags');
      const deps = (await env.client.list(DeploymentResource, { namespace: ns })).items;
      assert.deepEqual(
        deps.map((d) => [d.metadata.uid, d.metadata.resourceVersion]),
        [[dep.metadata.uid, dep.metadata.resourceVersion]],
        'one Deployment, written once: AlreadyExists was answered by a live read, not a second create or a blind write',
      );
      assert.equal(await metric(op.mgr, 'reconcile_errors_total'), 0);
      openGate();
      await readyApp(env, 1);
    });

    it('object already gone when the finalizer is removed: the 404 means done, no Reconciler error', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env);
      await createWebApp(env, { image: 'shop:1', replicas: 1 });
      await readyApp(env, 1);
      const gate = op.external.hold();
      await env.client.delete(WebApp, { namespace: ns, name: 'shop' });
      await gate.reached; // the reconcile is in the external cleanup, about to drop the finalizer
      // Another actor drops the finalizer first, so the server removes the WebApp.
      await env.client.patch(WebApp, { namespace: ns, name: 'shop' }, { metadata: { finalizers: null } }, 'merge');
      await eventually(() => assert.rejects(get(env, WebApp), (e) => isNotFound(e)));
      const reconciles = await metric(op.mgr, 'reconcile_total');
      gate.release();
      await eventually(async () => assert.ok((await metric(op.mgr, 'reconcile_total')) > reconciles, 'the held reconcile finished'));
      assert.equal(op.external.has(KEY), false);
      assert.deepEqual(op.errors(), [], 'no Reconciler error for a WebApp that is already gone');
      assert.equal(await metric(op.mgr, 'reconcile_errors_total'), 0);
    });

    it('finalization retried 10 times before succeeding', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env);
      await createWebApp(env, { image: 'shop:1', replicas: 1 });
      await readyApp(env, 1);
      op.external.failNextCleanups(10);
      await env.client.delete(WebApp, { namespace: ns, name: 'shop' });
      await eventually(async () => {
        const app = await get(env, WebApp);
        assert.ok(app.metadata.deletionTimestamp);
        assert.deepEqual(app.metadata.finalizers, [WEBAPP_FINALIZER], 'kept while cleanup fails');
        return op.external.calls.filter((c) => c.op === 'cleanup').length >= 5;
      });
      await eventually(() => assert.rejects(get(env, WebApp), (e) => isNotFound(e)), { timeoutMs: 5000 });
      const attempts = op.external.calls.filter((c) => c.op === 'cleanup');
      assert.deepEqual(
        attempts.map((c) => c.outcome),
        [...Array<string>(10).fill('failed'), 'ok'],
      );
      // Backoff is visible: the wait before the last retries is longer than before the first ones.
      const gaps = attempts.slice(1).map((c, i) => c.atMs - attempts[i]!.atMs);
      assert.ok(
        gaps.slice(-3).reduce((a, b) => a + b) > 4 * gaps.slice(0, 3).reduce((a, b) => a + b),
        `gaps grow exponentially: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`,
      );
      const warnings = (await env.client.list(EventResource, { namespace: ns })).items.filter((e) => e.reason === 'CleanupFailed');
      assert.ok(warnings.length >= 1 && warnings.every((e) => e.type === 'Warning'));
    });

    it('referenced object deleted and recreated with the same name', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      await startOperator(env);
      await createConfigMap(env, { GREETING: 'hello' });
      await createWebApp(env, { image: 'shop:1', replicas: 1, configRef: 'shop-config' });
      await readyApp(env, 1);
      await env.client.delete(ConfigMapResource, { namespace: ns, name: 'shop-config' });
      await eventually(async () => {
        const app = await get(env, WebApp);
        assert.equal(condition(app, 'Degraded')?.status, 'True');
        assert.equal(condition(app, 'Degraded')?.reason, 'ConfigMapNotFound');
        assert.equal(condition(app, 'Ready')?.status, 'False');
      });
      const recreated = await createConfigMap(env, { GREETING: 'hola' });
      await eventually(async () => {
        const dep = await get(env, DeploymentResource);
        assert.equal(dep.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION], configHash(recreated));
        assert.equal(condition(await get(env, WebApp), 'Degraded')?.status, 'False');
      });
      await readyApp(env, 1);
    });

    it('200 secondary events mapping to one primary collapse into a few reconciles', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env);
      await createConfigMap(env, { n: '0' });
      await createWebApp(env, { image: 'shop:1', replicas: 1, configRef: 'shop-config' });
      await readyApp(env, 1);
      const gate = op.external.hold(); // one reconcile in flight while the events arrive
      await env.client.patch(ConfigMapResource, { namespace: ns, name: 'shop-config' }, { data: { n: '1' } }, 'merge');
      await gate.reached;
      const before = await metric(op.mgr, 'reconcile_total');
      let last = await get(env, ConfigMapResource, 'shop-config');
      for (let i = 2; i <= 200; i++) {
        last = await env.client.patch(ConfigMapResource, { namespace: ns, name: 'shop-config' }, { data: { n: String(i) } }, 'merge');
      }
      // Wait until the cache has every event (the map function ran for each), then let the reconcile go.
      await eventually(
        () =>
          op.mgr.client.get(ConfigMapResource, { namespace: ns, name: 'shop-config' })?.metadata.resourceVersion ===
          last.metadata.resourceVersion,
      );
      gate.release();
      await eventually(async () => {
        const dep = await get(env, DeploymentResource);
        assert.equal(dep.spec?.template.metadata?.annotations?.[CONFIG_HASH_ANNOTATION], configHash(last));
      });
      await readyApp(env, 1);
      const reconciles = (await metric(op.mgr, 'reconcile_total')) - before;
      // 199 ConfigMap events while the key was processing left it dirty once: one more reconcile for all
      // of them. The rest (about 5) come from the rollout they caused — the Deployment's status steps and
      // the operator's own status writes — and would be the same after a single ConfigMap change.
      assert.ok(reconciles <= 12, `199 events caused ${reconciles} reconciles`);
    });

    it('shutdown with queued work', async () => {
      await using env = await TestEnv.start({ crds: [crd] });
      const op = await startOperator(env, { maxConcurrentReconciles: 1 });
      const gate = op.external.hold();
      for (const name of ['a', 'b', 'c']) await createWebApp(env, { image: 'shop:1', replicas: 1 }, name);
      const inFlight = await gate.reached;
      // The other two are queued behind the single worker.
      await eventually(async () => {
        const m = op.mgr.metrics.registry.getSingleMetric('workqueue_depth');
        const { values } = await m!.get();
        return values.some((v) => v.labels.name === 'webapp' && v.value >= 2);
      });
      let stopped = false;
      const stopping = op.mgr.shutdown().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(stopped, false, 'shutdown waits for the in-flight reconcile');
      gate.release();
      await stopping;
      await op.running;
      assert.deepEqual(
        op.external.calls.map((c) => `${c.op} ${c.key}`),
        [`register ${inFlight}`],
        'the in-flight reconcile finished; queued ones never started',
      );
      const children = (await env.client.list(DeploymentResource, { namespace: ns })).items.map((d) => d.metadata.name);
      assert.deepEqual(children, [inFlight.split('/')[1]]);
    });
  });
});
