// Imports the API server's private schema functions: these are apiextensions-apiserver's unit tables, held against the functions they test.
// apiextensions-apiserver's test tables for pruning and defaulting, as ours: each case's object,
// schema and expected result, from
// https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/pruning/algorithm_test.go (TestPrune),
// .../defaulting/algorithm_test.go (TestDefault) and .../defaulting/prunenulls_test.go.
// A Go `Structural{}` is `{}` here; `nil` schemas have no form in our API and are left out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { pruneBySchema, pruneNonNullableNulls, setDefaults } from '../../src/apiserver/schema/index.js';

const s = (schema: object): JSONSchemaProps => schema as JSONSchemaProps;

describe('pruning (apiextensions TestPrune)', () => {
  const cases: { name: string; json: string; schema: JSONSchemaProps; isResourceRoot?: boolean; expected: string; pruned: string[] }[] = [
    { name: 'scalar', json: '4', schema: s({}), expected: '4', pruned: [] },
    { name: 'scalar array', json: '[1,2]', schema: s({ items: {} }), expected: '[1,2]', pruned: [] },
    {
      name: 'object array',
      json: '[{"a":1},{"b":1},{"a":1,"b":2,"c":3}]',
      schema: s({ items: { properties: { a: {}, c: {} } } }),
      expected: '[{"a":1},{},{"a":1,"c":3}]',
      pruned: ['[1].b', '[2].b'],
    },
    {
      name: 'object array object',
      json: '{"array":[{"a":1},{"b":1},{"a":1,"b":2,"c":3}],"unspecified":{"a":1},"specified":{"a":1,"b":2,"c":3}}',
      schema: s({ properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } } }),
      expected: '{"array":[{"a":1},{},{"a":1,"c":3}],"specified":{"a":1,"c":3}}',
      pruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
    },
    {
      name: 'nested x-kubernetes-preserve-unknown-fields',
      json: `{
        "unspecified":"bar", "alpha": "abc", "beta": 42.0, "unspecifiedObject": {"unspecified": "bar"},
        "pruning": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {"unspecified": "bar"},
          "apiVersion": "unknown", "preserving": {"unspecified": "bar"}},
        "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {"unspecified": "bar"},
          "preserving": {"unspecified": "bar"}, "preservingUnknownType": [{"foo":true},{"bar":true}]},
        "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}},
        "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {"unspecified":"bar"}, "unspecified": "bar"}}
      }`,
      schema: s({
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          alpha: { type: 'string' },
          beta: { type: 'number' },
          pruning: {
            type: 'object',
            properties: { preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, pruning: { type: 'object' } },
          },
          preserving: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: {
              preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              preservingUnknownType: { type: '', 'x-kubernetes-preserve-unknown-fields': true },
              pruning: { type: 'object' },
            },
          },
          preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
            'x-kubernetes-preserve-unknown-fields': true,
            type: 'object',
            additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } },
          },
          preservingAdditionalPropertiesKeyPruneValues: {
            type: 'object',
            additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } },
          },
        },
      }),
      isResourceRoot: false,
      expected: `{
        "unspecified":"bar", "alpha": "abc", "beta": 42.0, "unspecifiedObject": {"unspecified": "bar"},
        "pruning": {"pruning": {}, "preserving": {"unspecified": "bar"}},
        "preserving": {"unspecified": "bar", "unspecifiedObject": {"unspecified": "bar"}, "pruning": {},
          "preserving": {"unspecified": "bar"}, "preservingUnknownType": [{"foo":true},{"bar":true}]},
        "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields": {"foo": {"specified": {}}},
        "preservingAdditionalPropertiesKeyPruneValues": {"foo": {"specified": {}}}
      }`,
      pruned: [
        'preserving.pruning.unspecified',
        'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
        'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified',
        'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
        'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified',
        'pruning.apiVersion',
        'pruning.pruning.unspecified',
        'pruning.unspecified',
        'pruning.unspecifiedObject',
      ],
    },
    {
      name: 'additionalProperties with schema',
      json: '{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1}}}',
      schema: s({ properties: { a: {}, c: { additionalProperties: { type: 'integer' } } } }),
      expected: '{"a":1,"c":{"a":1,"b":2,"c":{}}}',
      pruned: ['b', 'c.c.a'],
    },
    {
      name: 'additionalProperties with bool',
      json: '{"a":1,"b":1,"c":{"a":1,"b":2,"c":{"a":1, "apiVersion": "unknown"}}}',
      schema: s({ properties: { a: {}, c: { additionalProperties: false } } }),
      expected: '{"a":1,"c":{"a":1,"b":2,"c":{}}}',
      pruned: ['b', 'c.c.a', 'c.c.apiVersion'],
    },
    {
      name: 'x-kubernetes-embedded-resource',
      json: JSON.stringify({
        apiVersion: 'foo/v1',
        kind: 'Foo',
        metadata: { name: 'instance', unspecified: 'bar' },
        unspecified: 'bar',
        pruned: {
          apiVersion: 'foo/v1',
          kind: 'Foo',
          unspecified: 'bar',
          metadata: { name: 'instance', unspecified: 'bar' },
          spec: { unspecified: 'bar' },
        },
        preserving: {
          apiVersion: 'foo/v1',
          kind: 'Foo',
          unspecified: 'bar',
          metadata: { name: 'instance', unspecified: 'bar' },
          spec: { unspecified: 'bar' },
        },
        nested: {
          apiVersion: 'foo/v1',
          kind: 'Foo',
          unspecified: 'bar',
          metadata: { name: 'instance', unspecified: 'bar' },
          spec: {
            unspecified: 'bar',
            embedded: {
              apiVersion: 'foo/v1',
              kind: 'Foo',
              unspecified: 'bar',
              metadata: { name: 'instance', unspecified: 'bar' },
              spec: { unspecified: 'bar' },
            },
          },
        },
      }),
      schema: s({
        type: 'object',
        properties: {
          pruned: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
          preserving: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          nested: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: {
              spec: {
                type: 'object',
                properties: {
                  embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
                },
              },
            },
          },
        },
      }),
      isResourceRoot: false,
      expected: JSON.stringify({
        pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' }, spec: {} },
        preserving: {
          apiVersion: 'foo/v1',
          kind: 'Foo',
          unspecified: 'bar',
          metadata: { name: 'instance', unspecified: 'bar' },
          spec: { unspecified: 'bar' },
        },
        nested: {
          apiVersion: 'foo/v1',
          kind: 'Foo',
          metadata: { name: 'instance', unspecified: 'bar' },
          spec: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance', unspecified: 'bar' }, spec: {} } },
        },
      }),
      pruned: [
        'nested.spec.embedded.spec.unspecified',
        'nested.spec.embedded.unspecified',
        'nested.spec.unspecified',
        'nested.unspecified',
        'pruned.spec.unspecified',
        'pruned.unspecified',
        'unspecified',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj: unknown = JSON.parse(c.json);
      const pruned = pruneBySchema(obj, c.schema, { isResourceRoot: c.isResourceRoot ?? false });
      assert.deepEqual(obj, JSON.parse(c.expected));
      assert.deepEqual(pruned, c.pruned);
    });
  }
});

