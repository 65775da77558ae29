// Imports the private admission face (src/apiserver/admission) to table-test the one matcher webhooks
// and policies share, with cases read from k8s.io/apiserver's rule, namespace and object matcher tests.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/meta/index.js';
import {
  matches,
  ruleMatches,
  type Attributes,
  type MatchContext,
  type MatchCriteria,
  type Matched,
  type Rule,
} from '../../src/apiserver/admission/index.js';

const identity = (o: KubeObject): KubeObject => o;

/** A write as admission sees it; `resource` may carry a subresource (`pods/exec`). */
function write(over: Partial<Attributes> & { resource?: string } = {}): Attributes {
  const [resource, subresource = ''] = (over.resource ?? 'pods').split('/') as [string, string?];
  const namespaced = over.namespaced ?? (over.namespace ?? 'ns') !== '';
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: 'Pod',
    namespace: 'ns',
    name: 'x',
    object: { metadata: { name: 'x' } },
    oldObject: undefined,
    options: {},
    dryRun: false,
    userInfo: { username: 'u', groups: [] },
    // Matching never asks the authorizer.
    authorizer: { authorize: () => ({ allowed: false, reason: '' }) } as unknown as Attributes['authorizer'],
    kubernetesMinor: 36,
    ...over,
    resource,
    subresource,
    namespaced,
  };
}

const own = (a: Attributes): Matched => ({ ...a, toMatched: identity, fromMatched: identity });
const context = (a: Attributes, extra: Partial<MatchContext> = {}): MatchContext => ({
  own: own(a),
  namespaceObject: undefined,
  equivalents: [],
  ...extra,
});

interface RuleCase {
  name: string;
  rule: Rule;
  match: Partial<Attributes>[];
  noMatch: Partial<Attributes>[];
}

const ALL: Rule = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] };

const RULE_CASES: RuleCase[] = [
  {
    name: 'operations: one named',
    rule: { ...ALL, operations: ['CREATE'] },
    match: [{ operation: 'CREATE' }],
    noMatch: [{ operation: 'UPDATE' }, { operation: 'DELETE' }],
  },
  {
    name: 'operations: star',
    rule: ALL,
    match: [{ operation: 'CREATE' }, { operation: 'UPDATE' }, { operation: 'DELETE' }],
    noMatch: [],
  },
  {
    name: 'operations: none listed matches none',
    rule: { ...ALL, operations: [] },
    match: [],
    noMatch: [{ operation: 'CREATE' }],
  },
  {
    name: 'apiGroups: star and named',
    rule: { ...ALL, apiGroups: ['g1', 'g2'] },
    match: [{ group: 'g1' }, { group: 'g2' }],
    noMatch: [{ group: 'g3' }, { group: '' }],
  },
  {
    name: 'apiVersions: named',
    rule: { ...ALL, apiVersions: ['v1', 'v2'] },
    match: [{ version: 'v1' }, { version: 'v2' }],
    noMatch: [{ version: 'v3' }],
  },
  {
    name: 'resources: star is every resource but no subresource',
    rule: { ...ALL, resources: ['*'] },
    match: [{ resource: 'r' }, { resource: 'r2' }],
    noMatch: [{ resource: 'r/exec' }, { resource: 'r2/proxy' }],
  },
  {
    name: 'resources: r/* is r and its subresources',
    rule: { ...ALL, resources: ['r/*'] },
    match: [{ resource: 'r' }, { resource: 'r/exec' }, { resource: 'r/status' }],
    noMatch: [{ resource: 'r2' }, { resource: 'r2/proxy' }],
  },
  {
    name: 'resources: r/* or r2',
    rule: { ...ALL, resources: ['r/*', 'r2'] },
    match: [{ resource: 'r' }, { resource: 'r/exec' }, { resource: 'r2' }],
    noMatch: [{ resource: 'r2/proxy' }, { resource: 'r3' }],
  },
  {
    name: 'resources: a subresource of any resource',
    rule: { ...ALL, resources: ['*/proxy', '*/exec'] },
    match: [{ resource: 'r/exec' }, { resource: 'r2/proxy' }, { resource: 'r3/proxy' }],
    noMatch: [{ resource: 'r' }, { resource: 'r2' }, { resource: 'r4/scale' }],
  },
  {
    name: 'resources: star slash star is everything',
    rule: ALL,
    match: [{ resource: 'r' }, { resource: 'r/exec' }],
    noMatch: [],
  },
  {
    name: 'resourceNames narrow a rule to the names listed',
    rule: { ...ALL, resourceNames: ['a', 'b'] },
    match: [{ name: 'a' }, { name: 'b' }],
    noMatch: [{ name: 'c' }, { name: '' }],
  },
  {
    name: 'scope Namespaced: namespaced resources, never a Namespace',
    rule: { ...ALL, scope: 'Namespaced' },
    match: [{ namespace: 'ns' }],
    noMatch: [{ namespace: '' }, { resource: 'namespaces', name: 'ns', namespace: '' }],
  },
  {
    name: 'scope Cluster: cluster-scoped resources and Namespaces',
    rule: { ...ALL, scope: 'Cluster' },
    match: [{ namespace: '' }, { resource: 'namespaces', name: 'ns', namespace: '' }],
    noMatch: [{ namespace: 'ns' }],
  },
  {
    name: 'scope star and absent: both',
    rule: { ...ALL, scope: '*' },
    match: [{ namespace: '' }, { namespace: 'ns' }],
    noMatch: [],
  },
];

