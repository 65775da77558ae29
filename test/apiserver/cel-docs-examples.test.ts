// The validation-rule examples of the Kubernetes documentation ("Validation rules" on the
// CustomResourceDefinition page, kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/),
// each a case named after its rule, through the server over HTTP: the CRD installs, a good object is
// accepted, a bad one is refused with kube-apiserver's message, field and reason, and transition rules
// apply on update only. Where the page's rule has a typo (a missing parenthesis, a map read from the
// wrong variable) the case runs the rule as the page means it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
type Schema = Record<string, unknown>;

function crontabCrd(root: Schema) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', ...root } } }],
    },
  };
}

/** A CRD whose `spec` is `spec`. */
const withSpec = (spec: Schema) => crontabCrd({ properties: { spec: { type: 'object', ...spec } } });
const crontab = (name: string, body: Schema) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, ...body });

async function installed(api: Api, crd: unknown): Promise<void> {
  const r = await api.call('POST', CRDS, crd);
  assert.equal(r.status, 201, r.text);
}

async function refused(
  api: Api,
  obj: unknown,
  field: string,
  message: string,
  reason = 'FieldValueInvalid',
  method = 'POST',
  path = CRONTABS,
) {
  const r = await api.call(method, path, obj);
  assert.equal(r.status, 422, r.text);
  // A cause at the root has no `field`: Go's StatusCause omits it when empty.
  const cause = r.body.details.causes.find((c: { field?: string }) => (c.field ?? '') === field);
  assert.ok(cause, `no cause at ${field}: ${r.text}`);
  assert.equal(cause.message, message);
  assert.equal(cause.reason, reason);
  assert.match(
    r.body.message,
    new RegExp(`^CronTab\\.stable\\.example\\.com "${(obj as { metadata: { name: string } }).metadata.name}" is invalid: `),
  );
}

async function accepted(api: Api, obj: unknown): Promise<any> {
  const r = await api.call('POST', CRONTABS, obj);
  assert.equal(r.status, 201, r.text);
  return r.body;
}

interface Example {
  rule: string;
  spec: Schema;
  good: Schema;
  bad: Schema;
  /** Where the rule sits under spec (default: spec itself) and the failing value's type. */
  at?: string;
  type?: string;
}

const str = { type: 'string' };
const int = { type: 'integer' };
/** A bounded string: the page recommends maxLength/maxItems wherever a rule iterates, or the cost estimate refuses it. */
const short = { type: 'string', maxLength: 64 };
const rules = (rule: string, extra: Schema = {}) => ({ 'x-kubernetes-validations': [{ rule, ...extra }] });