describe('defaulting (apiextensions TestDefault)', () => {
  const cases: { name: string; json: string; schema: JSONSchemaProps; expected: string }[] = [
    { name: 'scalar', json: '4', schema: s({ default: 'foo' }), expected: '4' },
    { name: 'scalar array', json: '[1,2]', schema: s({ items: { default: 'foo' } }), expected: '[1,2]' },
    {
      name: 'object array',
      json: '[{"a":1},{"b":1},{"c":1}]',
      schema: s({ items: { properties: { a: { default: 'A' }, b: { default: 'B' }, c: { default: 'C' } } } }),
      expected: '[{"a":1,"b":"B","c":"C"},{"a":"A","b":1,"c":"C"},{"a":"A","b":"B","c":1}]',
    },
    {
      name: 'object array object',
      json: '{"array":[{"a":1},{"b":2}],"object":{"a":1},"additionalProperties":{"x":{"a":1},"y":{"b":2}}}',
      schema: s({
        properties: {
          array: { items: { properties: { a: { default: 'A' }, b: { default: 'B' } } } },
          object: { properties: { a: { default: 'N' }, b: { default: 'O' } } },
          additionalProperties: { additionalProperties: { properties: { a: { default: 'alpha' }, b: { default: 'beta' } } } },
          foo: { default: 'bar' },
        },
      }),
      expected:
        '{"array":[{"a":1,"b":"B"},{"a":"A","b":2}],"object":{"a":1,"b":"O"},"additionalProperties":{"x":{"a":1,"b":"beta"},"y":{"a":"alpha","b":2}},"foo":"bar"}',
    },
    {
      name: 'empty and null',
      json: '[{},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":null},{"a":[]},{"a":{}}]',
      schema: s({ items: { properties: { a: { default: 'A' } } } }),
      expected: '[{"a":"A"},{"a":1},{"a":0},{"a":0.0},{"a":""},{"a":"A"},{"a":[]},{"a":{}}]',
    },
    {
      name: 'null in nullable list',
      json: '[null]',
      schema: s({ nullable: true, items: { properties: { a: { default: 'A' } } } }),
      expected: '[null]',
    },
    { name: 'null in non-nullable list', json: '[null]', schema: s({ nullable: false, items: { default: 'A' } }), expected: '["A"]' },
    {
      name: 'null in nullable object',
      json: '{"a": null}',
      schema: s({ properties: { a: { nullable: true, default: 'A' } } }),
      expected: '{"a": null}',
    },
    {
      name: 'null in non-nullable object',
      json: '{"a": null}',
      schema: s({ properties: { a: { nullable: false, default: 'A' } } }),
      expected: '{"a": "A"}',
    },
    {
      name: 'null in nullable object with additionalProperties',
      json: '{"a": null}',
      schema: s({ additionalProperties: { nullable: true, default: 'A' } }),
      expected: '{"a": null}',
    },
    {
      name: 'null in non-nullable object with additionalProperties',
      json: '{"a": null}',
      schema: s({ additionalProperties: { nullable: false, default: 'A' } }),
      expected: '{"a": "A"}',
    },
    { name: 'null unknown field', json: '{"a": null}', schema: s({ additionalProperties: true }), expected: '{"a": null}' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const obj: unknown = JSON.parse(c.json);
      setDefaults(obj, c.schema);
      assert.deepEqual(obj, JSON.parse(c.expected));
    });
  }
});

describe('dropping nulls that cannot be defaulted (apiextensions TestPruneNonNullableNullsWithoutDefaults)', () => {
  it('scalar', () => {
    const obj: unknown = 4;
    pruneNonNullableNulls(obj, s({ default: 'foo' }));
    assert.equal(obj, 4);
  });

  it('object array', () => {
    const obj: unknown = JSON.parse('[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]');
    const schema = s({ items: { properties: { a: { default: 'A' }, b: { nullable: true }, c: { default: 'C', nullable: true }, d: {} } } });
    pruneNonNullableNulls(obj, schema);
    assert.deepEqual(obj, JSON.parse('[{"a":null},{"b":null},{"c":null},{},{"e":null}]'));
  });
});
