// Event handlers: which requests each one enqueues for create, update, delete and generic events, and
// at what priority.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  enqueueRequestForObject,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  funcs,
  LOW_PRIORITY,
  type Request,
} from 'kube-converge/controller';
import { defineResource, FakeClock, InvalidOptionError, NamespaceResource } from 'kube-converge/meta';
import { PriorityQueue } from 'kube-converge/workqueue';
import type { KubeObject, OwnerReference } from 'kube-converge/meta';
import { RecordingQueue } from './recording-queue.js';

const WebApp = defineResource({ group: 'platform.converge.dev', version: 'v1alpha1', kind: 'WebApp', plural: 'webapps', namespaced: true });
const obj = (name: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  metadata: { namespace: 'ns', name, resourceVersion: '1', ...meta },
});
const ref = (name: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'platform.converge.dev/v1alpha1',
  kind: 'WebApp',
  name,
  uid: `uid-${name}`,
  ...extra,
});
const L = LOW_PRIORITY;

describe('enqueueRequestForObject', () => {
  it('enqueues the object itself for every event type', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestForObject();
    h.create({ object: obj('a'), isInInitialList: false }, q);
    h.update({ objectOld: obj('a'), objectNew: obj('a', { resourceVersion: '2' }) }, q);
    h.delete({ object: obj('a'), deleteStateUnknown: true }, q);
    h.generic({ object: { metadata: { name: 'cluster-wide' } } }, q);
    assert.deepEqual(q.keys(), ['ns/a', 'ns/a', 'ns/a', 'cluster-wide']);
  });

  it('uses low priority for initial-list creates and unchanged-resourceVersion updates only', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestForObject();
    h.create({ object: obj('a'), isInInitialList: true }, q);
    h.update({ objectOld: obj('b'), objectNew: obj('b') }, q);
    h.delete({ object: obj('c'), deleteStateUnknown: false }, q);
    h.generic({ object: obj('d') }, q);
    assert.deepEqual(q.keys(), [`ns/a@${L}`, `ns/b@${L}`, 'ns/c', 'ns/d']);
  });

  it('enqueues the new object on update', () => {
    const q = new RecordingQueue();
    enqueueRequestForObject().update({ objectOld: obj('old'), objectNew: obj('new', { resourceVersion: '9' }) }, q);
    assert.deepEqual(q.keys(), ['ns/new']);
  });
});

describe('enqueueRequestForOwner', () => {
  it('enqueues only the controller owner of the owner kind by default, ignoring the reference version', () => {
    const q = new RecordingQueue();
    const child = obj('child', {
      ownerReferences: [
        ref('plain-owner'),
        ref('ctrl', { controller: true, apiVersion: 'platform.converge.dev/v1' }),
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'other-kind', uid: 'u', controller: true },
        { apiVersion: 'other.group/v1alpha1', kind: 'WebApp', name: 'other-group', uid: 'u2', controller: true },
      ],
    });
    enqueueRequestForOwner(WebApp).create({ object: child, isInInitialList: false }, q);
    assert.deepEqual(q.keys(), ['ns/ctrl']);
  });

  it('enqueues every owner of the kind with onlyController: false', () => {
    const q = new RecordingQueue();
    const child = obj('child', { ownerReferences: [ref('x'), ref('y', { controller: true })] });
    enqueueRequestForOwner(WebApp, { onlyController: false }).delete({ object: child, deleteStateUnknown: false }, q);
    assert.deepEqual(q.keys(), ['ns/x', 'ns/y']);
  });

  it('on update enqueues the owners of both old and new, once each, so a change of owner reconciles both', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestForOwner(WebApp, { onlyController: false });
    h.update(
      {
        objectOld: obj('c', { ownerReferences: [ref('before'), ref('both')] }),
        objectNew: obj('c', { resourceVersion: '2', ownerReferences: [ref('both'), ref('after')] }),
      },
      q,
    );
    assert.deepEqual(q.keys(), ['ns/before', 'ns/both', 'ns/after']);
  });

  it('gives cluster-scoped owners requests without a namespace', () => {
    const q = new RecordingQueue();
    const child = obj('c', { ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'team-a', uid: 'u', controller: true }] });
    enqueueRequestForOwner(NamespaceResource).generic({ object: child }, q);
    assert.deepEqual(
      q.adds.map((a) => a.req),
      [{ name: 'team-a' }],
    );
  });

  it('uses low priority for initial-list creates and resync updates', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestForOwner(WebApp);
    const child = obj('c', { ownerReferences: [ref('o', { controller: true })] });
    h.create({ object: child, isInInitialList: true }, q);
    h.update({ objectOld: child, objectNew: child }, q);
    h.update({ objectOld: child, objectNew: { ...child, metadata: { ...child.metadata, resourceVersion: '2' } } }, q);
    assert.deepEqual(q.keys(), [`ns/o@${L}`, `ns/o@${L}`, 'ns/o']);
  });

  it('throws on a malformed apiVersion in a reference of the owner kind (the source logs and drops the event)', () => {
    const q = new RecordingQueue();
    const child = obj('c', { ownerReferences: [{ apiVersion: 'a/b/c', kind: 'WebApp', name: 'o', uid: 'u', controller: true }] });
    assert.throws(() => enqueueRequestForOwner(WebApp).generic({ object: child }, q));
  });
});

