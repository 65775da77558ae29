// Imports the private cel/, schema/ and registry/ faces: a rollback cannot be staged over HTTP (a server keeps its own storage), so the rule check, the policy strategies and evaluation it leads to are called directly.
// The CEL environment of each Kubernetes minor: a new rule (CRD create, or a changed rule) or policy
// expression compiles at the compatibility version, one minor below the server's, so a function
// newer than that is refused with kube-apiserver's compile error; a rule the CRD already had compiles
// with everything the server's own minor knows, so it keeps working after a rollback; and evaluation
// runs whatever was stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import { createApiServer } from 'kube-converge/apiserver';
import { compile, CEL_LIBRARY_VERSIONS, type CelType } from '../../src/apiserver/cel/index.js';
import { celSchemaErrors, preexistingExpressions, validateCustomResource } from '../../src/apiserver/schema/index.js';
import { BUILTIN_KINDS, type WriteContext } from '../../src/apiserver/registry/index.js';
import type { KubeObject } from 'kube-converge/meta';
import { handleJson } from './helpers.js';

const MINORS = [31, 32, 33, 34, 35, 36];
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';

/** A rule per versioned library, and the first minor whose server accepts it in a new CRD (its introduction plus one). */
const CRD_PROBES = [
  { library: 'IP', rule: "self.addr == '' || isIP(self.addr)", firstNewMinor: 31 },
  { library: 'CIDR', rule: "self.addr == '' || !isCIDR(self.addr)", firstNewMinor: 31 },
  { library: 'format', rule: '!format.dns1123Label().validate(self.name).hasValue()', firstNewMinor: 32 },
  { library: 'two-variable comprehensions', rule: "self.tags.all(i, t, i < 16 && t != '')", firstNewMinor: 33 },
  { library: 'semver', rule: "self.version == '' || isSemver(self.version)", firstNewMinor: 34 },
  { library: 'lists (version 3)', rule: 'self.tags.distinct().size() == self.tags.size()', firstNewMinor: 35 },
];

const SPEC_SCHEMA: JSONSchemaProps = {
  type: 'object',
  properties: {
    addr: { type: 'string', maxLength: 64 },
    name: { type: 'string', maxLength: 63 },
    version: { type: 'string', maxLength: 32 },
    tags: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 16 } },
  },
};

const specWith = (rule: string): JSONSchemaProps => ({ ...SPEC_SCHEMA, 'x-kubernetes-validations': [{ rule }] }) as JSONSchemaProps;

const crd = (rule: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'probes.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'probes', singular: 'probe', kind: 'Probe', listKind: 'ProbeList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: specWith(rule) } } },
      },
    ],
  },
});

type Cause = { field: string; message: string };
const RULE_FIELD = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
/** What cel-go says when a function is not in the environment: an unknown name, or no overload of a method. */
const NOT_IN_ENVIRONMENT =
  /compilation failed: ERROR: <input>:\d+:\d+: (undeclared reference to '\w+' \(in container ''\)|found no matching overload for '\w+')/;

