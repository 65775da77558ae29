// Validation ratcheting (CRDValidationRatcheting, GA in Kubernetes 1.33): an update may keep a value
// that the schema, tightened since it was stored, now refuses, as long as that value is unchanged.
// The cases are apiextensions-apiserver's own: its ratcheting validator's unit tests, its CEL
// validator's ratcheting table, and its integration scenarios (schema tightened between server-side
// applies), run here through the in-process server.
// https://github.com/kubernetes/apiextensions-apiserver/blob/master/test/integration/ratcheting_test.go
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { validateAgainstSchema, validateCustomResource } from '../../src/apiserver/schema/index.js';
import { handleJson } from './helpers.js';

const INT: JSONSchemaProps = { type: 'number', minimum: 50, maximum: 10000 };
const objectSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    zero: { type: 'number', minimum: 0, maximum: 0 },
    small: { type: 'number', maximum: 50 },
    medium: INT,
    large: { type: 'number', minimum: 10000 },
  },
};

const valid = (obj: unknown, schema: JSONSchemaProps, old: unknown) => validateAgainstSchema(obj, schema, old).length === 0;

describe('OpenAPI ratcheting of one value (the ratcheting validator unit cases)', () => {
  it('keeps an unchanged scalar that breaks its bounds and refuses a changed one', () => {
    assert.equal(valid(1, INT, 1), true);
    assert.equal(valid(1, INT, 2), false);
    assert.equal(valid(1, INT, undefined), false);
  });

  it('ratchets the scalar fields of an object, whatever happens to their siblings', () => {
    assert.equal(valid({ small: 500 }, objectSchema, { small: 500 }), true);
    assert.equal(valid({ small: 501 }, objectSchema, { small: 501, medium: 500 }), true);
    assert.equal(valid({ small: 500 }, objectSchema, { small: 501 }), false);
  });

  it('ratchets fields of nested objects', () => {
    const nested: JSONSchemaProps = { type: 'object', properties: { nested: objectSchema } };
    assert.equal(valid({ nested: { small: 500 } }, nested, { nested: { small: 500 } }), true);
    assert.equal(valid({ nested: { small: 501 } }, nested, { nested: { small: 501, medium: 500 } }), true);
    assert.equal(valid({ nested: { small: 500 } }, nested, { nested: { small: 501 } }), false);
  });

  it('ratchets a number outside its int32 format while other fields change, not a new one', () => {
    const s: JSONSchemaProps = { type: 'object', properties: { i: { type: 'integer', format: 'int32' }, unrelated: { type: 'string' } } };
    const big = 2 ** 31;
    assert.equal(valid({ i: big }, s, { i: big }), true);
    assert.equal(valid({ i: big, unrelated: 'changed' }, s, { i: big, unrelated: 'original' }), true);
    assert.equal(valid({ i: big + 1 }, s, { i: big }), false);
  });

  it('never ratchets the root apiVersion and kind on their own, which are the request’s', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { apiVersion: { type: 'string', enum: ['v1'] }, kind: { type: 'string', enum: ['Pod'] }, n: { type: 'integer' } },
    };
    assert.deepEqual(
      validateAgainstSchema({ apiVersion: 'v2', kind: 'Baz', n: 2 }, s, { apiVersion: 'v2', kind: 'Baz', n: 1 }).map((c) => c.field),
      ['apiVersion', 'kind'],
    );
  });

  it('checks set and map-list uniqueness on an update only when the old object kept it', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } as JSONSchemaProps,
        n: { type: 'integer' },
      },
    };
    const dup = { tags: ['a', 'a'], n: 2 };
    assert.deepEqual(
      validateAgainstSchema(dup, s).map((c) => `${c.field}: ${c.message}`),
      ['tags[1]: Duplicate value: "a"'],
    );
    assert.deepEqual(validateAgainstSchema(dup, s, { tags: ['a', 'a', 'b'], n: 1 }), []);
    assert.equal(validateAgainstSchema(dup, s, { tags: ['a'], n: 1 }).length, 1);
  });
});

/** One row of apiextensions' CEL ratcheting table: rule failures that are errors, and those that are warnings. */
interface CelCase {
  name: string;
  schema: JSONSchemaProps;
  old: unknown;
  obj: unknown;
  errors?: string[];
  warnings?: string[];
}