const EXAMPLES: Example[] = [
  {
    rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
    spec: { properties: { minReplicas: int, replicas: int, maxReplicas: int } },
    good: { minReplicas: 1, replicas: 2, maxReplicas: 3 },
    bad: { minReplicas: 0, replicas: 20, maxReplicas: 10 },
  },
  {
    rule: "'Available' in self.stateCounts",
    spec: { properties: { stateCounts: { type: 'object', additionalProperties: int } } },
    good: { stateCounts: { Available: 1 } },
    bad: { stateCounts: { Pending: 1 } },
  },
  {
    rule: '(size(self.list1) == 0) != (size(self.list2) == 0)',
    spec: { properties: { list1: { type: 'array', items: str }, list2: { type: 'array', items: str } } },
    good: { list1: ['a'], list2: [] },
    bad: { list1: ['a'], list2: ['b'] },
  },
  {
    rule: "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
    spec: { properties: { map1: { type: 'object', additionalProperties: str } } },
    good: { map1: { MY_KEY: 'abc', other: '123' } },
    bad: { map1: { MY_KEY: 'abc123' } },
  },
  {
    rule: 'has(self.expired) && self.created + self.ttl < self.expired',
    spec: {
      properties: {
        created: { type: 'string', format: 'date-time' },
        ttl: { type: 'string', format: 'duration' },
        expired: { type: 'string', format: 'date-time' },
      },
    },
    good: { created: '2024-01-01T00:00:00Z', ttl: '24h', expired: '2024-01-03T00:00:00Z' },
    bad: { created: '2024-01-01T00:00:00Z', ttl: '72h', expired: '2024-01-02T00:00:00Z' },
  },
  {
    rule: "self.health.startsWith('ok')",
    spec: { properties: { health: str } },
    good: { health: 'ok: all good' },
    bad: { health: 'degraded' },
  },
  {
    rule: "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
    spec: {
      properties: {
        widgets: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['key'],
          items: { type: 'object', required: ['key'], properties: { key: str, foo: int } },
        },
      },
    },
    good: { widgets: [{ key: 'x', foo: 5 }] },
    bad: { widgets: [{ key: 'x', foo: 50 }] },
  },
  {
    rule: "type(self) == string ? self == '100%' : self == 1000",
    spec: { properties: { amount: { 'x-kubernetes-int-or-string': true } } },
    at: 'amount',
    type: '',
    good: { amount: '100%' },
    bad: { amount: 999 },
  },
  {
    rule: 'self.set1.all(e, !(e in self.set2))',
    spec: {
      properties: {
        set1: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: short },
        set2: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: short },
      },
    },
    good: { set1: ['a'], set2: ['b'] },
    bad: { set1: ['a', 'b'], set2: ['b'] },
  },
  {
    rule: 'size(self.names) == size(self.details) && self.names.all(n, n in self.details)',
    spec: {
      properties: {
        names: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: short },
        details: { type: 'object', maxProperties: 10, additionalProperties: short },
      },
    },
    good: { names: ['a', 'b'], details: { a: '1', b: '2' } },
    bad: { names: ['a', 'b'], details: { a: '1', c: '3' } },
  },
  {
    rule: 'size(self.clusters.filter(c, c.name == self.primary)) == 1',
    spec: {
      properties: {
        primary: short,
        clusters: {
          type: 'array',
          maxItems: 10,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: short } },
        },
      },
    },
    good: { primary: 'a', clusters: [{ name: 'a' }, { name: 'b' }] },
    bad: { primary: 'c', clusters: [{ name: 'a' }] },
  },
  {
    rule: 'has(self.foo)',
    spec: { properties: { foo: int } },
    good: { foo: 1 },
    bad: {},
  },
  {
    rule: "self['xyz'].foo > 0",
    spec: { properties: { things: { type: 'object', additionalProperties: { type: 'object', properties: { foo: int } } } } },
    at: 'things',
    good: { things: { xyz: { foo: 1 } } },
    bad: { things: { xyz: { foo: 0 } } },
  },
  {
    rule: 'size(self) == 1',
    spec: { properties: { foo: { type: 'array', items: str } } },
    at: 'foo',
    type: 'array',
    good: { foo: ['a'] },
    bad: { foo: ['a', 'b'] },
  },
  {
    rule: 'self > 0',
    spec: { properties: { foo: int } },
    at: 'foo',
    type: 'integer',
    good: { foo: 1 },
    bad: { foo: 0 },
  },
  {
    rule: "self.components['Widget'].priority < 10",
    spec: { properties: { components: { type: 'object', additionalProperties: { type: 'object', properties: { priority: int } } } } },
    good: { components: { Widget: { priority: 1 } } },
    bad: { components: { Widget: { priority: 10 } } },
  },
  {
    rule: 'self.values.all(value, value >= 0 && value < 100)',
    // Unbounded, the list is costed at 1.5 million integers, over the per-rule limit.
    spec: { properties: { values: { type: 'array', maxItems: 1000, items: int } } },
    good: { values: [0, 99] },
    bad: { values: [0, 100] },
  },
  {
    rule: "self.startsWith('kube')",
    spec: { properties: { name: str } },
    at: 'name',
    type: 'string',
    good: { name: 'kube-proxy' },
    bad: { name: 'proxy' },
  },
];

/** Puts the rule on spec, or on the named property of spec. */
function specWithRule(e: Example): Schema {
  if (e.at === undefined) return { ...e.spec, ...rules(e.rule) };
  const props = e.spec.properties as Record<string, Schema>;
  return { ...e.spec, properties: { ...props, [e.at]: { ...props[e.at], ...rules(e.rule) } } };
}

