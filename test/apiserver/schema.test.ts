// Imports the private schema/ face: unit tests of structural schemas, pruning, defaulting and validation.
// Structural schemas, pruning, defaulting and validation, unit-tested as the pure functions they are:
// imported from the schema folder's face, since the apiserver layer's index exports only what clients
// of the server need and these are reached over HTTP only through a CRD.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateStructuralSchema, pruneUnknownFields, applyDefaults, validateAgainstSchema } from '../../src/apiserver/schema/index.js';
import type { FieldCause } from '../../src/apiserver/schema/index.js';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';

const webAppSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['image'],
      properties: {
        image: { type: 'string', minLength: 1, maxLength: 20, pattern: '^[a-z0-9:./-]+$' },
        replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: 10, default: 1 },
        tier: { type: 'string', enum: ['frontend', 'backend'] },
        ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
        port: { 'x-kubernetes-int-or-string': true },
        since: { type: 'string', format: 'date-time' },
        nickname: { type: 'string', nullable: true },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        env: {
          type: 'array',
          maxItems: 3,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string', default: '' } } },
        },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        config: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        resources: { type: 'object', default: {}, properties: { cpu: { type: 'string', default: '100m' } } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
} as JSONSchemaProps;

const byField = (causes: FieldCause[]) => Object.fromEntries(causes.map((c) => [c.field, c]));

describe('structural schema checks', () => {
  it('accepts a structural schema', () => {
    assert.deepEqual(validateStructuralSchema(webAppSchema, 'spec.versions[0].schema.openAPIV3Schema'), []);
  });

  it('requires a type on every specified field and an object at the root', () => {
    const causes = validateStructuralSchema({ properties: { spec: { properties: { a: {} } } } } as JSONSchemaProps, 'schema');
    // Sorted by their text, as apiextensions sorts them.
    assert.deepEqual(causes, [
      {
        reason: 'FieldValueRequired',
        field: 'schema.properties[spec].properties[a].type',
        message: 'Required value: must not be empty for specified object fields',
      },
      {
        reason: 'FieldValueRequired',
        field: 'schema.properties[spec].type',
        message: 'Required value: must not be empty for specified object fields',
      },
      { reason: 'FieldValueRequired', field: 'schema.type', message: 'Required value: must not be empty at the root' },
    ]);
  });

  it('allows untyped fields that preserve unknown fields or are int-or-string', () => {
    const schema = {
      type: 'object',
      properties: { a: { 'x-kubernetes-preserve-unknown-fields': true }, b: { 'x-kubernetes-int-or-string': true } },
    } as JSONSchemaProps;
    assert.deepEqual(validateStructuralSchema(schema, 's'), []);
  });

  it('forbids types, defaults and new fields inside junctors, and properties beside additionalProperties', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'object', properties: { x: { type: 'string' } }, anyOf: [{ type: 'object' }] },
        b: { type: 'object', properties: { x: { type: 'string' } }, additionalProperties: { type: 'string' } },
      },
      anyOf: [{ properties: { y: { minLength: 1 } } }],
    } as JSONSchemaProps;
    const fields = validateStructuralSchema(schema, 's').map((c) => `${c.field}: ${c.message}`);
    assert.deepEqual(fields, [
      's.properties[a].anyOf[0].type: Forbidden: must be empty to be structural',
      's.properties[y]: Required value: because it is defined in s.anyOf[0].properties[y]',
      's.properties[b].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
    ]);
  });

  it('lets root metadata restrict only name and generateName, and list-type map needs keys', () => {
    const schema = {
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, labels: { type: 'object' } } },
        list: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } },
      },
    } as JSONSchemaProps;
    assert.deepEqual(
      validateStructuralSchema(schema, 's').map((c) => c.field),
      ['s.properties[metadata]', 's.properties[list].x-kubernetes-list-map-keys'],
    );
  });
});

