// CEL rules through the server beyond the documentation's examples: transition rules inside list-map
// items and maps (the old value found by key), ratcheting as a Warning header, messageExpression
// fallbacks, reasons, fieldPath into a map, escaped property names, and the rules skipped when the
// OpenAPI checks already found a wrong type.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { specCrd } from './fixtures/spec-crd.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const THINGS = '/apis/example.com/v1/namespaces/default/things';

async function withSpec(api: Api, spec: Record<string, unknown>): Promise<void> {
  const r = await api.call('POST', CRDS, specCrd('Thing', 'things', spec));
  assert.equal(r.status, 201, r.text);
}

const thing = (name: string, spec: unknown, resourceVersion?: string) => ({
  apiVersion: 'example.com/v1',
  kind: 'Thing',
  metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) },
  spec,
});

async function createThen(api: Api, first: unknown, then: unknown) {
  const created = await api.call('POST', THINGS, thing('t', first));
  assert.equal(created.status, 201, created.text);
  return api.call('PUT', `${THINGS}/t`, thing('t', then, created.body.metadata.resourceVersion));
}

const immutable = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'is immutable' }] };

describe('CEL rules', () => {
  it('find the old item of a list-map by its keys for a transition rule inside the items', async () => {
    await using api = await startApi();
    await withSpec(api, {
      properties: {
        ports: {
          type: 'array',
          maxItems: 8,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: immutable } },
        },
      },
    });
    const old = {
      ports: [
        { name: 'a', protocol: 'TCP' },
        { name: 'b', protocol: 'UDP' },
      ],
    };
    // Reordered, and a new item: neither is a change of an existing item's protocol.
    const reordered = await createThen(api, old, { ports: [{ name: 'c', protocol: 'SCTP' }, old.ports[1], old.ports[0]] });
    assert.equal(reordered.status, 200, reordered.text);
    const changed = await api.call(
      'PUT',
      `${THINGS}/t`,
      thing('t', { ports: [{ name: 'b', protocol: 'TCP' }] }, reordered.body.metadata.resourceVersion),
    );
    assert.equal(changed.status, 422, changed.text);
    assert.equal(changed.body.details.causes[0].field, 'spec.ports[0].protocol');
    assert.equal(changed.body.details.causes[0].message, 'Invalid value: "string": is immutable');
  });

  it('find the old value of a map entry by its key', async () => {
    await using api = await startApi();
    await withSpec(api, { properties: { labels: { type: 'object', maxProperties: 8, additionalProperties: immutable } } });
    const r = await createThen(api, { labels: { a: '1' } }, { labels: { a: '2', b: '3' } });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.body.details.causes.map((c: { field: string }) => c.field),
      ['spec.labels.a'],
    );
  });

  it('turn the failure of a rule on an unchanged value into a Warning header (ratcheting)', async () => {
    await using api = await startApi();
    await withSpec(api, { properties: { a: { type: 'integer' }, b: { type: 'integer' } } });
    const created = await api.call('POST', THINGS, thing('t', { a: 1, b: 11 }));
    assert.equal(created.status, 201, created.text);
    // The rule arrives after b was stored with a value it refuses.
    const crd = (await api.call('GET', `${CRDS}/things.example.com`)).body;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.b['x-kubernetes-validations'] = [{ rule: 'self < 10' }];
    assert.equal((await api.call('PUT', `${CRDS}/things.example.com`, crd)).status, 200);
    const kept = await api.call('PUT', `${THINGS}/t`, thing('t', { a: 2, b: 11 }, created.body.metadata.resourceVersion));
    assert.equal(kept.status, 200, kept.text);
    assert.match(kept.headers.get('warning') ?? '', /spec\.b: Invalid value: \\"integer\\": failed rule: self < 10/);
    const changed = await api.call('PUT', `${THINGS}/t`, thing('t', { a: 2, b: 12 }, kept.body.metadata.resourceVersion));
    assert.equal(changed.status, 422, changed.text);
  });

  it('fall back from a messageExpression that fails or is empty to message, then to the rule', async () => {
    await using api = await startApi();
    await withSpec(api, {
      properties: { x: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'self.x > 0', messageExpression: 'string(1 / (self.x - self.x))', message: 'x must be positive' },
        { rule: 'self.x > 1', messageExpression: "''" },
      ],
    });
    const r = await api.call('POST', THINGS, thing('t', { x: 0 }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.body.details.causes.map((c: { message: string }) => c.message),
      ['Invalid value: "object": x must be positive', 'Invalid value: "object": failed rule: self.x > 1'],
    );
  });

  it('report reason FieldValueRequired and FieldValueDuplicate as those cause types', async () => {
    await using api = await startApi();
    await withSpec(api, {
      properties: { a: { type: 'string' }, b: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 8 } } },
      'x-kubernetes-validations': [
        { rule: 'has(self.a)', reason: 'FieldValueRequired', message: 'a is required', fieldPath: '.a' },
        { rule: 'self.b.all(x, self.b.exists_one(y, x == y))', reason: 'FieldValueDuplicate', fieldPath: '.b' },
      ],
    });
    const r = await api.call('POST', THINGS, thing('t', { b: ['x', 'x'] }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueRequired', field: 'spec.a', message: 'Required value: a is required' },
      { reason: 'FieldValueDuplicate', field: 'spec.b', message: 'Duplicate value: "object"' },
    ]);
  });

  it("report a fieldPath into a map as the key in brackets (.labels['app'])", async () => {
    await using api = await startApi();
    await withSpec(api, {
      properties: { labels: { type: 'object', maxProperties: 8, additionalProperties: { type: 'string', maxLength: 63 } } },
      'x-kubernetes-validations': [{ rule: "self.labels['app'] != ''", fieldPath: ".labels['app']" }],
    });
    const r = await api.call('POST', THINGS, thing('t', { labels: { app: '' } }));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].field, 'spec.labels[app]');
  });

  it('reach a property named after a CEL keyword by its escaped name', async () => {
    await using api = await startApi();
    await withSpec(api, {
      properties: { namespace: { type: 'string' }, 'x-prop': { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: "self.__namespace__ != 'kube-system' && self.x__dash__prop > 0" }],
    });
    assert.equal((await api.call('POST', THINGS, thing('ok', { namespace: 'apps', 'x-prop': 1 }))).status, 201);
    assert.equal((await api.call('POST', THINGS, thing('bad', { namespace: 'kube-system', 'x-prop': 1 }))).status, 422);
  });

  it('skip the rules when the OpenAPI checks found a wrong type, and say so', async () => {
    await using api = await startApi();
    await withSpec(api, { properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 0' }] });
    const r = await api.call('POST', THINGS, thing('t', { n: 'one' }));
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.body.details.causes.map((c: { message: string }) => c.message),
      [
        'Invalid value: "string": spec.n in body must be of type integer: "string"',
        'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ],
    );
  });
});
