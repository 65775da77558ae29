// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// CRD conversion in the local API server, one test per rule: `strategy: None` on every path (only
// apiVersion rewritten), `strategy: Webhook` on every path (get, list in one review, watch, create,
// update, patch, apply, status, scale, deletecollection), the webhook's answer checked, a webhook
// that is down or too slow (conversion has no failurePolicy: a failure is an error), and
// `status.storedVersions`.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { servingMaterial, type ServingMaterial } from '../../src/apiserver/internal.js';
import { FakeClock, type KubeObject } from 'kube-converge/meta';
import { handleJson } from './helpers.js';

interface Review {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}
type Answer = (r: Review) => unknown | Promise<unknown>;

/** One HTTPS conversion webhook for the suite; each test sets what it answers and reads what it was sent. */
let material: ServingMaterial;
let caBundle: string;
let server: Server;
let url: string;
let answer: Answer;
const reviews: Review[] = [];

const GROUP = 'conv.test.dev';
const BASE = `/apis/${GROUP}`;
const path = (version: string, name = ''): string => `${BASE}/${version}/namespaces/default/shelves${name ? `/${name}` : ''}`;

/** `v1alpha1` says `size`, `v1` (the storage version) says `capacity`; the webhook moves one to the other. */
function convert(obj: KubeObject, to: string): KubeObject {
  const spec = { ...(obj.spec as Record<string, unknown>) };
  const status = obj.status as Record<string, unknown> | undefined;
  if (to === `${GROUP}/v1` && 'size' in spec) {
    spec.capacity = spec.size;
    delete spec.size;
  }
  if (to === `${GROUP}/v1alpha1` && 'capacity' in spec) {
    spec.size = spec.capacity;
    delete spec.capacity;
  }
  return { ...obj, apiVersion: to, spec, ...(status ? { status } : {}) };
}
const converting: Answer = (r) => ({
  uid: r.uid,
  result: { status: 'Success' },
  convertedObjects: r.objects.map((o) => convert(o, r.desiredAPIVersion)),
});

const version = (name: string, field: string, storage: boolean) => ({
  name,
  served: true,
  storage,
  subresources: { status: {}, scale: { specReplicasPath: `.spec.${field}`, statusReplicasPath: '.status.ready' } },
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { [field]: { type: 'integer' }, color: { type: 'string' } } },
        status: { type: 'object', properties: { ready: { type: 'integer' } } },
      },
    },
  },
});

function crd(strategy: 'None' | 'Webhook', conversion: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `shelves.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'shelves', singular: 'shelf', kind: 'Shelf' },
      versions:
        strategy === 'None'
          ? [version('v1alpha1', 'capacity', false), version('v1', 'capacity', true)]
          : [version('v1alpha1', 'size', false), version('v1', 'capacity', true)],
      conversion: (strategy === 'None'
        ? { strategy }
        : {
            strategy,
            webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${url}/convert`, caBundle } },
            ...conversion,
          }) as Record<string, unknown>,
    },
  };
}

async function serverWith(strategy: 'None' | 'Webhook', opts: { clock?: FakeClock } = {}): Promise<ApiServer> {
  const api = createApiServer(opts.clock ? { clock: opts.clock } : {});
  const r = await handleJson(api, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(strategy));
  assert.equal(r.status, 201, r.text);
  answer = converting;
  reviews.length = 0;
  return api;
}

const shelf = (v: string, name: string, spec: Record<string, unknown>) => ({
  apiVersion: `${GROUP}/${v}`,
  kind: 'Shelf',
  metadata: { name, namespace: 'default' },
  spec,
});

/** The stream of a watch response, line by line, as an adapter would read it. */
function readWatch(api: ApiServer, p: string): Promise<{ lines: unknown[]; ended: Promise<void>; close(): void }> {
  return api.handle({ method: 'GET', path: p, headers: { accept: 'application/json' } }).then((res) => {
    const lines: unknown[] = [];
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    res.stream!.attach({
      write(chunk) {
        for (const l of chunk.split('\n')) if (l.trim()) lines.push(JSON.parse(l));
        return true;
      },
      end,
    });
    return { lines, ended, close: () => res.stream!.detach() };
  });
}