describe('the CEL environment of each Kubernetes minor', () => {
  it('lists each library with the minor that introduced it, oldest first', () => {
    const minors = CEL_LIBRARY_VERSIONS.map((l) => l.introducedMinor);
    assert.deepEqual(
      minors,
      [...minors].sort((a, b) => a - b),
    );
    const introduced = Object.fromEntries(CEL_LIBRARY_VERSIONS.map((l) => [l.name, l.introducedMinor]));
    assert.deepEqual(
      { IP: introduced.IP, format: introduced.format, selectors: introduced['authz selectors'], semver: introduced.semver },
      { IP: 30, format: 31, selectors: 31, semver: 33 },
    );
    assert.equal(introduced['two-variable comprehensions'], 32);
    assert.equal(introduced['lists (version 3)'], 34);
  });

  it('accepts or refuses a new CRD rule per library exactly as each minor does, naming the rule', async () => {
    for (const minor of MINORS) {
      for (const probe of CRD_PROBES) {
        const server = createApiServer({ kubernetesVersion: `1.${minor}` });
        const r = await handleJson(server, 'POST', CRDS, crd(probe.rule));
        const what = `${probe.library} on 1.${minor}`;
        if (minor >= probe.firstNewMinor) {
          assert.equal(r.status, 201, `${what}: ${r.text}`);
          continue;
        }
        assert.equal(r.status, 422, `${what}: ${r.text}`);
        assert.equal(r.body.reason, 'Invalid');
        const causes = r.body.details.causes as Cause[];
        assert.equal(causes.length, 1, `${what}: ${r.text}`);
        assert.equal(causes[0]!.field, RULE_FIELD);
        assert.ok(causes[0]!.message.includes(`Rule:${JSON.stringify(probe.rule)}`), `${what}: ${causes[0]!.message}`);
        assert.match(causes[0]!.message, NOT_IN_ENVIRONMENT, what);
      }
    }
  });

  it("refuses jsonpatch.escapeKey in a CRD rule on every minor: it belongs to mutating policies' mutations only", async () => {
    for (const minor of MINORS) {
      const server = createApiServer({ kubernetesVersion: `1.${minor}` });
      const rule = 'jsonpatch.escapeKey(self.name) != ""';
      const r = await handleJson(server, 'POST', CRDS, crd(rule));
      assert.equal(r.status, 422, `1.${minor}: ${r.text}`);
      const causes = r.body.details.causes as Cause[];
      assert.equal(causes[0]!.field, RULE_FIELD);
      assert.match(causes[0]!.message, NOT_IN_ENVIRONMENT, `1.${minor}`);
    }
  });

  it('compiles a stored expression with every library of the server minor, and a new one without the newest', () => {
    const declarations = { self: { kind: 'object', fields: { version: { kind: 'string', maxLength: 32 } } } as CelType };
    const rule = 'isSemver(self.version) && semver(self.version).major() >= 1';
    for (const minor of MINORS) {
      assert.equal(compile(rule, declarations, { minor, mode: 'stored' }).ok, minor >= 33, `stored on 1.${minor}`);
      assert.equal(compile(rule, declarations, { minor, mode: 'new' }).ok, minor >= 34, `new on 1.${minor}`);
    }
    assert.ok(compile(rule, declarations).ok, 'evaluation compiles in the newest stored environment');
  });

  it('keeps a rule stored on 1.34 working after a rollback to 1.33, where the same rule is too new to write', async () => {
    const rule = "self.version == '' || isSemver(self.version)";
    // Written on 1.34: semver (1.33) is within its compatibility version.
    const newer = createApiServer({ kubernetesVersion: '1.34' });
    assert.equal((await handleJson(newer, 'POST', CRDS, crd(rule))).status, 201);
    const probes = '/apis/example.com/v1/namespaces/default/probes';
    const bad = { apiVersion: 'example.com/v1', kind: 'Probe', metadata: { name: 'bad' }, spec: { version: 'one' } };
    const refused = await handleJson(newer, 'POST', probes, bad);
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.body.message, /failed rule: self\.version == '' \|\| isSemver\(self\.version\)/);

    // Rolled back to 1.33: writing that rule anew is refused...
    const older = createApiServer({ kubernetesVersion: '1.33' });
    assert.equal((await handleJson(older, 'POST', CRDS, crd(rule))).status, 422);
    // ...but the stored CRD's rule compiles as a stored expression, on an update that keeps it,
    const stored = specWith(rule);
    const path = 'spec.versions[0].schema.openAPIV3Schema.properties[spec]';
    const kept = { ...specWith(rule), properties: { ...SPEC_SCHEMA.properties, extra: { type: 'string', maxLength: 8 } } };
    assert.deepEqual(celSchemaErrors(kept, path, preexistingExpressions(33, [stored])), []);
    // a changed rule is new again,
    const changed = specWith(`${rule} && self.version != 'x'`);
    const causes = celSchemaErrors(changed, path, preexistingExpressions(33, [stored]));
    assert.equal(causes.length, 1);
    assert.match(causes[0]!.message, /undeclared reference to 'isSemver'/);
    // and objects are still validated by it.
    const evaluated = validateCustomResource({ spec: { version: 'one' } }, { type: 'object', properties: { spec: stored } }, undefined);
    assert.equal(evaluated.causes.length, 1);
    assert.equal(
      validateCustomResource({ spec: { version: '1.2.3' } }, { type: 'object', properties: { spec: stored } }, undefined).causes.length,
      0,
    );
  });

  it('checks a rule a CRD update adds as a new expression, beside the rule it keeps', async () => {
    const server = createApiServer({ kubernetesVersion: '1.33' });
    const created = await handleJson(server, 'POST', CRDS, crd("self.version != 'x'"));
    assert.equal(created.status, 201, created.text);
    const update = structuredClone(created.body);
    update.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'].push({ rule: "isSemver('1.0.0')" });
    const r = await handleJson(server, 'PUT', `${CRDS}/probes.example.com`, update);
    assert.equal(r.status, 422, r.text);
    const causes = r.body.details.causes as Cause[];
    assert.deepEqual(
      causes.map((c) => c.field),
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule'],
      r.text,
    );
    assert.match(causes[0]!.message, /undeclared reference to 'isSemver'/);
  });

  it('selects a field named by a CEL keyword by that name from 1.32 (compatibility 1.31), escaped on every minor', async () => {
    const withNamespace = (rule: string) => {
      const c = crd(rule);
      const spec = c.spec.versions[0]!.schema.openAPIV3Schema.properties.spec as JSONSchemaProps;
      spec.properties = { ...spec.properties, namespace: { type: 'string', maxLength: 63 } };
      return c;
    };
    const probes = '/apis/example.com/v1/namespaces/default/probes';
    const probe = (name: string, namespace: string) => ({
      apiVersion: 'example.com/v1',
      kind: 'Probe',
      metadata: { name },
      spec: { namespace },
    });
    for (const minor of MINORS) {
      const server = createApiServer({ kubernetesVersion: `1.${minor}` });
      const plain = await handleJson(server, 'POST', CRDS, withNamespace("self.namespace != 'kube-system'"));
      if (minor < 32) {
        assert.equal(plain.status, 422, `1.${minor}: ${plain.text}`);
        assert.match((plain.body.details.causes as Cause[])[0]!.message, /undefined field 'namespace'/);
        const escaped = await handleJson(server, 'POST', CRDS, withNamespace("self.__namespace__ != 'kube-system'"));
        assert.equal(escaped.status, 201, `1.${minor}: ${escaped.text}`);
      } else assert.equal(plain.status, 201, `1.${minor}: ${plain.text}`);
      assert.equal((await handleJson(server, 'POST', probes, probe('ok', 'apps'))).status, 201);
      assert.equal((await handleJson(server, 'POST', probes, probe('bad', 'kube-system'))).status, 422, `1.${minor}`);
    }
  });

  it('refuses a ValidatingAdmissionPolicy whose expression is newer than the compatibility version, on create', async () => {
    const policy = (name: string, expression: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        },
        validations: [{ expression }],
      },
    });
    const semver = "!has(object.data) || !('v' in object.data) || isSemver(object.data.v)";
    const selectors = "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=a').check('list').allowed()";
    for (const minor of MINORS) {
      const server = createApiServer({ kubernetesVersion: `1.${minor}` });
      for (const [name, expression, firstMinor] of [
        ['semver', semver, 34],
        ['selectors', selectors, 32],
      ] as const) {
        const r = await handleJson(server, 'POST', POLICIES, policy(name, expression));
        const what = `${name} on 1.${minor}`;
        if (minor >= firstMinor) {
          assert.equal(r.status, 201, `${what}: ${r.text}`);
          continue;
        }
        assert.equal(r.status, 422, `${what}: ${r.text}`);
        const causes = r.body.details.causes as Cause[];
        assert.equal(causes[0]!.field, 'spec.validations[0].expression');
        assert.match(causes[0]!.message, NOT_IN_ENVIRONMENT, what);
      }
    }
  });

  it('charges an authorization check its 350 000 in admission expressions from 1.32 only (1.31 left strict cost off)', async () => {
    const check = (path: string) => `authorizer.path('${path}').check('get').allowed()`;
    const threeChecks = ['/a', '/b', '/c'].map(check).join(' && ');
    for (const minor of [31, 32]) {
      const server = createApiServer({ kubernetesVersion: `1.${minor}` });
      const policy = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'three-checks' },
        spec: {
          matchConstraints: {
            resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          },
          validations: [{ expression: threeChecks }],
        },
      };
      assert.equal((await handleJson(server, 'POST', POLICIES, policy)).status, 201);
      const binding = {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'three-checks' },
        spec: { policyName: 'three-checks', validationActions: ['Deny'] },
      };
      assert.equal((await handleJson(server, 'POST', `${POLICIES.replace(/policies$/, 'policybindings')}`, binding)).status, 201);
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } };
      const r = await handleJson(server, 'POST', '/api/v1/namespaces/default/configmaps', cm);
      if (minor === 31) assert.equal(r.status, 201, r.text);
      else {
        assert.equal(r.status, 422, r.text);
        assert.match(r.body.message, /operation cancelled: actual cost limit exceeded$/);
      }
    }
  });

  it('refuses a too-new expression an update adds to a policy, beside the expression it keeps', async () => {
    const server = createApiServer({ kubernetesVersion: '1.33' });
    const expression = "object.metadata.name != 'x'";
    const body = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
        validations: [{ expression }],
      },
    };
    const created = await handleJson(server, 'POST', POLICIES, body);
    assert.equal(created.status, 201, created.text);
    const update = structuredClone(created.body);
    update.spec.validations.push({ expression: "isSemver('1.0.0')" });
    const r = await handleJson(server, 'PUT', `${POLICIES}/p`, update);
    assert.equal(r.status, 422, r.text);
    assert.equal((r.body.details.causes as Cause[])[0]!.field, 'spec.validations[1].expression');
  });

  it('keeps an expression stored on a policy update only in the kind of field that held it, as kube groups old expressions', () => {
    // A stored policy written by a 1.33 server before a rollback, or kept since: isSemver is newer than
    // 1.33's compatibility version, so it compiles only as a stored expression.
    const semver = "isSemver('1.0.0')";
    const strategyOf = (kind: string) => BUILTIN_KINDS.map((k) => k.strategy({ list: () => [] })).find((s) => s.kind === kind)!;
    const ctx: WriteContext = { version: 'v1', now: 0, fieldValidation: 'Strict', warnings: [], kubernetesMinor: 33 };
    const matchConstraints = {
      resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], scope: '*' }],
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    };
    const object = (kind: string, spec: Record<string, unknown>): KubeObject => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name: 'p' },
      spec: { failurePolicy: 'Fail', matchConstraints, ...spec },
    });
    const refused = (kind: string, old: Record<string, unknown>, updated: Record<string, unknown>): string[] =>
      strategyOf(kind)
        .validateUpdate(object(kind, updated), object(kind, old), ctx)
        .map((c) => c.field);

    const vap = 'ValidatingAdmissionPolicy';
    const kept = { validations: [{ expression: semver }] };
    assert.deepEqual(refused(vap, kept, kept), [], 'kept where it was: stored');
    assert.deepEqual(
      refused(vap, kept, { validations: [{ expression: 'true' }], matchConditions: [{ name: 'm', expression: semver }] }),
      ['spec.matchConditions[0].expression'],
      'moved from a validation to a match condition: new',
    );
    assert.deepEqual(
      refused(vap, kept, { validations: [{ expression: 'true', messageExpression: `${semver} ? 'a' : 'b'` }] }),
      ['spec.validations[0].messageExpression'],
      'a message expression is looked up among old message expressions only',
    );
    // kube's own quirk: variables are looked up among the old validations, and old variables are not kept.
    assert.deepEqual(
      refused(vap, kept, { ...kept, variables: [{ name: 'v', expression: semver }] }),
      [],
      'a variable equal to an old validation',
    );
    const withVariable = { variables: [{ name: 'v', expression: semver }], validations: [{ expression: 'variables.v' }] };
    assert.deepEqual(refused(vap, withVariable, withVariable), ['spec.variables[0].expression'], 'a kept variable is new');
    const condition = { validations: [{ expression: 'true' }], matchConditions: [{ name: 'm', expression: semver }] };
    assert.deepEqual(
      refused(vap, condition, { ...condition, matchConditions: [{ name: 'm', expression: ` ${semver} ` }] }),
      [],
      'a match condition is looked up trimmed',
    );

    // kube's other quirk: a JSONPatch mutation is looked up among the old ApplyConfiguration expressions.
    const map = 'MutatingAdmissionPolicy';
    const patch = `${semver} ? [JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}] : []`;
    const jsonPatch = { reinvocationPolicy: 'Never', mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression: patch } }] };
    const applied = {
      reinvocationPolicy: 'Never',
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: patch } }],
    };
    assert.deepEqual(refused(map, jsonPatch, jsonPatch), ['spec.mutations[0].jsonPatch.expression'], 'a kept JSONPatch is new');
    assert.deepEqual(refused(map, applied, jsonPatch), [], 'a JSONPatch equal to an old ApplyConfiguration is stored');

    // Match conditions are looked up trimmed among the old ones as written, so one kept with spaces around it is new.
    const padded = { matchConditions: [{ name: 'm', expression: ` ${semver} ` }] };
    assert.deepEqual(refused(vap, { ...kept, ...padded }, { ...kept, ...padded }), ['spec.matchConditions[0].expression']);
    const webhooks = (expression: string): KubeObject => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'w' },
      webhooks: [{ name: 'w.example.com', matchConditions: [{ name: 'm', expression }] }],
    });
    const hooks = strategyOf('ValidatingWebhookConfiguration');
    assert.deepEqual(hooks.validateUpdate(webhooks(` ${semver}`), webhooks(semver), ctx), [], 'trimmed, it is the old one');
    assert.deepEqual(
      hooks.validateUpdate(webhooks(` ${semver}`), webhooks(` ${semver}`), ctx).map((c) => c.field),
      ['webhooks[0].matchConditions[0].expression'],
    );
  });
});
