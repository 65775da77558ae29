// Imports schema's private quantity pattern, which the translated schemas must carry.
// Each rule that turns a TypeBox schema into a structural CRD schema, through the public face:
// what TypeBox's own forms become, which Kubernetes extensions the markers and shapes set, and the
// errors (naming the path) for what a structural schema cannot say.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import {
  Conditions,
  Duration,
  IntOrString,
  LabelSelector,
  ObjectReference,
  Quantity,
  SchemaNotStructuralError,
  embeddedResource,
  listAtomic,
  listMap,
  listSet,
  mapType,
  preserveUnknownFields,
  toStructural,
  withValidations,
} from 'kube-converge/schema';
import { QUANTITY_PATTERN } from '../../src/schema/shapes.js';

const t = (schema: unknown) => toStructural(schema, 'spec');
const rejects = (schema: unknown, path: string, reason: RegExp) =>
  assert.throws(
    () => t(schema),
    (e: unknown) =>
      e instanceof SchemaNotStructuralError && e.path === path && reason.test(e.reason) && e.code === 'CONVERGE_SCHEMA_NOT_STRUCTURAL',
  );

describe('TypeBox forms become structural forms', () => {
  it('keeps types, formats, bounds, patterns, defaults and descriptions as they are', () => {
    const s = Type.Object({
      name: Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z]+$', format: 'hostname', description: 'the name' }),
      replicas: Type.Integer({ minimum: 0, maximum: 10, default: 1, format: 'int32' }),
      ratio: Type.Number({ multipleOf: 0.5 }),
      tags: Type.Array(Type.String(), { minItems: 1, maxItems: 5 }),
      on: Type.Boolean(),
    });
    assert.deepEqual(t(s), {
      type: 'object',
      properties: {
        name: { description: 'the name', type: 'string', format: 'hostname', minLength: 1, maxLength: 63, pattern: '^[a-z]+$' },
        replicas: { type: 'integer', format: 'int32', default: 1, minimum: 0, maximum: 10 },
        ratio: { type: 'number', multipleOf: 0.5 },
        tags: { type: 'array', minItems: 1, maxItems: 5, items: { type: 'string' } },
        on: { type: 'boolean' },
      },
      required: ['name', 'replicas', 'ratio', 'tags', 'on'],
    });
  });

  it('leaves Type.Optional fields out of required, and drops required when nothing is', () => {
    assert.deepEqual(t(Type.Object({ a: Type.Optional(Type.String()), b: Type.String() })).required, ['b']);
    assert.equal(t(Type.Object({ a: Type.Optional(Type.String()) })).required, undefined);
  });

  it('turns a union of literals and Type.Enum into a typed enum', () => {
    assert.deepEqual(t(Type.Union([Type.Literal('Always'), Type.Literal('Never')])), { type: 'string', enum: ['Always', 'Never'] });
    assert.deepEqual(t(Type.Enum(['a', 'b'])), { type: 'string', enum: ['a', 'b'] });
    assert.deepEqual(t(Type.Literal('only')), { type: 'string', enum: ['only'] });
    // Integer literals make an integer enum, whatever number type TypeBox gives each literal.
    assert.deepEqual(t(Type.Union([Type.Literal(1), Type.Literal(2)])), { type: 'integer', enum: [1, 2] });
  });

  it('turns a union with null into nullable', () => {
    assert.deepEqual(t(Type.Union([Type.String({ minLength: 1 }), Type.Null()])), { type: 'string', nullable: true, minLength: 1 });
    assert.deepEqual(t(Type.Union([Type.Literal('a'), Type.Literal('b'), Type.Null()])), {
      type: 'string',
      enum: ['a', 'b'],
      nullable: true,
    });
  });

  it('turns a union of integer and string into int-or-string', () => {
    assert.deepEqual(t(Type.Union([Type.Integer(), Type.String()])), { 'x-kubernetes-int-or-string': true });
  });

  it('turns Type.Record into additionalProperties and Type.Unknown into preserved unknown fields', () => {
    assert.deepEqual(t(Type.Record(Type.String(), Type.Integer())), { type: 'object', additionalProperties: { type: 'integer' } });
    assert.deepEqual(t(Type.Object({ any: Type.Unknown() })).properties?.['any'], { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(t(Type.Object({}, { additionalProperties: true })), {
      type: 'object',
      properties: {},
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('drops additionalProperties: false (pruning does the same) and the identity keywords $id and $schema', () => {
    assert.deepEqual(t(Type.Object({ a: Type.String() }, { additionalProperties: false, $id: 'A' })), {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('merges an intersection of objects into one object', () => {
    const s = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Optional(Type.Integer()) })]);
    assert.deepEqual(t(s), { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] });
  });

  it('writes JSON Schema numeric exclusive bounds in the OpenAPI v3 boolean form', () => {
    assert.deepEqual(t(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })), {
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
  });

  it('keeps value-only junctors (branches without types), such as one-of-two-fields rules', () => {
    const s = Type.Object(
      { a: Type.Optional(Type.String()), b: Type.Optional(Type.String()) },
      { oneOf: [{ required: ['a'] }, { required: ['b'] }] },
    );
    assert.deepEqual(t(s).oneOf, [{ required: ['a'] }, { required: ['b'] }]);
  });
});

describe('markers set the Kubernetes extensions', () => {
  it('withValidations adds CEL rules with message, messageExpression, reason and fieldPath, after existing ones', () => {
    const once = withValidations(Type.Object({ min: Type.Integer(), max: Type.Integer() }), [
      { rule: 'self.min <= self.max', message: 'min above max' },
    ]);
    const twice = withValidations(once, [
      { rule: 'self.max < 100', messageExpression: "'max is ' + string(self.max)", reason: 'FieldValueForbidden', fieldPath: '.max' },
    ]);
    assert.deepEqual(t(twice)['x-kubernetes-validations'], [
      { rule: 'self.min <= self.max', message: 'min above max' },
      { rule: 'self.max < 100', messageExpression: "'max is ' + string(self.max)", reason: 'FieldValueForbidden', fieldPath: '.max' },
    ]);
    assert.equal(t(once)['x-kubernetes-validations']?.length, 1, 'the first schema is not changed');
  });

  it('markers keep Type.Optional, so a marked optional field stays out of required', () => {
    const s = Type.Object({ a: withValidations(Type.Optional(Type.String()), [{ rule: 'self != ""' }]), b: Type.String() });
    assert.deepEqual(t(s).required, ['b']);
  });

  it('list and map types: atomic, set, map with keys, granular or atomic maps', () => {
    assert.equal(t(listAtomic(Type.Array(Type.String())))['x-kubernetes-list-type'], 'atomic');
    assert.equal(t(listSet(Type.Array(Type.String())))['x-kubernetes-list-type'], 'set');
    const m = t(listMap(Type.Array(Type.Object({ name: Type.String(), port: Type.Integer() })), ['name', 'port']));
    assert.equal(m['x-kubernetes-list-type'], 'map');
    assert.deepEqual(m['x-kubernetes-list-map-keys'], ['name', 'port']);
    assert.equal(t(mapType(Type.Record(Type.String(), Type.String()), 'atomic'))['x-kubernetes-map-type'], 'atomic');
  });

  it('embeddedResource marks an object field as a whole Kubernetes object; preserveUnknownFields keeps undeclared fields', () => {
    assert.deepEqual(t(embeddedResource()), {
      type: 'object',
      properties: {},
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-embedded-resource': true,
    });
    assert.equal(t(preserveUnknownFields(Type.Object({ a: Type.String() })))['x-kubernetes-preserve-unknown-fields'], true);
  });
});

describe('shapes are written as Kubernetes publishes them', () => {
  it('IntOrString and Quantity are int-or-string, Quantity with the quantity pattern', () => {
    assert.deepEqual(t(IntOrString()), { 'x-kubernetes-int-or-string': true });
    assert.deepEqual(t(Quantity()), { pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true });
    for (const q of ['1', '500m', '1Gi', '1.5', '1e3']) assert.match(q, new RegExp(QUANTITY_PATTERN));
    assert.doesNotMatch('1 Gi', new RegExp(QUANTITY_PATTERN));
  });

  it('Duration is a string in the duration format', () => {
    assert.deepEqual(t(Duration()), { type: 'string', format: 'duration' });
  });

  it('Conditions is a metav1.Condition list keyed by type, with its required fields and status enum', () => {
    const c = t(Conditions());
    assert.equal(c['x-kubernetes-list-type'], 'map');
    assert.deepEqual(c['x-kubernetes-list-map-keys'], ['type']);
    const item = c.items as { required?: string[]; properties?: Record<string, { enum?: unknown[] }> };
    assert.deepEqual([...(item.required ?? [])].sort(), ['lastTransitionTime', 'message', 'reason', 'status', 'type']);
    assert.deepEqual(item.properties?.['status']?.enum, ['True', 'False', 'Unknown']);
  });

  it('ObjectReference and LabelSelector are atomic objects with the published fields', () => {
    const ref = t(ObjectReference());
    assert.equal(ref['x-kubernetes-map-type'], 'atomic');
    assert.deepEqual(Object.keys(ref.properties ?? {}).sort(), [
      'apiVersion',
      'fieldPath',
      'kind',
      'name',
      'namespace',
      'resourceVersion',
      'uid',
    ]);
    const sel = t(LabelSelector());
    assert.equal(sel['x-kubernetes-map-type'], 'atomic');
    assert.deepEqual(sel.properties?.['matchLabels'], { type: 'object', additionalProperties: { type: 'string' } });
    assert.deepEqual(sel.properties?.['matchExpressions']?.items?.required, ['key', 'operator']);
  });
});

describe('what a structural schema cannot say is an error naming the path', () => {
  it('a union of different non-literal types', () => {
    rejects(Type.Object({ v: Type.Union([Type.String(), Type.Boolean()]) }), 'spec.properties.v.anyOf', /union of string \| boolean/);
  });

  it('a tuple', () => {
    rejects(Type.Object({ pair: Type.Tuple([Type.String(), Type.Integer()]) }), 'spec.properties.pair', /tuple/);
  });

  it('a $ref', () => {
    rejects(Type.Object({ r: Type.Ref('Other') }), 'spec.properties.r', /\$ref/);
  });

  it('uniqueItems, pointing at listSet', () => {
    rejects(Type.Array(Type.String(), { uniqueItems: true }), 'spec.uniqueItems', /listSet/);
  });

  it('keys restricted by a pattern', () => {
    rejects(Type.Record(Type.String({ pattern: '^x-' }), Type.String()), 'spec.patternProperties', /pattern/);
  });

  it('null alone and keywords with no counterpart', () => {
    rejects(Type.Object({ n: Type.Null() }), 'spec.properties.n.type', /null alone/);
    rejects(Type.Array(Type.String(), { contains: Type.Literal('a') }), 'spec.contains', /no counterpart/);
  });

  it('list-map keys that are not required item properties, and sets of objects', () => {
    const item = Type.Object({ name: Type.Optional(Type.String()), v: Type.String() });
    rejects(listMap(Type.Array(item), ['name']), 'spec', /key name must be required or have a default/);
    rejects(listSet(Type.Array(item)), 'spec', /scalar items/);
  });

  it('an enum of mixed types', () => {
    rejects(Type.Enum(['a', 1] as never), 'spec.enum', /one scalar type/);
  });
});
