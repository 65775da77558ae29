// Imports the API server's private schema functions: these are apiextensions-apiserver's unit tables, held against the functions they test.
// apiextensions-apiserver's own test tables for structural schemas, as ours: each case's schema
// and its expected (and unexpected) errors, verbatim, from
// https://github.com/kubernetes/apiextensions-apiserver/blob/master/test/integration/validation_test.go
// (TestNonStructuralSchemaConditionForCRDV1 and …ForCRDV1Beta1MigratedData) and
// https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/schema/validation_test.go.
// As there, a case lists errors the result must contain, so the OpenAPI rules reported beside the
// structural ones do not make a case fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { validateStructuralSchema } from '../../src/apiserver/schema/index.js';

interface Case {
  desc: string;
  schema: string;
  expected?: string[];
  unexpected?: string[];
}

const texts = (schema: JSONSchemaProps, path: string): string[] =>
  validateStructuralSchema(schema, path).map((c) => `${c.field}: ${c.message}`);

function runCases(path: string, cases: Case[]): void {
  for (const c of cases) {
    it(c.desc, () => {
      const errors = texts(parseYaml(c.schema) as JSONSchemaProps, path);
      if ((c.expected ?? []).length === 0) assert.deepEqual(errors, []);
      for (const e of c.expected ?? []) assert.ok(errors.includes(e), `expected ${JSON.stringify(e)} among:\n${errors.join('\n')}`);
      for (const u of c.unexpected ?? [])
        assert.ok(!errors.some((e) => e.includes(u)), `unexpected ${JSON.stringify(u)} among:\n${errors.join('\n')}`);
    });
  }
}

