// The namespace controller's conditions on a terminating namespace, as kube-controller-manager writes
// them: all five types, False with their success reasons, except NamespaceContentRemaining and
// NamespaceFinalizersRemaining while objects with finalizers hold the namespace, counted per resource
// and per finalizer; updated as what remains changes, transition times kept unless a status flips.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson } from './helpers.js';
import { namespaceDeletionConditions } from '../../src/apiserver/controllers/namespace-conditions.js';

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

const conditionsOf = async (api: ApiServer, ns: string): Promise<Condition[]> =>
  (await handleJson(api, 'GET', `/api/v1/namespaces/${ns}`)).body.status.conditions;

const ok = {
  NamespaceDeletionDiscoveryFailure: ['False', 'ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  NamespaceDeletionContentFailure: ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  NamespaceContentRemaining: ['False', 'ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
};
const summary = (cs: Condition[]) => Object.fromEntries(cs.map((c) => [c.type, [c.status, c.reason, c.message]]));

async function create(api: ApiServer, path: string, body: unknown): Promise<any> {
  const r = await handleJson(api, 'POST', path, body);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

async function dropFinalizers(api: ApiServer, path: string): Promise<void> {
  const r = await handleJson(api, 'PATCH', path, { metadata: { finalizers: null } }, 'application/merge-patch+json');
  assert.equal(r.status, 200, r.text);
}

describe('namespace deletion conditions', () => {
  it('reports the resources and finalizers that hold a terminating namespace, then their removal', async () => {
    const api = createApiServer();
    // The namespace's own finalizer keeps it after its content is gone, so the last conditions can be read.
    await create(api, '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'tmp', finalizers: ['example.com/keep'] },
    });
    const base = '/api/v1/namespaces/tmp';
    await create(api, `${base}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'free' } });
    await create(api, `${base}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', finalizers: ['example.com/f'] },
    });
    await create(api, `${base}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', finalizers: ['example.com/f', 'example.com/g'] },
    });
    await create(api, '/apis/coordination.k8s.io/v1/namespaces/tmp/leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', finalizers: ['example.com/g'] },
      spec: {},
    });

    const deleted = await handleJson(api, 'DELETE', base);
    assert.equal(deleted.status, 200);
    const first = await conditionsOf(api, 'tmp');
    assert.deepEqual(
      first.map((c) => c.type),
      Object.keys(ok),
      'all five, in the controller’s order',
    );
    assert.deepEqual(summary(first), {
      ...ok,
      NamespaceContentRemaining: [
        'True',
        'SomeResourcesRemain',
        'Some resources are remaining: configmaps. has 1 resource instances, leases.coordination.k8s.io has 1 resource instances, secrets. has 1 resource instances',
      ],
      NamespaceFinalizersRemaining: [
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/f in 2 resource instances, example.com/g in 2 resource instances',
      ],
    });

    await dropFinalizers(api, `${base}/secrets/s`);
    await dropFinalizers(api, '/apis/coordination.k8s.io/v1/namespaces/tmp/leases/l');
    const second = await conditionsOf(api, 'tmp');
    assert.deepEqual(summary(second), {
      ...ok,
      NamespaceContentRemaining: ['True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances'],
      NamespaceFinalizersRemaining: [
        'True',
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/f in 1 resource instances',
      ],
    });

    await dropFinalizers(api, `${base}/configmaps/held`);
    const last = await handleJson(api, 'GET', base);
    assert.equal(last.status, 200, 'kept by its own finalizer');
    assert.deepEqual(last.body.spec.finalizers, [], 'the kubernetes finalizer is cleared once the content is gone');
    assert.equal(last.body.status.phase, 'Terminating');
    assert.deepEqual(summary(last.body.status.conditions), ok);
  });

  it('keeps a condition’s transition time unless its status flips, and writes nothing when nothing changed', () => {
    const totals = (resources: [string, number][], finalizers: [string, number][]) => ({
      resources: new Map(resources),
      finalizers: new Map(finalizers),
    });
    const first = namespaceDeletionConditions([{ type: 'Other', status: 'True' }], totals([['pods.', 2]], [['a/b', 2]]), 't1')!;
    assert.equal(first[0]?.type, 'Other', 'other types are kept');
    assert.equal(first.length, 6);
    assert.equal(namespaceDeletionConditions(first, totals([['pods.', 2]], [['a/b', 2]]), 't2'), undefined);
    const fewer = namespaceDeletionConditions(first, totals([['pods.', 1]], []), 't2')!;
    const byType = (cs: typeof fewer, type: string) => cs.find((c) => c.type === type)!;
    assert.equal(byType(fewer, 'NamespaceContentRemaining').message, 'Some resources are remaining: pods. has 1 resource instances');
    assert.equal(byType(fewer, 'NamespaceContentRemaining').lastTransitionTime, 't1', 'still True: the time stays');
    assert.equal(byType(fewer, 'NamespaceFinalizersRemaining').status, 'False');
    assert.equal(byType(fewer, 'NamespaceFinalizersRemaining').lastTransitionTime, 't2', 'flipped to False');
    assert.equal(byType(fewer, 'NamespaceDeletionDiscoveryFailure').lastTransitionTime, 't1');
  });
});