const rule = (r: string, message?: string, extra: Record<string, unknown> = {}) => ({
  'x-kubernetes-validations': [{ rule: r, ...(message === undefined ? {} : { message }), ...extra }],
});
const str = (r: string, message?: string): JSONSchemaProps => ({ type: 'string', ...rule(r, message) }) as JSONSchemaProps;

const celCases: CelCase[] = [
  {
    name: 'a normal rule on an unchanged value',
    schema: { type: 'object', properties: { foo: str('self == "bar"', 'gotta be bar') } },
    old: { foo: 'baz' },
    obj: { foo: 'baz' },
    warnings: ['foo'],
  },
  {
    name: 'a rule in an item of an unchanged atomic list',
    schema: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: { type: 'object', properties: { bar: str('self == "baz"', 'gotta be baz') } },
    } as JSONSchemaProps,
    old: [{ bar: 'bar' }],
    obj: [{ bar: 'bar' }],
    warnings: ['[0].bar'],
  },
  {
    name: 'a rule on an item of an unchanged set',
    schema: {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: { type: 'number', ...rule('int(self) % 2 == 1', 'gotta be odd') },
    } as JSONSchemaProps,
    old: [1, 2],
    obj: [1, 2],
    warnings: ['[1]'],
  },
  {
    name: 'a rule on an item of an unchanged set whose sibling field changed',
    schema: {
      type: 'object',
      properties: {
        stringField: { type: 'string' },
        setArray: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'number', ...rule('int(self) % 2 == 1', 'gotta be odd') },
        },
      },
    } as JSONSchemaProps,
    old: { stringField: 'foo', setArray: [1, 3, 2] },
    obj: { stringField: 'changed but ratcheted', setArray: [1, 3, 2] },
    warnings: ['setArray[2]'],
  },
  {
    name: 'rules in list-map items found by key, the list grown',
    schema: listMap(),
    old: [
      { key: 'foo', value: 'notbaz' },
      { key: 'bar', value: 'notbaz' },
    ],
    obj: [
      { key: 'foo', value: 'notbaz' },
      { key: 'bar', value: 'notbaz' },
      { key: 'baz', value: 'baz' },
    ],
    warnings: ['[0].value', '[1].value'],
  },
  {
    name: 'rules in list-map items whose sibling item changed',
    schema: listMap(),
    old: [
      { key: 'foo', value: 'notbaz' },
      { key: 'bar', value: 'notbaz' },
    ],
    obj: [
      { key: 'foo', value: 'baz' },
      { key: 'bar', value: 'notbaz' },
    ],
    warnings: ['[1].value'],
  },
  {
    name: 'a changed value in a map errs while its unchanged nephew is ratcheted',
    schema: {
      type: 'object',
      properties: {
        stringField: { type: 'string' },
        mapField: {
          type: 'object',
          properties: {
            foo: str('self == "baz"', 'gotta be baz'),
            mapField: {
              type: 'object',
              properties: { bar: str('self == "baz"', 'gotta be baz'), otherBar: str('self == "otherBaz"', 'gotta be otherBaz') },
            },
          },
        },
      },
    },
    old: { stringField: 'foo', mapField: { foo: 'baz', mapField: { bar: 'notbaz', otherBar: 'nototherBaz' } } },
    obj: { stringField: 'foo', mapField: { foo: 'notbaz', mapField: { bar: 'notbaz', otherBar: 'otherBaz' } } },
    errors: ['mapField.foo'],
    warnings: ['mapField.mapField.bar'],
  },
  {
    name: 'an item of an atomic list that grew is not ratcheted',
    schema: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: { type: 'object', properties: { bar: str('self == "baz"', 'gotta be baz') } },
    } as JSONSchemaProps,
    old: [{ bar: 'bar' }],
    obj: [{ bar: 'bar' }, { bar: 'baz' }],
    errors: ['[0].bar'],
  },
  {
    name: 'transition rules never ratchet',
    schema: { type: 'object', properties: { foo: str('oldSelf != "bar" && self == "baz"', 'gotta be baz') } },
    old: { foo: 'bar' },
    obj: { foo: 'bar' },
    errors: ['foo'],
  },
  {
    name: 'a fieldPath into an unchanged field does not ratchet a rule of the changed parent',
    schema: {
      type: 'object',
      properties: { bar: { type: 'string' }, foo: { type: 'string' } },
      ...rule('self.foo == "baz"', 'gotta be baz', { fieldPath: '.foo' }),
    } as JSONSchemaProps,
    old: { foo: 'bar' },
    obj: { foo: 'bar', bar: 'invalid' },
    errors: ['foo'],
  },
  {
    name: 'apiVersion and kind below the root ratchet like any field',
    schema: {
      type: 'object',
      properties: {
        subField: {
          type: 'object',
          properties: { apiVersion: str('self == "v1"'), kind: str('self == "Pod"'), otherField: { type: 'string' } },
        },
      },
    },
    old: { subField: { apiVersion: 'v2', kind: 'Baz' } },
    obj: { subField: { apiVersion: 'v2', kind: 'Baz', otherField: 'newValue' } },
    warnings: ['subField.apiVersion', 'subField.kind'],
  },
];

