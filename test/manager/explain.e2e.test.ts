// End-to-end: `mgr.explain` and `GET /debug/converge/…` against a TestEnv API server — a reconcile
// failing with a Conflict, convergence after it recovers, a stale observedGeneration, a deletion held
// by a finalizer, the owner's view from an owned child, and the endpoint's 404s.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from 'kube-converge/client';
import { controllerManagedBy } from 'kube-converge/controller';
import { createOrUpdate, setControllerReference, type ConvergeReport } from 'kube-converge/manager';
import { ConfigMapResource, clone, defineResource, setStatusCondition, type Condition } from 'kube-converge/meta';
import { TestEnv, eventually } from 'kube-converge/testing';
import { crdWithStatus } from './fixtures/crd-with-status.js';

interface WidgetSpec {
  size: number;
}
interface WidgetStatus {
  observedGeneration?: number;
  conditions?: Condition[];
}
const Widget = defineResource<WidgetSpec, WidgetStatus>({
  group: 'explain.converge.dev',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});
const NS = 'default';

const crd = crdWithStatus(Widget, { spec: { size: { type: 'integer' } }, status: { observedGeneration: { type: 'integer' } } });

const conflict = (name: string): StatusError =>
  new StatusError({
    apiVersion: 'v1',
    kind: 'Status',
    status: 'Failure',
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on widgets.explain.converge.dev "${name}": the object has been modified; please apply your changes to the latest version and try again`,
  });

const widget = (name: string, extra: { finalizers?: string[] } = {}) => ({
  apiVersion: Widget.apiVersion,
  kind: Widget.kind,
  metadata: { name, namespace: NS, ...extra },
  spec: { size: 1 },
});

/** Drops what differs between two reports of the same state taken moments apart. */
function timeless(r: ConvergeReport): unknown {
  const { at: _at, summary: _summary, reasons: _reasons, ...rest } = r;
  return { ...rest, controllers: r.controllers.map(({ nextAttemptInMs: _n, lastFinishedAgoMs: _l, reconcilingForMs: _r, ...c }) => c) };
}

describe('explain end to end', () => {
  it('says why a Widget is not converged, and that it is once it is', async () => {
    await using env = await TestEnv.start({ crds: [crd] });
    const mgr = await env.newManager({ healthProbeBindAddress: '127.0.0.1:0', gracefulShutdownTimeoutMs: 5_000 });
    let failing = true;
    controllerManagedBy(mgr)
      .for(Widget)
      .owns(ConfigMapResource)
      .complete(async (req, { client, signal }) => {
        const cached = client.get(Widget, req);
        if (!cached || cached.metadata.deletionTimestamp) return;
        if (req.name === 'flaky' && failing) throw conflict(req.name);
        // A frozen widget is reconciled but its status is left alone: its status goes stale.
        if (cached.metadata.labels?.['frozen'] === 'true') return;
        await createOrUpdate(
          client,
          ConfigMapResource,
          { metadata: { name: `${req.name}-cm`, namespace: NS } },
          (cm) => {
            cm.data = { size: String(cached.spec.size) };
            setControllerReference(cached, cm, { ownerResource: Widget });
          },
          { signal },
        );
        const w = clone(cached) as typeof cached;
        w.status ??= {};
        w.status.observedGeneration = w.metadata.generation ?? 0;
        w.status.conditions ??= [];
        setStatusCondition(
          w.status.conditions,
          { type: 'Ready', status: 'True', reason: 'Reconciled', message: 'config map written' },
          Date.now(),
        );
        await client.status().update(Widget, w, { signal });
      });
    const apiRequests = async (): Promise<number> =>
      (await mgr.metrics.registry.getSingleMetric('rest_client_requests_total')!.get()).values.reduce((n, v) => n + v.value, 0);
    const run = mgr.start();
    try {
      await mgr.elected();
      const { healthProbe } = await mgr.listening();
      const url = (path: string) => `${healthProbe}/debug/converge/${path}`;

      // 1. Failing with a Conflict: waiting for its retry, with the failures and the API reason.
      await env.client.create(Widget, widget('flaky'));
      const failingReport = await eventually(
        async () => {
          const r = await mgr.explain(Widget, { namespace: NS, name: 'flaky' });
          const c = r.controllers.find((x) => x.role === 'for');
          return c?.state?.phase === 'waiting-retry' && c.state.failures >= 3 && r;
        },
        { timeoutMs: 10_000 },
      );
      assert.equal(failingReport.converged, false);
      assert.equal(failingReport.cache.informer, 'synced');
      assert.equal(failingReport.cache.holdsObject, true);
      assert.equal(failingReport.object.source, 'cache');
      const c = failingReport.controllers[0]!;
      assert.equal(c.controller, 'widget');
      assert.deepEqual(c.request, { namespace: NS, name: 'flaky' });
      assert.equal(c.state?.lastError?.reason, 'Conflict');
      assert.equal(c.state?.lastOutcome, 'error');
      assert.equal(typeof c.nextAttemptInMs, 'number');
      assert.match(
        failingReport.summary,
        /^not converged: Widget default\/flaky — controller widget: reconcile failing for \d+ attempts \(Conflict: Operation cannot be fulfilled on widgets\.explain\.converge\.dev "flaky": the object has been modified; .*\), next attempt in -?\d+(\.\d)? m?s/,
      );

      // The endpoint serves the same report.
      const failingHttp = await fetch(url(`explain.converge.dev/v1/widgets/${NS}/flaky`));
      assert.equal(failingHttp.status, 200);
      assert.match(failingHttp.headers.get('content-type') ?? '', /^application\/json/);
      const failingBody = (await failingHttp.json()) as ConvergeReport;
      assert.equal(failingBody.converged, false);
      assert.equal(failingBody.controllers[0]?.state?.lastError?.reason, 'Conflict');

      // 2. It recovers: converged, with the facts that say so.
      failing = false;
      const done = await eventually(
        async () => {
          const r = await mgr.explain(Widget, { namespace: NS, name: 'flaky' });
          return r.converged && r;
        },
        { timeoutMs: 10_000 },
      );
      assert.match(
        done.summary,
        /^converged: Widget default\/flaky — Ready=True, observedGeneration 1 = generation 1, last reconcile succeeded \d+(\.\d)? m?s ago$/,
      );
      assert.deepEqual(done.reasons, []);
      assert.equal(done.object.statusUpToDate, true);
      assert.equal(done.controllers[0]?.state?.phase, 'done');
      assert.equal(done.controllers[0]?.state?.failures, 0);
      assert.equal(done.controllers[0]?.state?.lastError, undefined);
      const doneHttp = (await (await fetch(url(`explain.converge.dev/v1/widgets/${NS}/flaky`))).json()) as ConvergeReport;
      assert.deepEqual(
        timeless(doneHttp),
        timeless(JSON.parse(JSON.stringify(await mgr.explain(Widget, { namespace: NS, name: 'flaky' })))),
      );

      // The owned ConfigMap: its controller owner's reconcile, through the core group's path.
      const cm = await eventually(async () => {
        const r = await mgr.explain(ConfigMapResource, { namespace: NS, name: 'flaky-cm' });
        return r.object.exists === true && r;
      });
      assert.deepEqual(
        cm.controllers.map((x) => [x.controller, x.role, x.kind, x.request.name, x.state?.phase]),
        [['widget', 'owner', 'Widget', 'flaky', 'done']],
      );
      assert.equal(cm.converged, true);
      const cmHttp = await fetch(url(`core/v1/configmaps/${NS}/flaky-cm`));
      assert.equal(cmHttp.status, 200);
      assert.equal(((await cmHttp.json()) as ConvergeReport).controllers[0]?.role, 'owner');

      // 3. A spec change the controller does not act on: the status is stale.
      await env.client.patch(
        Widget,
        { namespace: NS, name: 'flaky' },
        { metadata: { labels: { frozen: 'true' } }, spec: { size: 2 } },
        'merge',
      );
      const stale = await eventually(async () => {
        const r = await mgr.explain(Widget, { namespace: NS, name: 'flaky' });
        return r.object.generation === 2 && r.controllers[0]?.state?.phase === 'done' && r;
      });
      assert.equal(stale.converged, false);
      assert.equal(stale.object.statusUpToDate, false);
      assert.equal(stale.object.observedGeneration, 1);
      assert.deepEqual(stale.reasons, ['status is stale: observedGeneration 1 < generation 2']);
      assert.equal(stale.summary, 'not converged: Widget default/flaky — status is stale: observedGeneration 1 < generation 2');
      // An object the cache holds is explained without a single API request.
      const before = await apiRequests();
      assert.ok(before > 0, 'the manager counts its requests');
      for (let i = 0; i < 20; i++) await mgr.explain(Widget, { namespace: NS, name: 'flaky' });
      assert.equal(await apiRequests(), before);

      // 4. Deleting, held by a finalizer nobody removes.
      await env.client.create(Widget, widget('doomed', { finalizers: ['explain.converge.dev/hold'] }));
      await eventually(async () => (await mgr.explain(Widget, { namespace: NS, name: 'doomed' })).converged);
      await env.client.delete(Widget, { namespace: NS, name: 'doomed' });
      const deleting = await eventually(async () => {
        const r = await mgr.explain(Widget, { namespace: NS, name: 'doomed' });
        return r.object.deletionTimestamp !== undefined && r;
      });
      assert.equal(deleting.converged, false);
      assert.deepEqual(deleting.object.finalizers, ['explain.converge.dev/hold']);
      assert.match(
        deleting.summary,
        /^not converged: Widget default\/doomed — being deleted since \S+Z, waiting for finalizers: explain\.converge\.dev\/hold/,
      );

      // 5. An object that does not exist, read through the cache without finding it: nothing is pending for it.
      const missing = await mgr.explain(Widget, { namespace: NS, name: 'nope' });
      assert.equal(missing.object.exists, false);
      assert.equal(missing.converged, true);
      assert.equal(missing.summary, 'converged: Widget default/nope — the object does not exist (deleted, or never created)');

      // 6. The endpoint's refusals.
      const unknown = await fetch(url(`core/v1/pods/${NS}/x`));
      assert.equal(unknown.status, 404);
      assert.match(
        await unknown.text(),
        /^unknown kind core\/v1\/pods: this manager neither reconciles nor caches it \(known: core\/v1\/configmaps, explain\.converge\.dev\/v1\/widgets\)/,
      );
      const noNamespace = await fetch(url('explain.converge.dev/v1/widgets/flaky'));
      assert.equal(noNamespace.status, 404);
      assert.match(await noNamespace.text(), /Widget \(explain\.converge\.dev\/v1\/widgets\) is namespaced/);
      const short = await fetch(url('core/v1'));
      assert.equal(short.status, 404);
      assert.match(await short.text(), /^use \/debug\/converge\/<group>\/<version>\/<plural>/);
      assert.equal((await fetch(url(`core/v1/configmaps/${NS}/flaky-cm`), { method: 'POST' })).status, 405);
      // The probes still answer as before.
      assert.equal((await fetch(`${healthProbe}/healthz`)).status, 200);
    } finally {
      await mgr.shutdown();
    }
    await run;
  });
});