describe('the admission matcher', () => {
  for (const c of RULE_CASES) {
    it(`rules — ${c.name}`, () => {
      for (const over of c.match) assert.equal(ruleMatches(c.rule, write(over)), true, `should match ${JSON.stringify(over)}`);
      for (const over of c.noMatch) assert.equal(ruleMatches(c.rule, write(over)), false, `should not match ${JSON.stringify(over)}`);
    });
  }

  it('no rules listed matches nothing; absent rules (a binding without resourceRules) match everything', () => {
    const a = write();
    assert.equal(matches({ rules: [] }, a, context(a)), undefined);
    assert.deepEqual(matches({}, a, context(a)), context(a).own);
  });

  it('an exclude rule wins over a rule', () => {
    const a = write({ name: 'skip-me' });
    const c: MatchCriteria = { rules: [ALL], excludeRules: [{ ...ALL, resourceNames: ['skip-me'] }] };
    assert.equal(matches(c, a, context(a)), undefined);
    const b = write({ name: 'other' });
    assert.ok(matches(c, b, context(b)));
  });

  const ns = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'ns', labels } });
  const selected: MatchCriteria = { rules: [ALL], namespaceSelector: { matchLabels: { env: 'prod' } } };

  const NAMESPACE_CASES: { name: string; over: Partial<Attributes>; namespaceObject?: KubeObject; want: boolean }[] = [
    { name: 'the namespace has the labels', over: {}, namespaceObject: ns({ env: 'prod' }), want: true },
    { name: 'the namespace lacks them', over: {}, namespaceObject: ns({ env: 'dev' }), want: false },
    { name: 'the namespace is not there', over: {}, want: false },
    { name: 'a cluster-scoped object is never exempted', over: { namespace: '', resource: 'nodes' }, want: true },
    {
      name: 'a Namespace being created is matched by its new labels',
      over: { resource: 'namespaces', namespace: '', object: ns({ env: 'prod' }) },
      namespaceObject: ns({ env: 'dev' }),
      want: true,
    },
    {
      name: 'a Namespace being deleted is matched by its stored labels',
      over: { resource: 'namespaces', namespace: '', operation: 'DELETE', object: undefined, oldObject: ns({ env: 'prod' }) },
      namespaceObject: ns({ env: 'prod' }),
      want: true,
    },
    {
      name: 'a Namespace status write is matched by its stored labels',
      over: { resource: 'namespaces/status', namespace: '', operation: 'UPDATE', object: ns({ env: 'prod' }) },
      namespaceObject: ns({ env: 'dev' }),
      want: false,
    },
  ];
  for (const c of NAMESPACE_CASES) {
    it(`namespaceSelector — ${c.name}`, () => {
      const a = write(c.over);
      assert.equal(matches(selected, a, context(a, { namespaceObject: c.namespaceObject })) !== undefined, c.want);
    });
  }

  const labelled = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'x', labels } });
  const OBJECT_CASES: { name: string; over: Partial<Attributes>; selector: MatchCriteria['objectSelector']; want: boolean }[] = [
    { name: 'the new object has the labels', over: { object: labelled({ a: '1' }) }, selector: { matchLabels: { a: '1' } }, want: true },
    {
      name: 'only the old object has them',
      over: { operation: 'UPDATE', object: labelled({}), oldObject: labelled({ a: '1' }) },
      selector: { matchLabels: { a: '1' } },
      want: true,
    },
    { name: 'neither has them', over: { object: labelled({ a: '2' }) }, selector: { matchLabels: { a: '1' } }, want: false },
    {
      name: 'an absent object never matches, even a selector every label set passes',
      over: { operation: 'DELETE', object: undefined, oldObject: labelled({ a: '1' }) },
      selector: { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] },
      want: false,
    },
    { name: 'an empty selector matches every object', over: {}, selector: {}, want: true },
  ];
  for (const c of OBJECT_CASES) {
    it(`objectSelector — ${c.name}`, () => {
      const a = write(c.over);
      assert.equal(matches({ rules: [ALL], objectSelector: c.selector }, a, context(a)) !== undefined, c.want);
    });
  }

  // The same stored resource served as apps/v1 and as a second version, as a CRD with two versions is.
  const deployments = write({ group: 'apps', version: 'v1beta1', kind: 'Deployment', resource: 'deployments' });
  const v1: Matched = {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    toMatched: (o) => ({ ...o, apiVersion: 'apps/v1' }),
    fromMatched: (o) => ({ ...o, apiVersion: 'apps/v1beta1' }),
  };
  const onlyV1: Rule = { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };

  it('matchPolicy Equivalent: a rule naming another version of the same resource matches, and says which', () => {
    const m = context(deployments, { equivalents: [v1] });
    assert.equal(matches({ rules: [onlyV1], matchPolicy: 'Equivalent' }, deployments, m), v1);
    // Absent is Equivalent, as the API defaults it.
    assert.equal(matches({ rules: [onlyV1] }, deployments, m), v1);
  });

  it('matchPolicy Exact: only the request’s own version matches', () => {
    const m = context(deployments, { equivalents: [v1] });
    assert.equal(matches({ rules: [onlyV1], matchPolicy: 'Exact' }, deployments, m), undefined);
    const any = { ...onlyV1, apiVersions: ['*'] };
    assert.deepEqual(matches({ rules: [any], matchPolicy: 'Exact' }, deployments, m), m.own);
  });

  it('the request’s own resource is preferred to an equivalent one, whatever the rules’ order', () => {
    const m = context(deployments, { equivalents: [v1] });
    const ownRule = { ...onlyV1, apiVersions: ['v1beta1'] };
    assert.deepEqual(matches({ rules: [onlyV1, ownRule] }, deployments, m), m.own);
  });

  it('an exclude rule excludes through an equivalent resource too', () => {
    const m = context(deployments, { equivalents: [v1] });
    assert.equal(matches({ rules: [ALL], excludeRules: [onlyV1] }, deployments, m), undefined);
    assert.ok(matches({ rules: [ALL], excludeRules: [onlyV1], matchPolicy: 'Exact' }, deployments, m));
  });
});