describe('pruning unknown fields', () => {
  it('drops undeclared fields and reports their paths, keeping apiVersion, kind and ObjectMeta fields at the root', () => {
    const obj = {
      apiVersion: 'platform.converge.dev/v1alpha1',
      kind: 'WebApp',
      metadata: { name: 'a', labels: { x: 'y' }, bogus: 1 },
      spec: { image: 'nginx', extra: true, env: [{ name: 'A', typo: 'x' }] },
      top: 1,
    };
    const pruned = pruneUnknownFields(obj, webAppSchema);
    assert.deepEqual(pruned, ['.metadata.bogus', '.spec.env[0].typo', '.spec.extra', '.top']);
    assert.deepEqual(obj, {
      apiVersion: 'platform.converge.dev/v1alpha1',
      kind: 'WebApp',
      metadata: { name: 'a', labels: { x: 'y' } },
      spec: { image: 'nginx', env: [{ name: 'A' }] },
    });
  });

  it('keeps everything under x-kubernetes-preserve-unknown-fields while still pruning its declared children', () => {
    const obj = { spec: { config: { anything: { deep: 1 }, known: { a: 'x', b: 'pruned' } } } };
    assert.deepEqual(pruneUnknownFields(obj, webAppSchema), ['.spec.config.known.b']);
    assert.deepEqual(obj, { spec: { config: { anything: { deep: 1 }, known: { a: 'x' } } } });
  });

  it('keeps apiVersion, kind and metadata of embedded resources and map values under additionalProperties', () => {
    const obj = {
      spec: {
        template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a', y: 'b' } },
        labels: { a: 'b' },
        port: 'http',
      },
    };
    assert.deepEqual(pruneUnknownFields(obj, webAppSchema), ['.spec.template.spec.y']);
    assert.deepEqual(obj.spec.template, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a' } });
    assert.equal(obj.spec.port, 'http');
  });
});

describe('defaulting', () => {
  it('fills absent fields with copies of their defaults, nested objects top-down', () => {
    const obj: { spec: Record<string, unknown> } = { spec: { image: 'nginx', env: [{ name: 'A' }, { name: 'B', value: 'set' }] } };
    applyDefaults(obj, webAppSchema);
    assert.deepEqual(obj.spec, {
      image: 'nginx',
      replicas: 1,
      env: [
        { name: 'A', value: '' },
        { name: 'B', value: 'set' },
      ],
      resources: { cpu: '100m' },
    });
  });

  it('replaces null with the default unless the field is nullable, and leaves set values alone', () => {
    const obj = { spec: { image: 'nginx', replicas: null, resources: { cpu: '2' } } };
    applyDefaults(obj, webAppSchema);
    assert.deepEqual(obj.spec, { image: 'nginx', replicas: 1, resources: { cpu: '2' } });
    const defaults = { type: 'object', properties: { n: { type: 'string', nullable: true, default: 'x' } } } as JSONSchemaProps;
    const withNull = { n: null };
    applyDefaults(withNull, defaults);
    assert.deepEqual(withNull, { n: null });
  });
});

describe('validation against a schema', () => {
  it('accepts a valid object', () => {
    const obj = {
      apiVersion: 'platform.converge.dev/v1alpha1',
      kind: 'WebApp',
      metadata: { name: 'a' },
      spec: {
        image: 'nginx:1.27',
        replicas: 3,
        tier: 'backend',
        ratio: 0.5,
        port: 8080,
        since: '2026-01-02T03:04:05Z',
        nickname: null,
        labels: { a: 'b' },
        env: [{ name: 'A', value: '1' }],
        tags: ['x', 'y'],
      },
      status: { ready: true },
    };
    assert.deepEqual(validateAgainstSchema(obj, webAppSchema), []);
  });

  it('reports a wrong type with the real server wording and stops descending into that value', () => {
    assert.deepEqual(validateAgainstSchema({ spec: { image: 'x', replicas: 'three' } }, webAppSchema), [
      {
        reason: 'FieldValueTypeInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ]);
    assert.deepEqual(
      validateAgainstSchema({ spec: { image: 'x', replicas: 1.5 } }, webAppSchema)[0]?.message,
      'Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    );
    assert.deepEqual(validateAgainstSchema({ spec: { image: 'x', ratio: 2 } }, webAppSchema), []);
    assert.deepEqual(
      validateAgainstSchema({ spec: { image: null } }, webAppSchema).map((c) => c.message),
      ['Invalid value: "null": spec.image in body must be of type string: "null"'],
    );
  });

  it('reports required, enum, bounds, length, pattern and format problems, one cause per field', () => {
    const causes = byField(
      validateAgainstSchema(
        {
          spec: {
            replicas: 11,
            tier: 'middle',
            ratio: 0,
            since: 'yesterday',
            labels: { a: 'b', c: 'd', e: 'f' },
            port: true,
            tags: ['x', 'x'],
          },
        },
        webAppSchema,
      ),
    );
    assert.deepEqual(causes['spec.image'], { reason: 'FieldValueRequired', field: 'spec.image', message: 'Required value' });
    assert.equal(causes['spec.replicas']?.message, 'Invalid value: 11: spec.replicas in body should be less than or equal to 10');
    assert.deepEqual(causes['spec.tier'], {
      reason: 'FieldValueNotSupported',
      field: 'spec.tier',
      message: 'Unsupported value: "middle": supported values: "frontend", "backend"',
    });
    assert.equal(causes['spec.ratio']?.message, 'Invalid value: 0: spec.ratio in body should be greater than 0');
    assert.equal(causes['spec.since']?.message, 'Invalid value: "yesterday": spec.since in body must be of type date-time: "yesterday"');
    assert.equal(causes['spec.labels']?.reason, 'FieldValueTooMany');
    assert.equal(causes['spec.port']?.reason, 'FieldValueTypeInvalid');
    assert.deepEqual(causes['spec.tags[1]'], { reason: 'FieldValueDuplicate', field: 'spec.tags[1]', message: 'Duplicate value: "x"' });
  });

  it('names nested fields inside lists and maps', () => {
    const causes = validateAgainstSchema(
      {
        spec: { image: 'UPPER', env: [{ name: 'A' }, { value: 'no name' }, { name: 'A' }], labels: { k: 5 } },
      },
      webAppSchema,
    );
    assert.deepEqual(
      causes.map((c) => `${c.field}: ${c.message}`),
      [
        'spec.image: Invalid value: "UPPER": spec.image in body should match \'^[a-z0-9:./-]+$\'',
        'spec.env[1].name: Required value',
        'spec.labels.k: Invalid value: "integer": spec.labels.k in body must be of type string: "integer"',
        // List uniqueness is a pass of its own after the OpenAPI checks, as in apiextensions.
        'spec.env[2]: Duplicate value: {"name":"A"}',
      ],
    );
  });

  it('checks string length in characters, too-long strings with FieldValueTooLong', () => {
    const causes = validateAgainstSchema({ spec: { image: 'a'.repeat(21) } }, webAppSchema);
    assert.deepEqual(causes, [{ reason: 'FieldValueTooLong', field: 'spec.image', message: 'Too long: may not be more than 20 bytes' }]);
    assert.deepEqual(
      validateAgainstSchema({ spec: { image: '' } }, webAppSchema)[0]?.message,
      'Invalid value: "": spec.image in body should be at least 1 chars long',
    );
  });

  it('checks int32 ranges, byte and date formats, and anyOf/oneOf/not', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', format: 'int32' },
        b: { type: 'string', format: 'byte' },
        d: { type: 'string', format: 'date' },
        either: { type: 'string', anyOf: [{ enum: ['a'] }, { pattern: '^z' }] },
        notEmpty: { type: 'string', not: { enum: [''] } },
      },
    } as JSONSchemaProps;
    assert.deepEqual(validateAgainstSchema({ n: 5, b: 'aGVsbG8=', d: '2024-02-29', either: 'zz', notEmpty: 'x' }, schema), []);
    const causes = validateAgainstSchema({ n: 2 ** 31, b: 'not base64!', d: '2023-02-29', either: 'b', notEmpty: '' }, schema);
    assert.deepEqual(
      causes.map((c) => c.field),
      ['n', 'b', 'd', 'either', 'notEmpty'],
    );
  });
});

describe('structural schema checks of defaults', () => {
  it('rejects a default of the wrong type or with fields the schema would prune', () => {
    const schema = {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 'one' },
        resources: { type: 'object', default: { cpu: '1', gpu: '2' }, properties: { cpu: { type: 'string' } } },
        ok: { type: 'object', default: { cpu: '1' }, properties: { cpu: { type: 'string' } } },
      },
    } as JSONSchemaProps;
    assert.deepEqual(validateStructuralSchema(schema, 's'), [
      {
        reason: 'FieldValueTypeInvalid',
        field: 's.properties[replicas].default',
        message: 'Invalid value: "string": in body must be of type integer: "string"',
      },
      {
        reason: 'FieldValueInvalid',
        field: 's.properties[resources].default',
        message: 'Invalid value: {"cpu":"1","gpu":"2"}: must not have unknown fields',
      },
    ]);
  });
});
