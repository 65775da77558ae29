// @kubernetes/client-node's makeInformer against `converge apiserver` run as a process: add, update and delete events
// for ConfigMaps of one namespace, an object that existed before the informer started arriving as an add, and the
// informer's cache (list, get) holding exactly what the server holds after each event.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADD, DELETE, ERROR, UPDATE, makeInformer, type Informer, type ObjectCache, type V1ConfigMap } from '@kubernetes/client-node';
import { EventQueue, startClientNodeEnv, type ClientNodeEnv } from './harness.js';

describe('client-node makeInformer against converge apiserver', () => {
  let env: ClientNodeEnv;
  let informer: Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;
  const events = new EventQueue<[string, string | undefined, Record<string, string> | undefined]>();
  const errors: unknown[] = [];

  before(async () => {
    env = await startClientNodeEnv('client-node-informer');
    const { core, namespace } = env;
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'before' }, data: { v: '0' } } });
    informer = makeInformer(env.kc, `/api/v1/namespaces/${namespace}/configmaps`, () => core.listNamespacedConfigMap({ namespace }));
    for (const verb of [ADD, UPDATE, DELETE] as const) informer.on(verb, (cm) => events.push([verb, cm.metadata?.name, cm.data]));
    informer.on(ERROR, (err) => errors.push(err));
    await informer.start();
  });
  after(async () => {
    if (informer !== undefined) await informer.stop();
    if (env !== undefined) await env.server.stop();
  });

  const cached = () =>
    informer
      .list(env.namespace)
      .map((cm) => [cm.metadata?.name, cm.data])
      .sort();

  it('adds the objects that existed before it started to its cache', async () => {
    assert.deepEqual(await events.next(), [ADD, 'before', { v: '0' }]);
    assert.deepEqual(cached(), [['before', { v: '0' }]]);
  });

  it('sees a create as add, an update as update and a delete as delete, its cache following each', async () => {
    const { core, namespace } = env;
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'app' }, data: { v: '1' } } });
    assert.deepEqual(await events.next(), [ADD, 'app', { v: '1' }]);
    assert.deepEqual(cached(), [
      ['app', { v: '1' }],
      ['before', { v: '0' }],
    ]);

    const current = await core.readNamespacedConfigMap({ name: 'app', namespace });
    const updated = await core.replaceNamespacedConfigMap({ name: 'app', namespace, body: { ...current, data: { v: '2' } } });
    assert.deepEqual(await events.next(), [UPDATE, 'app', { v: '2' }]);
    assert.equal(informer.get('app', namespace)?.metadata?.resourceVersion, updated.metadata?.resourceVersion);
    assert.deepEqual(cached(), [
      ['app', { v: '2' }],
      ['before', { v: '0' }],
    ]);

    await core.deleteNamespacedConfigMap({ name: 'app', namespace });
    assert.deepEqual(await events.next(), [DELETE, 'app', { v: '2' }]);
    assert.equal(informer.get('app', namespace), undefined);
    assert.deepEqual(cached(), [['before', { v: '0' }]]);
    assert.deepEqual(errors, []);
  });
});
