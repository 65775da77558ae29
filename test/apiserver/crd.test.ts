// CustomResourceDefinitions through HTTP: conditions and serving, names, versions, subresources, schema validation, pruning
// and defaulting of custom resources, and the removal of a CRD's objects and endpoints.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from './helpers.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

function widgetCrd(opts: { status?: boolean; scale?: boolean; versions?: string[] } = {}) {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['color'],
        properties: {
          color: { type: 'string', enum: ['red', 'blue'] },
          replicas: { type: 'integer', minimum: 0, default: 1 },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' }, replicas: { type: 'integer' } } },
    },
  };
  const versions = (opts.versions ?? ['v1']).map((name, i) => ({
    name,
    served: true,
    storage: i === 0,
    schema: { openAPIV3Schema: schema },
    additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
    selectableFields: [{ jsonPath: '.spec.color' }],
    subresources: {
      ...(opts.status === false ? {} : { status: {} }),
      ...(opts.scale ? { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } : {}),
    },
  }));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
      versions,
    },
  };
}

const widget = (name: string, spec: Record<string, unknown> = { color: 'red' }, version = 'v1') => ({
  apiVersion: `example.com/${version}`,
  kind: 'Widget',
  metadata: { name },
  spec,
});

describe('CustomResourceDefinitions', () => {
  it('are Established and served as soon as the create returns', async () => {
    await using api = await startApi();
    const r = await api.call('POST', CRDS, widgetCrd());
    assert.equal(r.status, 201);
    const conds = Object.fromEntries(r.body.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]));
    assert.deepEqual(conds, { NamesAccepted: 'True', Established: 'True' });
    assert.deepEqual(r.body.status.storedVersions, ['v1']);
    assert.equal(r.body.status.acceptedNames.kind, 'Widget');
    assert.ok(r.body.metadata.finalizers.includes('customresourcecleanup.apiextensions.k8s.io'));
    const disc = await api.call('GET', '/apis/example.com/v1');
    assert.equal(disc.status, 200);
    assert.ok(disc.body.resources.some((x: { name: string }) => x.name === 'widgets'));
    const c = await api.call('POST', WIDGETS, widget('w1'));
    assert.equal(c.status, 201);
    assert.equal(c.body.metadata.generation, 1);
  });

  it('rejects invalid CRDs with 422 (name, group, storage versions, missing schema)', async () => {
    await using api = await startApi();
    const bad = widgetCrd();
    bad.metadata.name = 'wrong.example.com';
    assert.equal((await api.call('POST', CRDS, bad)).status, 422);
    const two = widgetCrd({ versions: ['v1', 'v2'] });
    two.spec.versions[1]!.storage = true;
    const r = await api.call('POST', CRDS, two);
    assert.equal(r.status, 422);
    assert.match(r.body.message, /exactly one version marked as storage version/);
    const nonStructural = widgetCrd();
    (nonStructural.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties as Record<string, unknown>).x = {};
    assert.equal((await api.call('POST', CRDS, nonStructural)).status, 422);
  });

  it('validates custom resources against the schema with a cause per field', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    const r = await api.call('POST', WIDGETS, widget('w', { color: 'green', replicas: -1 }));
    assert.equal(r.status, 422);
    assert.equal(r.body.details.kind, 'Widget');
    assert.equal(r.body.details.group, 'example.com');
    const fields = r.body.details.causes.map((c: { field: string }) => c.field).sort();
    assert.deepEqual(fields, ['spec.color', 'spec.replicas']);
    assert.match(r.body.message, /^Widget\.example\.com "w" is invalid: /);
    const missing = await api.call('POST', WIDGETS, widget('m', {}));
    assert.equal(missing.body.details.causes[0].reason, 'FieldValueRequired');
  });

  it('prunes unknown fields with a Warning header, keeps preserved ones, applies defaults, and refuses them under Strict', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    const r = await api.call('POST', WIDGETS, widget('w', { color: 'red', junk: 1, free: { any: 'thing' } }));
    assert.equal(r.status, 201);
    assert.equal(r.body.spec.junk, undefined);
    assert.deepEqual(r.body.spec.free, { any: 'thing' });
    assert.equal(r.body.spec.replicas, 1);
    assert.match(r.headers.get('warning') ?? '', /299 - "unknown field \\"spec.junk\\""/);
    const fin = await api.call('POST', WIDGETS, { ...widget('f'), metadata: { name: 'f', finalizers: ['plain'] } });
    assert.match(fin.headers.get('warning') ?? '', /prefer a domain-qualified finalizer name/);
    const strict = await api.call('POST', `${WIDGETS}?fieldValidation=Strict`, widget('s', { color: 'red', junk: 1 }));
    assert.equal(strict.status, 400);
    assert.match(strict.body.message, /unknown field "spec.junk"/);
  });

  it('requires a resourceVersion on update, bumps generation on spec changes only, and honours the status subresource', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    const w = (await api.call('POST', WIDGETS, { ...widget('w'), status: { ready: true } })).body;
    assert.equal(w.status, undefined, 'status dropped on create');
    const { resourceVersion: _rv, ...meta } = w.metadata;
    assert.equal((await api.call('PUT', `${WIDGETS}/w`, { ...w, metadata: meta })).status, 422);
    const labelled = (await api.call('PUT', `${WIDGETS}/w`, { ...w, metadata: { ...w.metadata, labels: { a: 'b' } } })).body;
    assert.equal(labelled.metadata.generation, 1);
    const st = (await api.call('PUT', `${WIDGETS}/w/status`, { ...labelled, spec: { color: 'blue' }, status: { ready: true } })).body;
    assert.equal(st.status.ready, true);
    assert.equal(st.spec.color, 'red');
    assert.equal(st.metadata.generation, 1);
    const spec = (await api.call('PUT', `${WIDGETS}/w`, { ...st, spec: { ...st.spec, color: 'blue' }, status: { ready: false } })).body;
    assert.equal(spec.metadata.generation, 2);
    assert.equal(spec.status.ready, true, 'main endpoint ignores status');
  });

  it('without a status subresource, status is written with the object and bumps generation', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd({ status: false }));
    const w = (await api.call('POST', WIDGETS, { ...widget('w'), status: { ready: true } })).body;
    assert.equal(w.status.ready, true);
    const u = (await api.call('PUT', `${WIDGETS}/w`, { ...w, status: { ready: false } })).body;
    assert.equal(u.metadata.generation, 2);
    assert.equal((await api.call('GET', `${WIDGETS}/w/status`)).status, 404);
  });

  it('answers 415 to strategic merge patches and accepts merge patches', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    await api.call('POST', WIDGETS, widget('w'));
    const smp = await api.call(
      'PATCH',
      `${WIDGETS}/w`,
      { spec: { color: 'blue' } },
      { 'content-type': 'application/strategic-merge-patch+json' },
    );
    assert.equal(smp.status, 415);
    const mp = await api.call('PATCH', `${WIDGETS}/w`, { spec: { color: 'blue' } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(mp.status, 200);
    assert.equal(mp.body.spec.color, 'blue');
  });

  it('serves the scale subresource of a CRD', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd({ scale: true }));
    await api.call('POST', WIDGETS, widget('w', { color: 'red', replicas: 2 }));
    const s = (await api.call('GET', `${WIDGETS}/w/scale`)).body;
    assert.equal(s.spec.replicas, 2);
    const p = await api.call('PATCH', `${WIDGETS}/w/scale`, { spec: { replicas: 5 } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(p.status, 200);
    assert.equal((await api.call('GET', `${WIDGETS}/w`)).body.spec.replicas, 5);
  });

  it('serves several versions of one storage, rewriting only apiVersion', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd({ versions: ['v1', 'v1beta1'] }));
    await api.call('POST', WIDGETS, widget('w'));
    const beta = await api.call('GET', '/apis/example.com/v1beta1/namespaces/default/widgets/w');
    assert.equal(beta.status, 200);
    assert.equal(beta.body.apiVersion, 'example.com/v1beta1');
    const groups = (await api.call('GET', '/apis/example.com')).body;
    assert.equal(groups.preferredVersion.version, 'v1');
  });

  it('filters custom resources by selectableFields and rejects other fields', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    await api.call('POST', WIDGETS, widget('r', { color: 'red' }));
    await api.call('POST', WIDGETS, widget('b', { color: 'blue' }));
    const l = (await api.call('GET', `${WIDGETS}?fieldSelector=spec.color%3Dblue`)).body;
    assert.deepEqual(
      l.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['b'],
    );
    const bad = await api.call('GET', `${WIDGETS}?fieldSelector=spec.replicas%3D1`);
    assert.equal(bad.status, 400);
  });

  it('does not accept the names of a CRD whose kind or listKind another CRD of the group holds', async () => {
    await using api = await startApi();
    assert.equal((await api.call('POST', CRDS, widgetCrd())).status, 201);
    const clash = (plural: string, names: Record<string, string>) => {
      const c = widgetCrd();
      return { ...c, metadata: { name: `${plural}.example.com` }, spec: { ...c.spec, names: { plural, ...names } } };
    };
    for (const [plural, names, reason] of [
      ['gizmos', { kind: 'Widget' }, 'KindConflict'],
      ['gadgets', { kind: 'Gadget', listKind: 'WidgetList' }, 'ListKindConflict'],
    ] as const) {
      const r = await api.call('POST', CRDS, clash(plural, names));
      assert.equal(r.status, 201, r.text);
      const accepted = r.body.status.conditions.find((c: { type: string }) => c.type === 'NamesAccepted');
      assert.deepEqual([accepted.status, accepted.reason], ['False', reason]);
      const served = await api.call('GET', `/apis/example.com/v1/namespaces/default/${plural}`);
      assert.equal(served.status, 404, `${plural} is not served while its names are not accepted`);
    }
  });

  it('refuses printer columns of a type the printer does not know', async () => {
    await using api = await startApi();
    const c = widgetCrd();
    c.spec.versions[0]!.additionalPrinterColumns = [{ name: 'Color', type: 'float', jsonPath: '.spec.color' }];
    const r = await api.call('POST', CRDS, c);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].field, 'spec.versions[0].additionalPrinterColumns[0].type');
    assert.equal(r.body.details.causes[0].reason, 'FieldValueNotSupported');
  });

  it('refuses more than 8 selectableFields with Too many', async () => {
    await using api = await startApi();
    const c = widgetCrd();
    c.spec.versions[0]!.selectableFields = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    const r = await api.call('POST', CRDS, c);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueTooMany', field: 'spec.versions[0].selectableFields', message: 'Too many: 9: must have at most 8 items' },
    ]);
  });

  it('prints additionalPrinterColumns in Tables', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    await api.call('POST', WIDGETS, widget('w'));
    const t = (await api.call('GET', WIDGETS, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' })).body;
    assert.equal(t.kind, 'Table');
    assert.deepEqual(
      t.columnDefinitions.map((c: { name: string }) => c.name),
      ['Name', 'Color'],
    );
    assert.equal(t.rows[0].cells[1], 'red');
  });

  it('keeps a terminating CRD while a custom resource holds a finalizer, and refuses new ones meanwhile', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    await api.call('POST', WIDGETS, { ...widget('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    await api.call('DELETE', `${CRDS}/widgets.example.com`);
    let crd = (await api.call('GET', `${CRDS}/widgets.example.com`)).body;
    for (let i = 0; i < 50 && !crd.status.conditions.some((c: { type: string }) => c.type === 'Terminating'); i++)
      crd = (await api.call('GET', `${CRDS}/widgets.example.com`)).body;
    assert.ok(crd.status.conditions.some((c: { type: string; status: string }) => c.type === 'Terminating' && c.status === 'True'));
    const create = await api.call('POST', WIDGETS, widget('late'));
    assert.equal(create.status, 405);
    assert.match(create.body.message, /terminating/);
    const held = (await api.call('GET', `${WIDGETS}/held`)).body;
    assert.ok(held.metadata.deletionTimestamp);
    await api.call('PUT', `${WIDGETS}/held`, { ...held, metadata: { ...held.metadata, finalizers: [] } });
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) status = (await api.call('GET', `${CRDS}/widgets.example.com`)).status;
    assert.equal(status, 404);
  });

  it('removes the custom resources and the endpoints when the CRD is deleted', async () => {
    await using api = await startApi();
    await api.call('POST', CRDS, widgetCrd());
    await api.call('POST', WIDGETS, widget('w'));
    const w = await api.watch(`${WIDGETS}?watch=true&resourceVersion=1`);
    const d = await api.call('DELETE', `${CRDS}/widgets.example.com`);
    assert.equal(d.status, 200);
    assert.ok(d.body.metadata.deletionTimestamp);
    const evs = await w.take(2);
    assert.deepEqual(
      evs.map((e) => e.type),
      ['ADDED', 'DELETED'],
    );
    await w.ended();
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) status = (await api.call('GET', `${CRDS}/widgets.example.com`)).status;
    assert.equal(status, 404);
    assert.equal((await api.call('GET', WIDGETS)).status, 404);
    assert.equal((await api.call('GET', '/apis/example.com/v1')).status, 404);
  });
});