describe('Kubernetes documentation CEL examples', () => {
  for (const e of EXAMPLES) {
    it(e.rule, async () => {
      await using api = await startApi();
      await installed(api, withSpec(specWithRule(e)));
      await accepted(api, crontab('good', { spec: e.good }));
      const field = e.at === undefined ? 'spec' : `spec.${e.at}`;
      await refused(api, crontab('bad', { spec: e.bad }), field, `Invalid value: "${e.type ?? 'object'}": failed rule: ${e.rule}`);
    });
  }

  it('self.minReplicas <= self.replicas with a message, and self.replicas <= self.maxReplicas without one', async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({
        properties: { minReplicas: int, replicas: int, maxReplicas: int },
        required: ['minReplicas', 'replicas', 'maxReplicas'],
        'x-kubernetes-validations': [
          { rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' },
          { rule: 'self.replicas <= self.maxReplicas' },
        ],
      }),
    );
    const r = await api.call('POST', CRONTABS, crontab('my-new-cron-object', { spec: { minReplicas: 0, replicas: 20, maxReplicas: 10 } }));
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      'CronTab.stable.example.com "my-new-cron-object" is invalid: spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas',
    );
    const both = await api.call('POST', CRONTABS, crontab('both', { spec: { minReplicas: 30, replicas: 20, maxReplicas: 10 } }));
    assert.deepEqual(
      both.body.details.causes.map((c: { message: string }) => c.message),
      [
        'Invalid value: "object": replicas should be greater than or equal to minReplicas.',
        'Invalid value: "object": failed rule: self.replicas <= self.maxReplicas',
      ],
    );
  });

  it('self.status.availableReplicas >= self.spec.minReplicas (a rule at the root reads spec and status)', async () => {
    await using api = await startApi();
    await installed(
      api,
      crontabCrd({
        ...rules('self.status.availableReplicas >= self.spec.minReplicas'),
        properties: {
          spec: { type: 'object', properties: { minReplicas: int } },
          status: { type: 'object', properties: { availableReplicas: int } },
        },
      }),
    );
    await accepted(api, crontab('good', { spec: { minReplicas: 1 }, status: { availableReplicas: 2 } }));
    await refused(
      api,
      crontab('bad', { spec: { minReplicas: 3 }, status: { availableReplicas: 2 } }),
      '',
      'Invalid value: "object": failed rule: self.status.availableReplicas >= self.spec.minReplicas',
    );
  });

  it('self.metadata.name.startsWith(self.prefix) (a rule at the root reads metadata.name)', async () => {
    await using api = await startApi();
    await installed(api, crontabCrd({ ...rules('self.metadata.name.startsWith(self.prefix)'), properties: { prefix: str } }));
    await accepted(api, crontab('web-1', { prefix: 'web' }));
    await refused(
      api,
      crontab('db-1', { prefix: 'web' }),
      '',
      'Invalid value: "object": failed rule: self.metadata.name.startsWith(self.prefix)',
    );
  });

  it('self.x <= self.maxLimit with reason FieldValueForbidden', async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({ properties: { x: int, maxLimit: int }, ...rules('self.x <= self.maxLimit', { reason: 'FieldValueForbidden' }) }),
    );
    await refused(
      api,
      crontab('bad', { spec: { x: 11, maxLimit: 10 } }),
      'spec',
      'Forbidden: failed rule: self.x <= self.maxLimit',
      'FieldValueForbidden',
    );
  });

  it('self.foo.test.x <= self.maxLimit with fieldPath .foo.test.x', async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({
        properties: { maxLimit: int, foo: { type: 'object', properties: { test: { type: 'object', properties: { x: int } } } } },
        ...rules('self.foo.test.x <= self.maxLimit', { fieldPath: '.foo.test.x' }),
      }),
    );
    await refused(
      api,
      crontab('bad', { spec: { maxLimit: 1, foo: { test: { x: 2 } } } }),
      'spec.foo.test.x',
      'Invalid value: "object": failed rule: self.foo.test.x <= self.maxLimit',
    );
  });
});