function listMap(): JSONSchemaProps {
  return {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['key'],
    items: { type: 'object', properties: { key: { type: 'string' }, value: str('self == "baz"', 'gotta be baz') } },
  } as JSONSchemaProps;
}

describe('CEL rule ratcheting (the CEL validator’s ratcheting table)', () => {
  for (const c of celCases) {
    it(c.name, () => {
      const r = validateCustomResource(c.obj, c.schema, c.old);
      assert.deepEqual(
        r.causes.map((x) => x.field),
        c.errors ?? [],
      );
      assert.deepEqual(
        r.warnings.map((w) => w.slice(0, w.indexOf(': '))),
        c.warnings ?? [],
      );
    });
  }

  it('names the rule’s message in a ratcheted warning', () => {
    const r = validateCustomResource({ foo: 'baz' }, celCases[0]!.schema, { foo: 'baz' });
    assert.match(r.warnings[0] ?? '', /^foo: Invalid value: .*: gotta be bar$/);
  });

  it('does not ratchet the root’s apiVersion and kind', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { apiVersion: str('self == "v1"'), kind: str('self == "Pod"') } };
    const obj = { apiVersion: 'v2', kind: 'Baz' };
    const r = validateCustomResource(obj, schema, obj);
    assert.deepEqual(
      r.causes.map((x) => x.field),
      ['apiVersion', 'kind'],
    );
    assert.deepEqual(r.warnings, []);
  });
});

// ---- The integration scenarios: a CRD whose schema is tightened between server-side applies ----

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRD_NAME = 'mycrds.mygroup.example.com';
const BASE = '/apis/mygroup.example.com/v1beta1/namespaces/default/mycrds';

type Step =
  | { schema: Record<string, unknown> }
  | { patchSchema: Record<string, unknown> }
  | { apply: Record<string, unknown>; ok: boolean; why: string };

/** RFC 7386 merge patch, for tightening a schema the way the upstream test does. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Runs one scenario against a fresh server; with `status`, every field lives under the status subresource. */
async function runScenario(steps: Step[], status: boolean): Promise<void> {
  const api = createApiServer();
  let rootSchema: Record<string, unknown> = {};
  const crd = (schema: Record<string, unknown>) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: CRD_NAME },
    spec: {
      group: 'mygroup.example.com',
      scope: 'Namespaced',
      names: { plural: 'mycrds', kind: 'MyCoolCRD', listKind: 'MyCoolCRDList' },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: status ? { type: 'object', properties: { status: schema } } : schema },
          subresources: { status: {} },
        },
      ],
    },
  });
  const putSchema = async (schema: Record<string, unknown>) => {
    rootSchema = schema;
    const existing = await handleJson(api, 'GET', `${CRD_PATH}/${CRD_NAME}`);
    const r =
      existing.status === 404
        ? await handleJson(api, 'POST', CRD_PATH, crd(schema))
        : await handleJson(api, 'PUT', `${CRD_PATH}/${CRD_NAME}`, { ...crd(schema), metadata: existing.body.metadata });
    assert.ok(r.status === 200 || r.status === 201, r.text);
  };
  for (const step of steps) {
    if ('schema' in step) await putSchema(step.schema);
    else if ('patchSchema' in step) await putSchema(mergePatch(rootSchema, step.patchSchema) as Record<string, unknown>);
    else {
      const meta = {
        apiVersion: 'mygroup.example.com/v1beta1',
        kind: 'MyCoolCRD',
        metadata: { name: 'mycrdinstance', namespace: 'default' },
      };
      let path = `${BASE}/mycrdinstance`;
      if (status) {
        path += '/status';
        const exists = await handleJson(api, 'GET', `${BASE}/mycrdinstance`);
        if (exists.status === 404) assert.equal((await handleJson(api, 'POST', BASE, meta)).status, 201);
      }
      const body = status ? { ...meta, status: step.apply } : { ...meta, ...step.apply };
      const r = await handleJson(api, 'PATCH', `${path}?fieldManager=manager`, JSON.stringify(body), 'application/apply-patch+yaml');
      if (step.ok) assert.ok(r.status === 200 || r.status === 201, `${step.why}: ${r.text}`);
      else assert.equal(r.status, 422, `${step.why}: expected a refusal, got ${r.status} ${r.text}`);
    }
  }
}

