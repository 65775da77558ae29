// Imports the manager's private explain helpers (duration format, path parsing) to unit-test them.
// `mgr.explain` without an API server: objects read through a fake client when the cache has no
// informer for the kind, how conditions, generations and read failures are reported, and the
// endpoint's path parsing and duration wording (those two from the manager's private sub-packages:
// they are how the endpoint works, not part of the layer's face).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError, type Client } from 'kube-converge/client';
import { controllerManagedBy } from 'kube-converge/controller';
import { createManager } from 'kube-converge/manager';
import { formatDuration } from '../../src/manager/explain/index.js';
import { parseExplainPath } from '../../src/manager/http/index.js';
import { ConfigMapResource, NamespaceResource, defineResource, noopLogger, type KubeObject } from 'kube-converge/meta';

const App = defineResource({ group: 'apps.example.dev', version: 'v1', kind: 'App', plural: 'apps', namespaced: true });

/** A client whose `get` answers with `answer`; any other call fails the test. */
function clientAnswering(answer: () => Promise<KubeObject>, calls: string[] = []): Client {
  return new Proxy(
    {},
    {
      get:
        (_t, verb) =>
        (...args: unknown[]) => {
          calls.push(String(verb));
          if (verb === 'get') return answer();
          return Promise.reject(new Error(`unexpected API call: ${String(verb)} ${JSON.stringify(args[1])}`));
        },
    },
  ) as Client;
}

const notFound = (): StatusError =>
  new StatusError({
    apiVersion: 'v1',
    kind: 'Status',
    status: 'Failure',
    code: 404,
    reason: 'NotFound',
    message: 'apps.apps.example.dev "x" not found',
  });