describe('non-structural schemas of a v1 CRD (apiextensions TestNonStructuralSchemaConditionForCRDV1)', () => {
  const p = 'spec.validation.openAPIV3Schema';
  runCases(p, [
    {
      desc: 'int-or-string and preserve-unknown-fields true',
      schema: 'x-kubernetes-preserve-unknown-fields: true\nx-kubernetes-int-or-string: true\n',
      expected: [`${p}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`],
    },
    {
      desc: 'int-or-string and embedded-resource true',
      schema: 'type: object\nx-kubernetes-embedded-resource: true\nx-kubernetes-int-or-string: true\n',
      expected: [`${p}.x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true`],
    },
    {
      desc: 'embedded-resource without preserve-unknown-fields',
      schema: 'type: object\nx-kubernetes-embedded-resource: true\n',
      expected: [
        `${p}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      ],
    },
    {
      desc: 'embedded-resource without preserve-unknown-fields, but properties',
      schema: `
type: object
x-kubernetes-embedded-resource: true
properties:
 apiVersion:
   type: string
 kind:
   type: string
 metadata:
   type: object
`,
    },
    {
      desc: 'embedded-resource with preserve-unknown-fields',
      schema: 'type: object\nx-kubernetes-embedded-resource: true\nx-kubernetes-preserve-unknown-fields: true\n',
    },
    {
      desc: 'embedded-resource with wrong type',
      schema: 'type: array\nx-kubernetes-embedded-resource: true\nx-kubernetes-preserve-unknown-fields: true\n',
      expected: [`${p}.type: Invalid value: "array": must be object if x-kubernetes-embedded-resource is true`],
    },
    {
      desc: 'embedded-resource with empty type',
      schema: 'type: ""\nx-kubernetes-embedded-resource: true\nx-kubernetes-preserve-unknown-fields: true\n',
      expected: [`${p}.type: Required value: must be object if x-kubernetes-embedded-resource is true`],
    },
    {
      desc: 'forbidden vendor extensions in nested value validation',
      schema: `
type: object
properties:
 int-or-string:
   x-kubernetes-int-or-string: true
 embedded-resource:
   type: object
   x-kubernetes-embedded-resource: true
   x-kubernetes-preserve-unknown-fields: true
not:
 properties:
   int-or-string:
     x-kubernetes-int-or-string: true
   embedded-resource:
     x-kubernetes-embedded-resource: true
     x-kubernetes-preserve-unknown-fields: true
allOf:
- properties:
   int-or-string:
     x-kubernetes-int-or-string: true
   embedded-resource:
     x-kubernetes-embedded-resource: true
     x-kubernetes-preserve-unknown-fields: true
anyOf:
- properties:
   int-or-string:
     x-kubernetes-int-or-string: true
   embedded-resource:
     x-kubernetes-embedded-resource: true
     x-kubernetes-preserve-unknown-fields: true
oneOf:
- properties:
   int-or-string:
     x-kubernetes-int-or-string: true
   embedded-resource:
     x-kubernetes-embedded-resource: true
     x-kubernetes-preserve-unknown-fields: true
`,
      expected: ['allOf[0]', 'anyOf[0]', 'oneOf[0]', 'not'].flatMap((j) => [
        `${p}.${j}.properties[embedded-resource].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural`,
        `${p}.${j}.properties[embedded-resource].x-kubernetes-embedded-resource: Forbidden: must be false to be structural`,
        `${p}.${j}.properties[int-or-string].x-kubernetes-int-or-string: Forbidden: must be false to be structural`,
      ]),
    },
    {
      desc: 'missing types with extensions',
      schema: `
properties:
 foo:
   properties:
     a: {}
 bar:
   items:
     additionalProperties:
       properties:
         a: {}
       items: {}
 abc:
   additionalProperties:
     properties:
       a:
         items:
           additionalProperties:
             items:
 json:
   x-kubernetes-preserve-unknown-fields: true
   properties:
     a: {}
 int-or-string:
   x-kubernetes-int-or-string: true
   properties:
     a: {}
`,
      expected: [
        `${p}.properties[foo].properties[a].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[foo].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[int-or-string].properties[a].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[json].properties[a].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[abc].additionalProperties.properties[a].items.additionalProperties.type: Required value: must not be empty for specified object fields`,
        `${p}.properties[abc].additionalProperties.properties[a].items.type: Required value: must not be empty for specified array items`,
        `${p}.properties[abc].additionalProperties.properties[a].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[abc].additionalProperties.type: Required value: must not be empty for specified object fields`,
        `${p}.properties[abc].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[bar].items.additionalProperties.items.type: Required value: must not be empty for specified array items`,
        `${p}.properties[bar].items.additionalProperties.properties[a].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[bar].items.additionalProperties.type: Required value: must not be empty for specified object fields`,
        `${p}.properties[bar].items.type: Required value: must not be empty for specified array items`,
        `${p}.properties[bar].type: Required value: must not be empty for specified object fields`,
        `${p}.type: Required value: must not be empty at the root`,
      ],
    },
    {
      desc: 'int-or-string variants',
      schema: `
type: object
properties:
 a:
   x-kubernetes-int-or-string: true
 b:
   x-kubernetes-int-or-string: true
   anyOf:
   - type: integer
   - type: string
   allOf:
   - pattern: abc
 c:
   x-kubernetes-int-or-string: true
   allOf:
   - anyOf:
     - type: integer
     - type: string
   - pattern: abc
   - pattern: abc
 d:
   x-kubernetes-int-or-string: true
   anyOf:
   - type: integer
   - type: string
     pattern: abc
 e:
   x-kubernetes-int-or-string: true
   allOf:
   - anyOf:
     - type: integer
     - type: string
       pattern: abc
   - pattern: abc
 f:
   x-kubernetes-int-or-string: true
   anyOf:
   - type: integer
   - type: string
   - pattern: abc
 g:
   x-kubernetes-int-or-string: true
   anyOf:
   - type: string
   - type: integer
`,
      expected: [
        `${p}.properties[d].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${p}.properties[d].anyOf[1].type: Forbidden: must be empty to be structural`,
        `${p}.properties[e].allOf[0].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${p}.properties[e].allOf[0].anyOf[1].type: Forbidden: must be empty to be structural`,
        `${p}.properties[f].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${p}.properties[f].anyOf[1].type: Forbidden: must be empty to be structural`,
        `${p}.properties[g].anyOf[0].type: Forbidden: must be empty to be structural`,
        `${p}.properties[g].anyOf[1].type: Forbidden: must be empty to be structural`,
      ],
      unexpected: [`${p}.properties[a]`, `${p}.properties[b]`, `${p}.properties[c]`],
    },
    {
      desc: 'structural complete',
      schema: `
type: object
properties:
 a:
   type: string
 b:
   type: object
   properties:
     a:
       type: string
     b:
       type: array
       items:
         type: string
 c:
   type: array
   items:
     type: array
     items:
       type: object
       properties:
         a:
           type: string
 d:
   type: array
   items:
     type: string
 e:
   type: string
 f:
   type: string
 g:
   type: string
not:
 properties:
   a: {}
   b:
     not:
       properties:
         a: {}
         b:
           items: {}
   c:
     items:
       not:
         items:
           properties:
             a: {}
   d:
     items: {}
allOf:
- properties:
   e: {}
anyOf:
- properties:
   f: {}
oneOf:
- properties:
   g: {}
`,
    },
    ...['name', 'generateName', 'name and generateName'].map((which) => ({
      desc: `metadata with ${which} property`,
      schema: `
type: object
properties:
 metadata:
   type: object
   properties:
${which
  .split(' and ')
  .map((f) => `     ${f}:\n       type: string\n       pattern: "^[a-z]+$"\n`)
  .join('')}`,
    })),
    {
      desc: 'items slice',
      schema: `
type: object
properties:
 slice:
   type: array
   items:
   - type: string
   - type: integer
`,
      expected: [`${p}.properties[slice].items: Forbidden: items must be a schema object and not an array`],
    },
    {
      desc: 'items slice in value validation',
      schema: `
type: object
properties:
 slice:
   type: array
   items:
     type: string
   not:
     items:
     - type: string
`,
      expected: [`${p}.properties[slice].not.items: Forbidden: items must be a schema object and not an array`],
    },
  ]);
});

describe('non-structural schemas of a migrated CRD (apiextensions TestNonStructuralSchemaConditionForCRDV1Beta1MigratedData)', () => {
  const p = 'spec.versions[0].schema.openAPIV3Schema';
  runCases(p, [
    { desc: 'preserve unknown fields is false', schema: 'type: object\n' },
    { desc: 'no top-level type', schema: 'type: ""\n', expected: [`${p}.type: Required value: must not be empty at the root`] },
    {
      desc: 'non-object top-level type',
      schema: 'type: "integer"\n',
      expected: [`${p}.type: Invalid value: "integer": must be object at the root`],
    },
    {
      desc: 'forbidden in nested value validation',
      schema: `
type: object
properties:
 foo:
   type: string
not:
 type: string
 additionalProperties: true
 title: hello
 description: world
 nullable: true
allOf:
- properties:
   foo:
     type: string
     additionalProperties: true
     title: hello
     description: world
     nullable: true
anyOf:
- items:
   type: string
   additionalProperties: true
   title: hello
   description: world
   nullable: true
oneOf:
- properties:
   foo:
     type: string
     additionalProperties: true
     title: hello
     description: world
     nullable: true
`,
      expected: [
        ...['anyOf[0].items', 'allOf[0].properties[foo]', 'oneOf[0].properties[foo]', 'not'].flatMap((at) => [
          `${p}.${at}.type: Forbidden: must be empty to be structural`,
          `${p}.${at}.additionalProperties: Forbidden: must be undefined to be structural`,
          `${p}.${at}.title: Forbidden: must be empty to be structural`,
          `${p}.${at}.description: Forbidden: must be empty to be structural`,
          `${p}.${at}.nullable: Forbidden: must be false to be structural`,
        ]),
        `${p}.items: Required value: because it is defined in ${p}.anyOf[0].items`,
      ],
      unexpected: [`${p}.not.default`],
    },
    {
      desc: 'invalid regex pattern',
      schema: 'type: object\nproperties:\n foo:\n   type: string\n   pattern: "+"\n',
      expected: [
        `${p}.properties[foo].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``,
      ],
    },
    {
      desc: 'forbidden additionalProperties at the root',
      schema: 'type: object\nadditionalProperties: false\n',
      expected: [`${p}.additionalProperties: Forbidden: must not be used at the root`],
    },
    {
      desc: 'structural incomplete',
      schema: `
type: object
properties:
 b:
   type: object
   properties:
     b:
       type: array
 c:
   type: array
   items:
     type: object
 d:
   type: array
not:
 properties:
   a: {}
   b:
     not:
       properties:
         a: {}
         b:
           items: {}
   c:
     items:
       not:
         items:
           properties:
             a: {}
   d:
     items: {}
allOf:
- properties:
   e: {}
anyOf:
- properties:
   f: {}
oneOf:
- properties:
   g: {}
`,
      expected: [
        `${p}.properties[d].items: Required value: because it is defined in ${p}.not.properties[d].items`,
        `${p}.properties[a]: Required value: because it is defined in ${p}.not.properties[a]`,
        `${p}.properties[b].properties[a]: Required value: because it is defined in ${p}.not.properties[b].not.properties[a]`,
        `${p}.properties[b].properties[b].items: Required value: because it is defined in ${p}.not.properties[b].not.properties[b].items`,
        `${p}.properties[c].items.items: Required value: because it is defined in ${p}.not.properties[c].items.not.items`,
        `${p}.properties[e]: Required value: because it is defined in ${p}.allOf[0].properties[e]`,
        `${p}.properties[f]: Required value: because it is defined in ${p}.anyOf[0].properties[f]`,
        `${p}.properties[g]: Required value: because it is defined in ${p}.oneOf[0].properties[g]`,
      ],
    },
    {
      desc: 'metadata with non-properties',
      schema: 'type: object\nproperties:\n metadata:\n   minimum: 42.0\n',
      expected: [
        `${p}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
        `${p}.properties[metadata].type: Required value: must not be empty for specified object fields`,
      ],
    },
    {
      desc: 'metadata with other properties',
      schema: `
type: object
properties:
 metadata:
   properties:
     name:
       pattern: "^[a-z]+$"
     labels:
       type: object
       maxLength: 4
`,
      expected: [
        `${p}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
        `${p}.properties[metadata].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[metadata].properties[name].type: Required value: must not be empty for specified object fields`,
      ],
    },
    {
      desc: 'metadata under junctors',
      schema: `
type: object
properties:
 metadata:
   type: object
   properties:
     name:
       type: string
       pattern: "^[a-z]+$"
allOf:
- properties:
   metadata: {}
anyOf:
- properties:
   metadata: {}
oneOf:
- properties:
   metadata: {}
not:
 properties:
   metadata: {}
`,
      expected: ['anyOf[0]', 'allOf[0]', 'oneOf[0]', 'not'].map(
        (j) => `${p}.${j}.properties[metadata]: Forbidden: must not be specified in a nested context`,
      ),
    },
    {
      desc: 'missing items for array',
      schema: 'type: object\nproperties:\n slice:\n   type: array\n',
      expected: [`${p}.properties[slice].items: Required value: must be specified`],
    },
  ]);
});