describe('enqueueRequestsFromMapFunc', () => {
  it('enqueues what the map function returns', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestsFromMapFunc((o) => [
      { namespace: 'ns', name: `${o.metadata.name}-1` },
      { namespace: 'ns', name: `${o.metadata.name}-2` },
    ]);
    h.delete({ object: obj('s'), deleteStateUnknown: false }, q);
    assert.deepEqual(q.keys(), ['ns/s-1', 'ns/s-2']);
  });

  it('enqueues the union of the requests of old and new on update, without duplicates', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestsFromMapFunc((o) =>
      (o.metadata.labels?.['refs'] ?? '')
        .split(',')
        .filter(Boolean)
        .map((name) => ({ namespace: 'ns', name })),
    );
    h.update(
      { objectOld: obj('s', { labels: { refs: 'a,b' } }), objectNew: obj('s', { resourceVersion: '2', labels: { refs: 'b,c' } }) },
      q,
    );
    assert.deepEqual(q.keys(), ['ns/a', 'ns/b', 'ns/c']);
  });

  it('uses low priority for initial-list creates per mapped request', () => {
    const q = new RecordingQueue();
    enqueueRequestsFromMapFunc(() => [{ name: 'x' }, { name: 'y' }]).create({ object: obj('s'), isInInitialList: true }, q);
    assert.deepEqual(q.keys(), [`x@${L}`, `y@${L}`]);
  });
});

describe('enqueueRequestsFromMapFunc with delayMs', () => {
  const refs = (): { namespace: string; name: string }[] => [
    { namespace: 'ns', name: 'a' },
    { namespace: 'ns', name: 'b' },
  ];
  const update = (rv: number): { objectOld: KubeObject; objectNew: KubeObject } => ({
    objectOld: obj('shared', { resourceVersion: String(rv - 1) }),
    objectNew: obj('shared', { resourceVersion: String(rv) }),
  });

  it('queues each mapped request after the delay, keeping the event priority', () => {
    const q = new RecordingQueue();
    const h = enqueueRequestsFromMapFunc(refs, { delayMs: 500 });
    h.update(update(2), q);
    h.create({ object: obj('shared'), isInInitialList: true }, q);
    assert.deepEqual(
      q.adds.map((a) => [a.req.name, a.opts]),
      [
        ['a', { after: 500 }],
        ['b', { after: 500 }],
        ['a', { after: 500, priority: L }],
        ['b', { after: 500, priority: L }],
      ],
    );
  });

  it('collapses a burst of 200 updates of one referenced object into one queued request per referrer, due after the delay', async () => {
    const clock = new FakeClock();
    const q = new PriorityQueue<Request>({ clock });
    const h = enqueueRequestsFromMapFunc(refs, { delayMs: 500 });
    for (let rv = 2; rv <= 201; rv++) {
      h.update(update(rv), q);
      await clock.advance(1);
    }
    assert.equal(q.len(), 0, 'nothing is due before the delay has passed since the first update');
    await clock.advance(500);
    assert.equal(q.len(), 2);
    const first = await q.get();
    const second = await q.get();
    assert.deepEqual([first.item?.name, second.item?.name].sort(), ['a', 'b']);
    q.shutDown();
  });

  it('refuses a negative or non-finite delay', () => {
    assert.throws(() => enqueueRequestsFromMapFunc(refs, { delayMs: -1 }), InvalidOptionError);
    assert.throws(() => enqueueRequestsFromMapFunc(refs, { delayMs: Number.NaN }), InvalidOptionError);
  });
});

describe('funcs', () => {
  it('ignores events it has no function for', () => {
    const q = new RecordingQueue();
    const h = funcs({});
    h.create({ object: obj('a'), isInInitialList: false }, q);
    h.delete({ object: obj('a'), deleteStateUnknown: false }, q);
    assert.equal(q.adds.length, 0);
  });

  it('gives create and update adds a default low priority unless the function chooses one', () => {
    const q = new RecordingQueue();
    const h = funcs({
      create: (_e, queue) => {
        queue.add({ namespace: 'ns', name: 'plain' });
        queue.addAfter({ namespace: 'ns', name: 'later' }, 50);
        queue.addWithOpts({ priority: 7 }, { namespace: 'ns', name: 'chosen' });
      },
      update: (e, queue) => queue.addRateLimited({ namespace: 'ns', name: e.objectNew.metadata.name! }),
      delete: (_e, queue) => queue.add({ namespace: 'ns', name: 'deleted' }),
    });
    h.create({ object: obj('a'), isInInitialList: true }, q);
    h.update({ objectOld: obj('u'), objectNew: obj('u') }, q);
    h.update({ objectOld: obj('v'), objectNew: obj('v', { resourceVersion: '2' }) }, q);
    h.delete({ object: obj('d'), deleteStateUnknown: false }, q);
    assert.deepEqual(q.adds, [
      { req: { namespace: 'ns', name: 'plain' }, opts: { priority: L } },
      { req: { namespace: 'ns', name: 'later' }, opts: { after: 50, priority: L } },
      { req: { namespace: 'ns', name: 'chosen' }, opts: { priority: 7 } },
      { req: { namespace: 'ns', name: 'u' }, opts: { rateLimited: true, priority: L } },
      { req: { namespace: 'ns', name: 'v' }, opts: { rateLimited: true } },
      { req: { namespace: 'ns', name: 'deleted' }, opts: {} },
    ]);
  });
});