async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(pred(), 'condition not reached');
}

const body = (r: { body: unknown }) => r.body as KubeObject & { spec: Record<string, unknown>; items?: KubeObject[] };

before(async () => {
  material = await servingMaterial('127.0.0.1');
  caBundle = Buffer.from(material.caPem).toString('base64');
  server = createServer({ cert: material.cert, key: material.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: Review }).request;
      reviews.push(review);
      void Promise.resolve(answer(review)).then((response) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('CRD conversion: strategy None', () => {
  it('None: an object written through one version is served by every version with only apiVersion rewritten, managedFields naming the version written', async () => {
    const api = await serverWith('None');
    const created = await handleJson(api, 'POST', path('v1alpha1'), shelf('v1alpha1', 'a', { capacity: 3 }));
    assert.equal(created.status, 201, created.text);
    assert.equal(body(created).apiVersion, `${GROUP}/v1alpha1`);
    for (const v of ['v1', 'v1alpha1']) {
      const got = body(await handleJson(api, 'GET', path(v, 'a')));
      assert.equal(got.apiVersion, `${GROUP}/${v}`);
      assert.deepEqual(got.spec, { capacity: 3 });
      assert.equal(got.metadata.managedFields?.[0]?.apiVersion, `${GROUP}/v1alpha1`);
      const list = body(await handleJson(api, 'GET', path(v)));
      assert.equal(list.apiVersion, `${GROUP}/${v}`);
      assert.deepEqual(
        list.items!.map((i) => i.apiVersion),
        [`${GROUP}/${v}`],
      );
    }
    assert.deepEqual(reviews, [], 'None calls no webhook');
  });

  it('None: watch, patch, status, scale and deletecollection each answer in the version asked for', async () => {
    const api = await serverWith('None');
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    const w = await readWatch(api, `${path('v1alpha1')}?watch=true`);
    const patched = await handleJson(api, 'PATCH', path('v1alpha1', 'a'), { spec: { color: 'red' } }, 'application/merge-patch+json');
    assert.equal(body(patched).apiVersion, `${GROUP}/v1alpha1`);
    const status = await handleJson(api, 'PATCH', `${path('v1', 'a')}/status`, { status: { ready: 1 } }, 'application/merge-patch+json');
    assert.equal(body(status).apiVersion, `${GROUP}/v1`);
    const scale = await handleJson(api, 'GET', `${path('v1alpha1', 'a')}/scale`);
    assert.deepEqual((scale.body as { spec: unknown }).spec, { replicas: 1 });
    await until(() => w.lines.length >= 3);
    assert.deepEqual(
      w.lines.map((l) => (l as { object: KubeObject }).object.apiVersion),
      [`${GROUP}/v1alpha1`, `${GROUP}/v1alpha1`, `${GROUP}/v1alpha1`],
    );
    w.close();
    const deleted = body(await handleJson(api, 'DELETE', path('v1alpha1')));
    assert.deepEqual(
      deleted.items!.map((i) => i.apiVersion),
      [`${GROUP}/v1alpha1`],
    );
  });
});

describe('CRD conversion: strategy Webhook', () => {
  it('Webhook: a create through another version is converted to the storage version before it is stored, and back for the response', async () => {
    const api = await serverWith('Webhook');
    const created = await handleJson(api, 'POST', path('v1alpha1'), shelf('v1alpha1', 'a', { size: 3 }));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(body(created).spec, { size: 3 });
    assert.deepEqual(
      reviews.map((r) => r.desiredAPIVersion),
      [`${GROUP}/v1`, `${GROUP}/v1alpha1`],
    );
    reviews.length = 0;
    const stored = body(await handleJson(api, 'GET', path('v1', 'a')));
    assert.deepEqual(stored.spec, { capacity: 3 });
    assert.equal(reviews.length, 0, 'the storage version is served without a call');
    const old = body(await handleJson(api, 'GET', path('v1alpha1', 'a')));
    assert.deepEqual(old.spec, { size: 3 });
    assert.equal(old.metadata.uid, stored.metadata.uid);
    assert.equal(reviews.length, 1);
  });

  it('Webhook: a list is converted in one review holding every item', async () => {
    const api = await serverWith('Webhook');
    for (const n of ['a', 'b', 'c']) await handleJson(api, 'POST', path('v1'), shelf('v1', n, { capacity: 1 }));
    reviews.length = 0;
    const list = body(await handleJson(api, 'GET', path('v1alpha1')));
    assert.deepEqual(
      list.items!.map((i) => (i.spec as { size: number }).size),
      [1, 1, 1],
    );
    assert.equal(reviews.length, 1);
    assert.equal(reviews[0]!.objects.length, 3);
  });

  it('Webhook: every watch event is converted, and a failing conversion ends the watch with an ERROR event', async () => {
    const api = await serverWith('Webhook');
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    const w = await readWatch(api, `${path('v1alpha1')}?watch=true`);
    await handleJson(api, 'PATCH', path('v1', 'a'), { spec: { capacity: 2 } }, 'application/merge-patch+json');
    await until(() => w.lines.length >= 2);
    assert.deepEqual(
      w.lines.map((l) => [(l as { type: string }).type, ((l as { object: KubeObject }).object.spec as { size: number }).size]),
      [
        ['ADDED', 1],
        ['MODIFIED', 2],
      ],
    );
    answer = (r) => ({ uid: r.uid, result: { status: 'Failure', message: 'size is out of range' }, convertedObjects: [] });
    await handleJson(api, 'PATCH', path('v1', 'a'), { spec: { capacity: 3 } }, 'application/merge-patch+json');
    await w.ended;
    const last = w.lines.at(-1) as { type: string; object: { code: number; message: string } };
    assert.equal(last.type, 'ERROR');
    assert.equal(last.object.code, 500);
    assert.equal(
      last.object.message,
      `Internal error occurred: conversion webhook for ${GROUP}/v1, Kind=Shelf failed: size is out of range`,
    );
  });

  it('Webhook: update, patch, apply, status and scale read the stored object converted to their version and store their result converted back', async () => {
    const api = await serverWith('Webhook');
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    const got = body(await handleJson(api, 'GET', path('v1alpha1', 'a')));
    const put = await handleJson(api, 'PUT', path('v1alpha1', 'a'), { ...got, spec: { size: 2 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(body(put).spec, { size: 2 });
    const patched = await handleJson(api, 'PATCH', path('v1alpha1', 'a'), { spec: { color: 'red' } }, 'application/merge-patch+json');
    assert.deepEqual(body(patched).spec, { size: 2, color: 'red' });
    const applied = await handleJson(
      api,
      'PATCH',
      `${path('v1alpha1', 'a')}?fieldManager=tester&force=true`,
      { apiVersion: `${GROUP}/v1alpha1`, kind: 'Shelf', metadata: { name: 'a', namespace: 'default' }, spec: { size: 4 } },
      'application/apply-patch+yaml',
    );
    assert.equal(applied.status, 200, applied.text);
    assert.equal(body(applied).spec.size, 4);
    const applyEntry = body(applied).metadata.managedFields?.find((f) => f.manager === 'tester');
    assert.equal(applyEntry?.apiVersion, `${GROUP}/v1alpha1`, 'managedFields name the version the manager wrote in');
    const status = await handleJson(
      api,
      'PATCH',
      `${path('v1alpha1', 'a')}/status`,
      { status: { ready: 4 } },
      'application/merge-patch+json',
    );
    assert.equal(status.status, 200, status.text);
    const scale = await handleJson(
      api,
      'PATCH',
      `${path('v1alpha1', 'a')}/scale`,
      { spec: { replicas: 5 } },
      'application/merge-patch+json',
    );
    assert.deepEqual((scale.body as { spec: unknown; status: unknown }).spec, { replicas: 5 });
    assert.deepEqual((scale.body as { status: unknown }).status, { replicas: 4 });
    const stored = body(await handleJson(api, 'GET', path('v1', 'a')));
    assert.deepEqual(stored.spec, { capacity: 5, color: 'red' });
    assert.deepEqual(stored.status, { ready: 4 });
  });

  it("Webhook: a Table in another version prints that version's columns from the converted objects", async () => {
    const api = await serverWith('Webhook');
    const current = body(await handleJson(api, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shelves.${GROUP}`));
    const spec = current.spec as { versions: Record<string, unknown>[] };
    spec.versions[0]!.additionalPrinterColumns = [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }];
    spec.versions[1]!.additionalPrinterColumns = [{ name: 'Capacity', type: 'integer', jsonPath: '.spec.capacity' }];
    assert.equal(
      (await handleJson(api, 'PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shelves.${GROUP}`, current)).status,
      200,
    );
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 6 }));
    const table = async (v: string) => {
      const r = await api.handle({ method: 'GET', path: path(v), headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
      return JSON.parse(r.body) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    };
    const old = await table('v1alpha1');
    assert.deepEqual(
      old.columnDefinitions.map((c) => c.name),
      ['Name', 'Size'],
    );
    assert.equal(old.rows[0]!.cells[1], 6);
    const now = await table('v1');
    assert.deepEqual(
      now.columnDefinitions.map((c) => c.name),
      ['Name', 'Capacity'],
    );
    assert.equal(now.rows[0]!.cells[1], 6);
  });

  it('Webhook: deletecollection answers the deleted objects converted in one review', async () => {
    const api = await serverWith('Webhook');
    for (const n of ['a', 'b']) await handleJson(api, 'POST', path('v1'), shelf('v1', n, { capacity: 7 }));
    reviews.length = 0;
    const deleted = body(await handleJson(api, 'DELETE', path('v1alpha1')));
    assert.deepEqual(
      deleted.items!.map((i) => (i.spec as { size: number }).size),
      [7, 7],
    );
    assert.equal(reviews.length, 1);
  });

  it('Webhook: a webhook that is down fails a read with a 500 carrying the conversion error, and refuses a write, storing nothing', async () => {
    const api = await serverWith('Webhook');
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    const down = {
      ...crd('Webhook').spec.conversion,
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/convert', caBundle } },
    };
    const current = body(await handleJson(api, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shelves.${GROUP}`));
    const updated = await handleJson(api, 'PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shelves.${GROUP}`, {
      ...current,
      spec: { ...current.spec, conversion: down },
    });
    assert.equal(updated.status, 200, updated.text);
    const read = await handleJson(api, 'GET', path('v1alpha1', 'a'));
    assert.equal(read.status, 500);
    const status = read.body as { reason?: string; message: string };
    assert.equal(status.reason, undefined);
    assert.match(status.message, new RegExp(`^conversion webhook for ${GROUP}/v1, Kind=Shelf failed: `));
    const write = await handleJson(api, 'POST', path('v1alpha1'), shelf('v1alpha1', 'b', { size: 1 }));
    assert.equal(write.status, 500);
    assert.match((write.body as { message: string }).message, new RegExp(`^conversion webhook for ${GROUP}/v1alpha1, Kind=Shelf failed: `));
    assert.equal((await handleJson(api, 'GET', path('v1', 'b'))).status, 404);
  });

  it("Webhook: a webhook that does not answer within 30 s fails the conversion, measured on the server's clock", async () => {
    const clock = new FakeClock();
    const api = await serverWith('Webhook', { clock });
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    let release!: () => void;
    answer = (r) => new Promise((resolve) => (release = () => resolve(converting(r))));
    const pending = handleJson(api, 'GET', path('v1alpha1', 'a'));
    await until(() => reviews.length === 1);
    await clock.advance(30_000);
    const r = await pending;
    release();
    assert.equal(r.status, 500);
    assert.match((r.body as { message: string }).message, /failed: context deadline exceeded/);
  });

  it("Webhook: the webhook's answer is checked (result, uid, count, apiVersion), and of the metadata only labels and annotations are taken from it", async () => {
    const api = await serverWith('Webhook');
    await handleJson(api, 'POST', path('v1'), shelf('v1', 'a', { capacity: 1 }));
    const cases: [Answer, RegExp][] = [
      [(r) => ({ uid: r.uid, result: { status: 'Failure', message: 'no' } }), /failed: no$/],
      [(r) => ({ ...(converting(r) as object), uid: 'other' }), /failed: expected response\.uid=".*", got "other"$/],
      [(r) => ({ uid: r.uid, result: { status: 'Success' }, convertedObjects: [] }), /returned 0 objects, expected 1$/],
      [
        (r) => ({ uid: r.uid, result: { status: 'Success' }, convertedObjects: r.objects }),
        /returned invalid converted object at index 0: invalid apiVersion/,
      ],
    ];
    for (const [a, message] of cases) {
      answer = a;
      const r = await handleJson(api, 'GET', path('v1alpha1', 'a'));
      assert.equal(r.status, 500);
      assert.match((r.body as { message: string }).message, message);
    }
    answer = (r) => ({
      uid: r.uid,
      result: { status: 'Success' },
      convertedObjects: r.objects.map((o) => {
        const c = convert(o, r.desiredAPIVersion);
        return { ...c, metadata: { ...c.metadata, name: 'renamed', labels: { converted: 'yes' } } };
      }),
    });
    const got = body(await handleJson(api, 'GET', path('v1alpha1', 'a')));
    assert.equal(got.metadata.name, 'a');
    assert.deepEqual(got.metadata.labels, { converted: 'yes' });
  });
});

describe('CRD conversion: storedVersions', () => {
  it('storedVersions: a new storage version is appended, and an update that drops a stored version from spec.versions is refused', async () => {
    const api = await serverWith('None');
    const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shelves.${GROUP}`;
    const first = body(await handleJson(api, 'GET', crdPath));
    assert.deepEqual((first.status as { storedVersions: string[] }).storedVersions, ['v1']);
    const versions = [version('v1alpha1', 'capacity', true), version('v1', 'capacity', false)];
    const moved = await handleJson(api, 'PUT', crdPath, { ...first, spec: { ...first.spec, versions } });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual((body(moved).status as { storedVersions: string[] }).storedVersions, ['v1', 'v1alpha1']);
    const dropped = await handleJson(api, 'PUT', crdPath, {
      ...body(moved),
      spec: { ...first.spec, versions: [version('v1alpha1', 'capacity', true)] },
    });
    assert.equal(dropped.status, 422);
    assert.match(
      (dropped.body as { message: string }).message,
      /status\.storedVersions\[0\]: Invalid value: "v1": missing from spec\.versions; v1 was previously a storage version/,
    );
  });

  it('spec.conversion: a Webhook strategy without a webhook, or a None strategy with one, is refused', async () => {
    const api = createApiServer();
    const noHook = crd('Webhook');
    noHook.spec.conversion = { strategy: 'Webhook' };
    const r = await handleJson(api, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', noHook);
    assert.equal(r.status, 422);
    assert.match((r.body as { message: string }).message, /spec\.conversion\.webhook: Required value/);
    const stray = crd('None');
    stray.spec.conversion = { strategy: 'None', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${url}/convert` } } };
    const s = await handleJson(api, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', stray);
    assert.equal(s.status, 422);
    assert.match((s.body as { message: string }).message, /spec\.conversion\.webhook: Forbidden/);
  });
});