describe('structural completeness (apiextensions TestValidateStructuralCompleteness, with the options a CRD gets)', () => {
  // Those tables call the completeness check alone, on schemas without a root type; the case
  // results are the completeness errors, so only those are compared.
  const completeness = (schema: JSONSchemaProps): string[] =>
    texts(schema, '').filter((t) => t.includes('because it is defined in') || t.includes('to be structural'));
  const stringWithMinLength = { minLength: 2 };

  it('refuses a property validation where the structure has only additionalProperties', () => {
    const schema = {
      additionalProperties: { type: 'object', properties: { bar: { type: 'string' } } },
      allOf: [{ properties: { foo: stringWithMinLength } }],
    } as JSONSchemaProps;
    assert.ok(completeness(schema).includes('properties[foo]: Required value: because it is defined in allOf[0].properties[foo]'));
  });

  it('refuses additionalProperties under a junctor (nested additionalProperties are not allowed for CRDs)', () => {
    const schema = { properties: { bar: { type: 'string' } }, allOf: [{ additionalProperties: stringWithMinLength }] } as JSONSchemaProps;
    assert.deepEqual(completeness(schema), ['allOf[0].additionalProperties: Forbidden: must be undefined to be structural']);
  });

  it('accepts a property validation for a property of the structure', () => {
    const schema = { properties: { foo: { type: 'string' } }, allOf: [{ properties: { foo: stringWithMinLength } }] } as JSONSchemaProps;
    assert.deepEqual(completeness(schema), []);
  });

  it('refuses a property validation for a property the structure lacks', () => {
    const schema = { properties: { foo: { type: 'string' } }, allOf: [{ properties: { notfoo: stringWithMinLength } }] } as JSONSchemaProps;
    assert.deepEqual(completeness(schema), ['properties[notfoo]: Required value: because it is defined in allOf[0].properties[notfoo]']);
  });

  it('accepts an items validation where the structure has items', () => {
    const schema = { type: 'array', items: { type: 'string' }, allOf: [{ items: stringWithMinLength }] } as JSONSchemaProps;
    assert.deepEqual(completeness(schema), []);
  });

  it('refuses an items validation where the structure has none', () => {
    const schema = { type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ items: stringWithMinLength }] } as JSONSchemaProps;
    assert.deepEqual(completeness(schema), ['items: Required value: because it is defined in allOf[0].items']);
  });
});