describe('Kubernetes documentation transition rules', () => {
  async function transition(field: Schema, from: unknown, allowedTo: unknown, refusedTo: unknown, message: string) {
    await using api = await startApi();
    await installed(api, withSpec({ properties: { level: field } }));
    // Transition rules never apply to creates: any value is accepted.
    const created = await accepted(api, crontab('c', { spec: { level: from } }));
    const update = (level: unknown, rv: string) => ({ ...crontab('c', { spec: { level } }), metadata: { name: 'c', resourceVersion: rv } });
    const r = await api.call('PUT', `${CRONTABS}/c`, update(refusedTo, created.metadata.resourceVersion));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].field, 'spec.level');
    assert.equal(r.body.details.causes[0].message, message);
    const ok = await api.call('PUT', `${CRONTABS}/c`, update(allowedTo, created.metadata.resourceVersion));
    assert.equal(ok.status, 200, ok.text);
  }

  it("!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')", () =>
    transition(
      {
        type: 'string',
        enum: ['low', 'medium', 'high'],
        'x-kubernetes-validations': [
          {
            rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')",
            message: "cannot transition directly between 'low' and 'high'",
          },
        ],
      },
      'low',
      'medium',
      'high',
      `Invalid value: "string": cannot transition directly between 'low' and 'high'`,
    ));

  it('self == oldSelf (immutability)', () =>
    transition(
      { type: 'string', ...rules('self == oldSelf', { message: 'Value is immutable' }) },
      'a',
      'a',
      'b',
      'Invalid value: "string": Value is immutable',
    ));

  it('self >= oldSelf (monotonic counter)', () =>
    transition({ type: 'integer', ...rules('self >= oldSelf') }, 5, 6, 4, 'Invalid value: "integer": failed rule: self >= oldSelf'));

  it("oldSelf != 'X' || self in ['A', 'B']", () =>
    transition(
      { type: 'string', ...rules("oldSelf != 'X' || self in ['A', 'B']") },
      'X',
      'A',
      'Y',
      `Invalid value: "string": failed rule: oldSelf != 'X' || self in ['A', 'B']`,
    ));

  it('a transition rule on an optional field does not apply to the update that sets it', async () => {
    await using api = await startApi();
    await installed(api, withSpec({ properties: { other: str, level: { type: 'string', ...rules('self == oldSelf') } } }));
    const created = await accepted(api, crontab('c', { spec: { other: 'x' } }));
    const r = await api.call('PUT', `${CRONTABS}/c`, {
      ...crontab('c', { spec: { level: 'new' } }),
      metadata: { name: 'c', resourceVersion: created.metadata.resourceVersion },
    });
    assert.equal(r.status, 200, r.text);
  });

  it('self.foo == "foo" || (oldSelf.hasValue() && oldSelf.value().foo != "foo") with optionalOldSelf', async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({
        properties: { foo: str },
        'x-kubernetes-validations': [
          { rule: 'self.foo == "foo" || (oldSelf.hasValue() && oldSelf.value().foo != "foo")', optionalOldSelf: true },
        ],
      }),
    );
    // With optionalOldSelf the rule runs on create too, with an empty oldSelf.
    await refused(
      api,
      crontab('new', { spec: { foo: 'bar' } }),
      'spec',
      'Invalid value: "object": failed rule: self.foo == "foo" || (oldSelf.hasValue() && oldSelf.value().foo != "foo")',
    );
    const created = await accepted(api, crontab('c', { spec: { foo: 'foo' } }));
    const r = await api.call('PUT', `${CRONTABS}/c`, {
      ...crontab('c', { spec: { foo: 'bar' } }),
      metadata: { name: 'c', resourceVersion: created.metadata.resourceVersion },
    });
    assert.equal(r.status, 422, r.text);
  });

  it('oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4', async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({
        properties: {
          tags: {
            type: 'array',
            items: str,
            'x-kubernetes-validations': [{ rule: 'oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4', optionalOldSelf: true }],
          },
        },
      }),
    );
    const created = await accepted(api, crontab('c', { spec: { tags: ['a', 'b', 'c', 'd'] } }));
    const r = await api.call('PUT', `${CRONTABS}/c`, {
      ...crontab('c', { spec: { tags: ['a'] } }),
      metadata: { name: 'c', resourceVersion: created.metadata.resourceVersion },
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].field, 'spec.tags');
  });
});