const number = { type: 'integer' };
const string = { type: 'string' };
const ok = (why: string, apply: Record<string, unknown>): Step => ({ apply, ok: true, why });
const refused = (why: string, apply: Record<string, unknown>): Step => ({ apply, ok: false, why });
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

const ports = (...items: [string, number, string][]) => items.map(([name, port, field]) => ({ name, port, field }));

const scenarios: { name: string; steps: Step[]; skipStatus?: boolean }[] = [
  {
    name: 'Minimum Maximum',
    steps: [
      { schema: object({ hasMinimum: number, hasMaximum: number, hasMinimumAndMaximum: number }) },
      ok('create an object that complies with the schema', { hasMinimum: 0, hasMaximum: 1000, hasMinimumAndMaximum: 50 }),
      {
        patchSchema: {
          properties: {
            hasMinimum: { minimum: 10 },
            hasMaximum: { maximum: 20 },
            hasMinimumAndMaximum: { minimum: 10, maximum: 20 },
            noRestrictions: { type: 'integer' },
          },
        },
      },
      ok('add new fields that validate without changing old ones', { noRestrictions: 50 }),
      refused('change a single old field to be invalid', { hasMinimum: 5 }),
      refused('change multiple old fields to be invalid', { hasMinimum: 5, hasMaximum: 21 }),
      ok('change a single old field to be valid', { hasMinimum: 11 }),
      ok('change multiple old fields to be valid', { hasMaximum: 19, hasMinimumAndMaximum: 15 }),
    ],
  },
  {
    name: 'Enum',
    steps: [
      { schema: object({ enumField: string }) },
      ok('create an instance with a soon-to-be-invalid value', { enumField: 'okValueNowBadValueLater' }),
      { patchSchema: { properties: { enumField: { enum: ['A', 'B', 'C'] }, otherField: string } } },
      ok('an invalid patch with no changes is a no-op', { enumField: 'okValueNowBadValueLater' }),
      ok('add a new field, keeping the old value', { enumField: 'okValueNowBadValueLater', otherField: 'anythingGoes' }),
      refused('set enumField to invalid value D', { enumField: 'D' }),
      ok('set a valid value', { enumField: 'A' }),
      refused('return to the old, accepted value', { enumField: 'okValueNowBadValueLater' }),
    ],
  },
  {
    name: 'AdditionalProperties',
    steps: [
      {
        schema: object({
          nums: { type: 'object', additionalProperties: number },
          content: { type: 'object', additionalProperties: string },
        }),
      },
      ok('create an instance', { nums: { num1: 1, num2: 1000000 }, content: { k1: 'some content', k2: 'other content' } }),
      { patchSchema: { properties: { nums: { additionalProperties: { minimum: 1000 } } } } },
      ok('change num2 to another valid value, ratcheting the invalid num1', { nums: { num1: 1, num2: 2000 } }),
      refused('change num1 to another invalid value', { nums: { num1: 2, num2: 2000 } }),
    ],
  },
  {
    name: 'MinProperties MaxProperties',
    steps: [
      {
        schema: object({
          restricted: { type: 'object', additionalProperties: string },
          unrestricted: { type: 'object', additionalProperties: string },
        }),
      },
      ok('create the instance', { restricted: { key1: 'hi', key2: 'there' } }),
      { patchSchema: { properties: { restricted: { minProperties: 1, maxProperties: 1 } } } },
      ok('ratchet the violating object around a change to an unrelated field', {
        restricted: { key1: 'hi', key2: 'there' },
        unrestricted: { key1: 'yo' },
      }),
      refused('change the ratcheted object', { restricted: { key1: 'changed', key2: 'there' }, unrestricted: { key1: 'yo' } }),
      { patchSchema: { properties: { restricted: { minProperties: 2, maxProperties: null } } } },
      ok('a new value', { restricted: { key1: 'hi', key2: 'there', key3: 'buddy' } }),
      refused('violate minProperties by dropping keys', { restricted: { key1: 'hi' } }),
      { patchSchema: { properties: { restricted: { minProperties: null, maxProperties: 1 } } } },
      ok('change only the other field, ratcheting maxProperties', {
        restricted: { key1: 'hi', key2: 'there', key3: 'buddy' },
        unrestricted: { key1: 'value', key2: 'value' },
      }),
      refused('change one value of the restricted object', { restricted: { key1: 'hi', key2: 'theres', key3: 'buddy' } }),
    ],
  },
  {
    name: 'MinItems',
    steps: [
      { schema: object({ field: string, array: { type: 'array', items: string } }) },
      ok('create the instance', { array: ['value1', 'value2', 'value3'] }),
      { patchSchema: { properties: { array: { minItems: 10 } } } },
      ok('keep the invalid array, add a field', { array: ['value1', 'value2', 'value3'], field: 'value' }),
      refused('change an item without satisfying minItems', { array: ['value2', 'value2', 'value3'] }),
      refused('add an item without satisfying minItems', { array: ['value1', 'value2', 'value3', 'value4'] }),
      ok('make the array valid', { array: ['value1', 'value2', 'value3', '4', '5', '6', '7', '8', '9', '10'] }),
      refused('revert to the original value', { array: ['value1', 'value2', 'value3'] }),
    ],
  },
  {
    name: 'MaxItems',
    steps: [
      { schema: object({ field: string, array: { type: 'array', items: string } }) },
      ok('create the instance', { array: ['value1', 'value2', 'value3'] }),
      { patchSchema: { properties: { array: { maxItems: 1 } } } },
      ok('ratchet the array through an update to another field', { array: ['value1', 'value2', 'value3'], field: 'value' }),
      refused('change an item without satisfying maxItems', { array: ['value2', 'value2', 'value3'] }),
      refused('remove an item without satisfying maxItems', { array: ['value1', 'value2'] }),
      ok('satisfy maxItems', { array: ['value1'] }),
      refused('revert to the ratcheted value', { array: ['value1', 'value2', 'value3'] }),
    ],
  },
  {
    name: 'MinLength MaxLength',
    steps: [
      { schema: object({ minField: string, maxField: string, otherField: string }) },
      ok('create the instance', { minField: 'value', maxField: 'valueThatsVeryLongSee' }),
      { patchSchema: { properties: { minField: { minLength: 10 }, maxField: { maxLength: 15 } } } },
      ok('add otherField, ratcheting both', { minField: 'value', maxField: 'valueThatsVeryLongSee', otherField: 'otherValue' }),
      ok('make minField valid, ratcheting maxField', {
        minField: 'valuelength13',
        maxField: 'valueThatsVeryLongSee',
        otherField: 'otherValue',
      }),
      ok('make maxField shorter', { maxField: 'l2' }),
      refused('make maxField too long', { maxField: 'valuewithlength17' }),
      refused('revert minField to its ratcheted value', { minField: 'value' }),
      refused('revert maxField to its ratcheted value', { maxField: 'valueThatsVeryLongSee' }),
    ],
  },
  {
    name: 'Pattern',
    steps: [
      { schema: object({ field: string }) },
      ok('create the instance', { field: 'doesnt abide pattern' }),
      { patchSchema: { properties: { field: { pattern: '^[1-9]+$' }, otherField: string } } },
      ok('add an unrelated field, ratcheting the invalid one', { field: 'doesnt abide pattern', otherField: 'added' }),
      refused('change the field to another invalid value', { field: 'w123', otherField: 'added' }),
      ok('change the field to a valid value', { field: '123', otherField: 'added' }),
    ],
  },
  {
    name: 'Format Addition and Change',
    steps: [
      { schema: object({ field: string }) },
      ok('create the instance', { field: 'doesnt abide any format' }),
      { patchSchema: { properties: { field: { format: 'byte' }, otherField: string } } },
      ok('add otherField, ratcheting the format', { field: 'doesnt abide any format', otherField: 'value' }),
      refused('change the field to an invalid string', { field: 'asd' }),
      ok('change the field to a valid byte string', { field: 'dGhpcyBpcyBwYXNzd29yZA==' }),
      { patchSchema: { properties: { field: { format: 'date-time' } } } },
      ok('change otherField, ratcheting the invalid date-time', { field: 'dGhpcyBpcyBwYXNzd29yZA==', otherField: 'value2' }),
      ok('change the field to a valid value', { field: '2018-11-13T20:20:39+00:00', otherField: 'value2' }),
      refused('revert to the ratcheted value', { field: 'dGhpcyBpcyBwYXNzd29yZA==', otherField: 'value2' }),
      refused('revert to the value from creation', { field: 'doesnt abide any format' }),
    ],
  },
  {
    name: 'Map Type List Reordering Grandfathers Invalid Key',
    steps: [
      {
        schema: object({
          field: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name', 'port'],
            items: object({ name: string, port: number, field: string }, { required: ['name', 'port'] }),
          },
        }),
      },
      ok('create with three soon-to-be-invalid keys', {
        field: ports(['nginx', 443, 'value'], ['etcd', 2379, 'value'], ['kube-apiserver', 6443, 'value']),
      }),
      { patchSchema: { properties: { field: { maxItems: 2 } } } },
      ok('reorder the items without changing them', {
        field: ports(['kube-apiserver', 6443, 'value'], ['nginx', 443, 'value'], ['etcd', 2379, 'value']),
      }),
      refused('add an item to the list over maxItems', {
        field: ports(['kube-apiserver', 6443, 'value'], ['nginx', 443, 'value'], ['etcd', 2379, 'value'], ['dev', 8080, 'value']),
      }),
      { patchSchema: { properties: { field: { maxItems: null, items: { properties: { port: { multipleOf: 2 } } } } } } },
      ok('reorder without changing anything', {
        field: ports(['nginx', 443, 'value'], ['etcd', 2379, 'value'], ['kube-apiserver', 6443, 'value']),
      }),
      ok('keep the odd ports (keys) while changing their sibling fields and order', {
        field: ports(
          ['nginx', 443, 'value'],
          ['etcd', 2379, 'value'],
          ['kube-apiserver', 6443, 'this is a changed value for an an invalid but grandfathered key'],
          ['dev', 8080, 'value'],
        ),
      }),
    ],
  },
  {
    name: 'ArrayItems do not correlate by index',
    steps: [
      { schema: object({ values: { type: 'array', items: { type: 'object', additionalProperties: string } }, otherField: string }) },
      ok('create the instance', {
        values: [
          { name: '1', key: 'value' },
          { name: '2', key: 'value' },
        ],
      }),
      { patchSchema: { properties: { values: { items: { additionalProperties: { minLength: 6 } } } } } },
      refused('change a value to one under minLength', {
        values: [
          { name: '1', key: 'value' },
          { name: '2', key: 'bad' },
        ],
      }),
      ok('add a field without touching the list', {
        values: [
          { name: '1', key: 'value' },
          { name: '2', key: 'value' },
        ],
        otherField: 'hello world',
      }),
      refused('add a valid field to an item: the atomic list changed, its items have no old selves', {
        values: [
          { name: '1', key: 'value' },
          { name: '2', key: 'value', key2: 'valid value' },
        ],
      }),
      refused('reorder the list', {
        values: [
          { name: '2', key: 'value', key2: 'valid value' },
          { name: '1', key: 'value' },
        ],
      }),
    ],
  },
  {
    name: 'CEL Optional OldSelf',
    skipStatus: true, // oldSelf always has a value on a status write
    steps: [
      { schema: object({ field: { type: 'string', ...rule('!oldSelf.hasValue()', 'oldSelf must be null', { optionalOldSelf: true }) } }) },
      ok('create passes since oldSelf is empty', { field: 'value' }),
      refused('an update fails, since oldSelf has a value', { field: 'value2' }),
      refused('a no-op update fails too: transition rules are not ratcheted', { field: 'value' }),
    ],
  },
  {
    name: 'CEL transition rules do not ratchet',
    steps: [
      { schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      ok('create with strings that do not start with k8s', { myStringField: 'myStringValue', myOtherField: 'myOtherField' }),
      {
        schema: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { myStringField: { type: 'string', ...rule("oldSelf != 'myStringValue' || self == 'validstring'") } },
        },
      },
      refused('change another field: the unchanged field fails its transition rule', {
        myOtherField: 'myNewOtherField',
        myStringField: 'myStringValue',
      }),
      ok('change both fields to valid values', { myStringField: 'validstring', myOtherField: 'myNewOtherField' }),
    ],
  },
  {
    name: 'CEL Add Change Rule',
    steps: [
      {
        schema: object({
          field: { type: 'object', additionalProperties: object({ stringField: string, intField: number, otherIntField: number }) },
        }),
      },
      ok('create with strings that do not start with k8s', {
        field: {
          object1: { stringField: 'a string', intField: 5 },
          object2: { stringField: 'another string', intField: 15 },
          object3: { stringField: 'a third string', intField: 7 },
        },
      }),
      {
        patchSchema: {
          properties: {
            // Bounded (upstream leaves them unbounded) so that this case does not hinge on the rule cost estimate.
            field: {
              maxProperties: 16,
              additionalProperties: {
                properties: { stringField: { maxLength: 64, ...rule("self.startsWith('k8s')", 'strings must have k8s prefix') } },
              },
            },
          },
        },
      },
      ok('add an entry that follows the new rule, ratcheting the old ones', {
        field: {
          object1: { stringField: 'a string', intField: 5 },
          object2: { stringField: 'another string', intField: 15 },
          object3: { stringField: 'a third string', intField: 7 },
          object4: { stringField: 'k8s third string', intField: 7 },
        },
      }),
      ok('change siblings, ratcheting the unchanged invalid strings', {
        field: {
          object1: { stringField: 'a string', intField: 15 },
          object2: { stringField: 'another string', intField: 10, otherIntField: 20 },
        },
      }),
      refused('change a ratcheted string to another invalid one', {
        field: { object2: { stringField: 'a changed string' }, object3: { stringField: 'a changed third string' } },
      }),
      refused('swap the strings between keys', {
        field: { object1: { stringField: 'k8s third string', intField: 1000 }, object4: { stringField: 'a string', intField: 7000 } },
      }),
      ok('fix the strings', {
        field: { object1: { stringField: 'k8s a stringy', intField: 1000 }, object4: { stringField: 'k8s third stringy', intField: 7000 } },
      }),
    ],
  },
];