describe('Manager.explain', () => {
  it('reads an object through the API when the cache has no informer for its kind, Ready first among the conditions not True', async () => {
    const calls: string[] = [];
    const app = {
      apiVersion: App.apiVersion,
      kind: 'App',
      metadata: { name: 'shop', namespace: 'default', uid: 'u1', resourceVersion: '7', generation: 3 },
      status: {
        conditions: [
          { type: 'Progressing', status: 'Unknown', reason: 'Rollout' },
          { type: 'Available', status: 'True' },
          { type: 'Ready', status: 'False', reason: 'Pending', message: 'waiting for the database', observedGeneration: 3 },
        ],
      },
    };
    const mgr = await createManager({ client: clientAnswering(async () => app, calls), logger: noopLogger });
    controllerManagedBy(mgr)
      .for(App)
      .complete(async () => {});
    const r = await mgr.explain(App, { namespace: 'default', name: 'shop' });
    assert.deepEqual(calls, ['get']);
    assert.deepEqual(r.cache, { informer: 'none', holdsObject: false });
    assert.equal(r.object.source, 'api');
    assert.equal(r.object.ready, 'False');
    assert.equal(r.object.observedGeneration, 3, "the Ready condition's observedGeneration stands in for the status's");
    assert.equal(r.object.statusUpToDate, true);
    assert.deepEqual(
      r.object.conditionsNotTrue.map((c) => c.type),
      ['Ready', 'Progressing'],
    );
    assert.deepEqual(r.controllers, [
      { controller: 'app', role: 'for', kind: 'App', request: { namespace: 'default', name: 'shop' }, state: null },
    ]);
    assert.equal(r.converged, false);
    assert.equal(r.summary, 'not converged: App default/shop — Ready=False (Pending: waiting for the database)');
    assert.equal(JSON.parse(JSON.stringify(r)).summary, r.summary, 'the report is plain JSON');
  });

  it('calls an object the API server does not have converged: a deleted object has reached what its deletion asked for', async () => {
    const mgr = await createManager({ client: clientAnswering(() => Promise.reject(notFound())), logger: noopLogger });
    const r = await mgr.explain(App, { namespace: 'default', name: 'x' });
    assert.equal(r.object.exists, false);
    assert.equal(r.converged, true);
    assert.deepEqual(r.reasons, []);
    assert.equal(r.summary, 'converged: App default/x — the object does not exist (deleted, or never created)');
  });

  it('does not list healthy False conditions of the abnormal-true types, and lists them when True', async () => {
    const app = (degraded: string) => ({
      apiVersion: App.apiVersion,
      kind: 'App',
      metadata: { name: 'shop', namespace: 'default', generation: 2 },
      status: {
        observedGeneration: 2,
        conditions: [
          { type: 'Ready', status: 'True', reason: 'AllReplicasReady' },
          { type: 'Progressing', status: 'False', reason: 'RolloutComplete' },
          { type: 'Degraded', status: degraded, reason: degraded === 'True' ? 'ConfigMapNotFound' : 'AsExpected' },
          { type: 'Stalled', status: 'False' },
        ],
      },
    });
    let answer = app('False');
    const mgr = await createManager({ client: clientAnswering(async () => answer), logger: noopLogger });
    const healthy = await mgr.explain(App, { namespace: 'default', name: 'shop' });
    assert.deepEqual(healthy.object.conditionsNotTrue, []);
    assert.equal(healthy.converged, true);
    answer = app('True');
    const degraded = await mgr.explain(App, { namespace: 'default', name: 'shop' });
    assert.deepEqual(
      degraded.object.conditionsNotTrue.map((c) => `${c.type}=${c.status}`),
      ['Degraded=True'],
    );
  });

  it('reports a failed read as unknown existence with the reason, not as absence', async () => {
    const mgr = await createManager({ client: clientAnswering(() => Promise.reject(new Error('connection refused'))), logger: noopLogger });
    const r = await mgr.explain(App, { namespace: 'default', name: 'x' });
    assert.equal(r.object.exists, undefined);
    assert.equal(r.object.readError, 'connection refused');
    assert.deepEqual(r.reasons, ['the object could not be read: connection refused']);
  });

  it('names cluster-scoped objects without a namespace and calls an object with nothing pending converged', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', generation: 1 } };
    const mgr = await createManager({ client: clientAnswering(async () => ns), logger: noopLogger });
    const r = await mgr.explain(NamespaceResource, { namespace: 'ignored', name: 'team-a' });
    assert.equal(r.namespace, undefined);
    assert.equal(r.converged, true);
    assert.equal(r.summary, 'converged: Namespace team-a — nothing pending is known for it');
  });

  it('refuses a namespaced kind without a namespace, and an empty name', async () => {
    const mgr = await createManager({ client: clientAnswering(() => Promise.reject(new Error('no call expected'))), logger: noopLogger });
    await assert.rejects(mgr.explain(App, { name: 'shop' }), {
      code: 'CONVERGE_INVALID_OPTION',
      message: /App is namespaced: explain needs a namespace/,
    });
    await assert.rejects(mgr.explain(NamespaceResource, { name: '' }), { code: 'CONVERGE_INVALID_OPTION' });
  });

  it('lists the finalizers a deletion waits for', async () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        namespace: 'ns',
        deletionTimestamp: '2026-01-02T03:04:05Z',
        finalizers: ['a.example.dev/x', 'b.example.dev/y'],
      },
    };
    const mgr = await createManager({ client: clientAnswering(async () => cm), logger: noopLogger });
    const r = await mgr.explain(ConfigMapResource, { namespace: 'ns', name: 'c' });
    assert.deepEqual(r.object.finalizers, ['a.example.dev/x', 'b.example.dev/y']);
    assert.equal(
      r.summary,
      'not converged: ConfigMap ns/c — being deleted since 2026-01-02T03:04:05Z, waiting for finalizers: a.example.dev/x, b.example.dev/y',
    );
  });
});

describe('the /debug/converge path', () => {
  it('parses namespaced and cluster-scoped paths, the core group and percent-encoding', () => {
    assert.deepEqual(parseExplainPath('/debug/converge/core/v1/configmaps/default/my%20cm'), {
      group: '',
      version: 'v1',
      plural: 'configmaps',
      rest: ['default', 'my cm'],
    });
    assert.deepEqual(parseExplainPath('/debug/converge/apps.example.dev/v1/apps/x/'), {
      group: 'apps.example.dev',
      version: 'v1',
      plural: 'apps',
      rest: ['x'],
    });
  });

  it('refuses paths with too few or too many parts, empty parts or bad encoding', () => {
    for (const p of [
      '/debug/converge/core/v1/pods',
      '/debug/converge/core/v1/pods/a/b/c',
      '/debug/converge/core//pods/a',
      '/debug/converge/core/v1/pods/%E0%A4%A',
    ]) {
      assert.ok('error' in parseExplainPath(p), p);
    }
  });
});

describe('formatDuration', () => {
  it('words a duration as a person reads it', () => {
    assert.deepEqual([80, 999.6, 2100, 59_949, 210_000, 7_200_000, -80].map(formatDuration), [
      '80 ms',
      '1.0 s',
      '2.1 s',
      '59.9 s',
      '3.5 min',
      '2.0 h',
      '-80 ms',
    ]);
  });
});