describe('Kubernetes documentation compile and cost errors', () => {
  async function crdRefused(spec: Schema, field: string, message: string | RegExp) {
    await using api = await startApi();
    const r = await api.call('POST', CRDS, withSpec(spec));
    assert.equal(r.status, 422, r.text);
    // A cause at the root has no `field`: Go's StatusCause omits it when empty.
    const cause = r.body.details.causes.find((c: { field?: string }) => (c.field ?? '') === field);
    assert.ok(cause, `no cause at ${field}: ${r.text}`);
    if (typeof message === 'string') assert.equal(cause.message, message);
    else assert.match(cause.message, message);
  }
  const at = 'spec.versions[0].schema.openAPIV3Schema.properties[spec]';

  it('self == true on an integer: no matching overload', () =>
    crdRefused(
      { properties: { foo: { type: 'integer', ...rules('self == true') } } },
      `${at}.properties[foo].x-kubernetes-validations[0].rule`,
      'Invalid value: apiextensions.ValidationRule{Rule:"self == true", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        "compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^",
    ));

  it('self.nonExistingField > 0: undefined field', () =>
    crdRefused(
      { properties: { foo: int }, ...rules('self.nonExistingField > 0') },
      `${at}.x-kubernetes-validations[0].rule`,
      /compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'/,
    ));

  it('has(self): invalid argument to has() macro', () =>
    crdRefused(
      { properties: { foo: int }, ...rules('has(self)') },
      `${at}.x-kubernetes-validations[0].rule`,
      /compilation failed: ERROR: <input>:1:\d+: invalid argument to has\(\) macro/,
    ));

  it("self.all(x, x.contains('a string')) over an unbounded list exceeds the cost budget", () =>
    crdRefused(
      { properties: { foo: { type: 'array', items: str, ...rules("self.all(x, x.contains('a string'))") } } },
      `${at}.properties[foo].x-kubernetes-validations[0].rule`,
      'Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    ));

  it("self.all(x, x.contains('a string')) with maxItems and maxLength is within budget", async () => {
    await using api = await startApi();
    await installed(
      api,
      withSpec({
        properties: {
          foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, ...rules("self.all(x, x.contains('a string'))") },
        },
      }),
    );
  });

  it('an unknown reason and a messageExpression that is not a string are refused', async () => {
    await using api = await startApi();
    const r = await api.call(
      'POST',
      CRDS,
      withSpec({ properties: { foo: int }, ...rules('self.foo > 0', { reason: 'Nope', messageExpression: 'self.foo' }) }),
    );
    assert.equal(r.status, 422);
    const fields = r.body.details.causes.map((c: { field: string }) => c.field);
    assert.ok(fields.includes(`${at}.x-kubernetes-validations[0].reason`), r.text);
  });

  // Two examples of the page that kube-apiserver's estimate refuses, as it refuses them.
  it("self.envars.filter(…).all(e, e.value.matches(…)): a filtered list's elements have no declared size", () =>
    crdRefused(
      {
        properties: {
          envars: {
            type: 'array',
            maxItems: 16,
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', required: ['name'], properties: { name: short, value: short } },
          },
        },
        ...rules("self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))"),
      },
      `${at}.x-kubernetes-validations[0].rule`,
      /^Forbidden: estimated rule cost exceeds budget by factor of more than 100x/,
    ));

  it('a messageExpression appending string(self.maxLimit): a converted string has no bound', () =>
    crdRefused(
      {
        properties: { x: int, maxLimit: int },
        ...rules('self.x <= self.maxLimit', { messageExpression: '"x exceeded max limit of " + string(self.maxLimit)' }),
      },
      `${at}.x-kubernetes-validations[0].messageExpression`,
      /^Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x/,
    ));

  it('oldSelf under a list that is not a list-map is refused as uncorrelatable', () =>
    crdRefused(
      { properties: { items: { type: 'array', items: { type: 'string', maxLength: 8, ...rules('self == oldSelf') } } } },
      `${at}.properties[items].items.x-kubernetes-validations[0].rule`,
      `Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[items].items`,
    ));
});
