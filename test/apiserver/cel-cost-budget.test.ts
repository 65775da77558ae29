// The cost limits a CRD's rules are held to when it is written, on apiextensions-apiserver's own
// cases (pkg/apis/apiextensions/validation): a rule over the per-rule limit once multiplied by how
// many times it can run, a messageExpression over the per-expression limit, and a schema whose rules
// together pass the per-CRD limit, refused as Forbidden at the rule and at the schema, with the
// costliest rules named; and rules kube-apiserver accepts, accepted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi } from './helpers.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const AT = 'spec.versions[0].schema.openAPIV3Schema';
const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
const CONTRIBUTED = 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema';

const crd = (schema: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', ...schema } } }],
  },
});

type Cause = { reason: string; field?: string; message: string };

async function causesOf(schema: Record<string, unknown>): Promise<Cause[]> {
  await using api = await startApi();
  const r = await api.call('POST', CRDS, crd(schema));
  if (r.status === 201) return [];
  assert.equal(r.status, 422, r.text);
  return r.body.details.causes;
}

const forbidden = (field: string, message: string): Cause => ({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${message}` });

describe('CEL cost limits of a CRD, as apiextensions-apiserver holds them', () => {
  it('refuses rules whose total passes the per-CRD limit, naming the costliest and the factor', async () => {
    const keyword = { 'x-kubernetes-validations': [{ rule: "self.contains('keyword')" }] };
    const causes = await causesOf({
      properties: {
        list: { type: 'array', maxItems: 100000, items: { type: 'string', maxLength: 5000, ...keyword } },
        map: { type: 'object', maxProperties: 1000, additionalProperties: { type: 'string', maxLength: 5000, ...keyword } },
        // Under 1% of the limit: never named as contributing.
        field: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 50 && self < 100' }] },
      },
    });
    const list = `${AT}.properties[list].items.x-kubernetes-validations[0].rule`;
    const map = `${AT}.properties[map].additionalProperties.x-kubernetes-validations[0].rule`;
    // Each item's rule costs 2001 (a tenth of 20000 characters, times a tenth of the 7 of 'keyword', plus self), 100000 times.
    assert.deepEqual(causes, [
      forbidden(list, `estimated rule cost exceeds budget by factor of 20.0x ${HINT}`),
      { ...forbidden(list, ''), message: CONTRIBUTED },
      { ...forbidden(map, ''), message: CONTRIBUTED },
      forbidden(
        AT,
        `x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x ${HINT}`,
      ),
    ]);
  });

  it('refuses a messageExpression over the per-expression limit at the messageExpression', async () => {
    const causes = await causesOf({
      properties: {
        // Seven concatenations of strings each as long as a request: 35 request lengths scanned, a tenth each.
        f: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [
            { rule: 'true', messageExpression: 'self[0] + self[1] + self[2] + self[3] + self[4] + self[5] + self[6] + self[7]' },
          ],
        },
      },
    });
    const field = `${AT}.properties[f].x-kubernetes-validations[0].messageExpression`;
    assert.deepEqual(causes, [forbidden(field, `estimated messageExpression cost exceeds budget by factor of 1.101006x ${HINT}`)]);
  });

  it('counts a messageExpression toward the per-CRD limit', async () => {
    const causes = await causesOf({
      properties: {
        f: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: 'true', messageExpression: 'string(self[0]) + string(self[1]) + string(self[2])' }],
        },
      },
    });
    const field = `${AT}.properties[f].x-kubernetes-validations[0].messageExpression`;
    assert.deepEqual(
      causes.map((c) => [c.field, c.message.split(' exceeds ')[0]]),
      [
        [field, 'Forbidden: estimated messageExpression cost'],
        [field, CONTRIBUTED],
        [AT, 'Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema'],
      ],
    );
  });

  it('refuses a rule on the items of an unbounded list by how many items one request holds', async () => {
    const causes = await causesOf({
      properties: {
        f: {
          type: 'array',
          items: {
            type: 'string',
            'x-kubernetes-validations': [
              { rule: "self.startsWith('a') && self.endsWith('b') && self.startsWith('c') && self.endsWith('d') && self.startsWith('e')" },
            ],
          },
        },
      },
    });
    // 1048576 items of at least `""` and a comma, each rule costing 10 (self and a one-character scan per test).
    assert.deepEqual(causes, [
      forbidden(
        `${AT}.properties[f].items.x-kubernetes-validations[0].rule`,
        `estimated rule cost exceeds budget by factor of 1.048576x ${HINT}`,
      ),
    ]);
  });

  it('accepts a pairwise lowerAscii comparison over a short bounded list', async () => {
    const causes = await causesOf({
      properties: {
        f: {
          type: 'array',
          maxItems: 5,
          items: { type: 'string', maxLength: 5 },
          'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x.lowerAscii() == y.lowerAscii()))' }],
        },
      },
    });
    assert.deepEqual(causes, []);
  });

  it('accepts rules on metadata.name and generateName, which are as long as a name can be', async () => {
    const causes = await causesOf({
      'x-kubernetes-validations': [
        { rule: 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)' },
      ],
    });
    assert.deepEqual(causes, []);
  });
});