describe('root metadata (apiextensions TestValidateStructuralMetadataInvariants)', () => {
  const metadataErrors = (metadata: Record<string, unknown>): string[] =>
    texts({ type: 'object', properties: { metadata } } as JSONSchemaProps, '').filter((t) => t.startsWith('properties[metadata]'));

  it('must be an object', () => {
    for (const type of ['object', 'array', 'number', 'integer', 'boolean', 'string']) {
      const errors = metadataErrors({ type });
      if (type === 'object') assert.deepEqual(errors, []);
      else
        assert.ok(errors.includes(`properties[metadata].type: Invalid value: "${type}": must be object`), `${type}: ${errors.join('; ')}`);
    }
  });

  it('may specify name and generateName, but no other ObjectMeta field', () => {
    const fields = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp'];
    for (const field of [...fields, 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences']) {
      const errors = metadataErrors({ type: 'object', properties: { [field]: { type: 'string' } } });
      if (field === 'name' || field === 'generateName') assert.deepEqual(errors, [], field);
      else assert.notDeepEqual(errors, [], field);
    }
  });

  it('may say nothing else about itself than its type and those properties', () => {
    const others: Record<string, unknown> = {
      items: { type: 'string' },
      additionalProperties: { type: 'string' },
      description: 'x',
      title: 'x',
      nullable: true,
      externalDocs: { url: 'https://example.com' },
      example: {},
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-map-type': 'atomic',
      'x-kubernetes-validations': [{ rule: 'true' }],
      format: 'x',
      maxProperties: 1,
      minProperties: 1,
      required: ['name'],
      enum: [{}],
      allOf: [{ maxProperties: 1 }],
      not: { maxProperties: 1 },
    };
    const message =
      'properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified';
    assert.deepEqual(metadataErrors({ type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } }), []);
    for (const [key, value] of Object.entries(others)) {
      const errors = metadataErrors({ type: 'object', properties: { name: { type: 'string' } }, [key]: value });
      assert.ok(errors.includes(message), `${key}: ${errors.join('; ')}`);
    }
  });
});