describe('ratcheting through server-side apply (apiextensions’ integration scenarios)', () => {
  for (const s of scenarios) {
    it(s.name, () => runScenario(s.steps, false));
    if (s.skipStatus !== true) it(`Status: ${s.name}`, () => runScenario(s.steps, true));
  }
});

describe('ratcheting on the wire', () => {
  it('keeps a ratcheted CEL failure as a Warning header on a PUT and refuses a changed value', async () => {
    const api: ApiServer = createApiServer();
    const schema = object({ spec: object({ a: number, b: number }) });
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'things', kind: 'Thing' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      },
    };
    assert.equal((await handleJson(api, 'POST', CRD_PATH, crd)).status, 201);
    const things = '/apis/example.com/v1/namespaces/default/things';
    const created = await handleJson(api, 'POST', things, {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 't' },
      spec: { a: 1, b: 11 },
    });
    assert.equal(created.status, 201, created.text);
    const stored = (await handleJson(api, 'GET', `${CRD_PATH}/things.example.com`)).body;
    stored.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.b = { type: 'integer', maximum: 10, ...rule('self < 10') };
    assert.equal((await handleJson(api, 'PUT', `${CRD_PATH}/things.example.com`, stored)).status, 200);
    const put = (spec: unknown, rv: string) =>
      api.handle({
        method: 'PUT',
        path: `${things}/t`,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't', resourceVersion: rv }, spec }),
      });
    const kept = await put({ a: 2, b: 11 }, created.body.metadata.resourceVersion);
    assert.equal(kept.status, 200, kept.body);
    // The OpenAPI maximum is dropped silently; the CEL failure is a warning, as kube-apiserver sends it.
    const warning = String(kept.headers['warning'] ?? '');
    assert.match(warning, /spec\.b: Invalid value: .*failed rule: self < 10/);
    assert.doesNotMatch(warning, /less than or equal to 10/);
    const changed = await put({ a: 2, b: 12 }, JSON.parse(kept.body).metadata.resourceVersion);
    assert.equal(changed.status, 422);
    assert.match(changed.body, /spec\.b: Invalid value: 12: spec\.b in body should be less than or equal to 10/);
  });
});