describe('what a junctor may not say (apiextensions TestValidateNestedValueValidationComplete)', () => {
  const base = { type: 'object', properties: { foo: { type: 'string' } } };
  const nestedErrors = (branch: Record<string, unknown>): string[] =>
    texts({ ...base, allOf: [{ properties: { foo: branch } }] } as JSONSchemaProps, '').filter((t) => t.startsWith('allOf[0]'));

  it('refuses every generic field but externalDocs and example', () => {
    const forbidden: [string, unknown, string][] = [
      ['description', 'd', 'must be empty to be structural'],
      ['type', 'string', 'must be empty to be structural'],
      ['title', 't', 'must be empty to be structural'],
      ['default', 42, 'must be undefined to be structural'],
      ['nullable', true, 'must be false to be structural'],
    ];
    for (const [key, value, detail] of forbidden) {
      assert.deepEqual(nestedErrors({ [key]: value }), [`allOf[0].properties[foo].${key}: Forbidden: ${detail}`]);
    }
    assert.deepEqual(nestedErrors({ externalDocs: { url: 'https://example.com' }, example: 'x' }), []);
  });

  it('refuses every vendor extension, and x-kubernetes-validations', () => {
    const forbidden: [string, unknown, string][] = [
      ['x-kubernetes-preserve-unknown-fields', true, 'must be false to be structural'],
      ['x-kubernetes-embedded-resource', true, 'must be false to be structural'],
      ['x-kubernetes-int-or-string', true, 'must be false to be structural'],
      ['x-kubernetes-list-map-keys', ['a'], 'must be empty to be structural'],
      ['x-kubernetes-list-type', 'atomic', 'must be undefined to be structural'],
      ['x-kubernetes-map-type', 'atomic', 'must be undefined to be structural'],
      ['x-kubernetes-validations', [{ rule: 'true' }], 'must be empty to be structural'],
    ];
    for (const [key, value, detail] of forbidden) {
      assert.ok(nestedErrors({ [key]: value }).includes(`allOf[0].properties[foo].${key}: Forbidden: ${detail}`), key);
    }
  });

  it('refuses additionalProperties, as a schema or true', () => {
    for (const additionalProperties of [{ minLength: 1 }, true]) {
      assert.deepEqual(nestedErrors({ additionalProperties }), [
        'allOf[0].properties[foo].additionalProperties: Forbidden: must be undefined to be structural',
      ]);
    }
  });
});
