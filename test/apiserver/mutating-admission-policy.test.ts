// MutatingAdmissionPolicy through the in-process server: apply configurations merged as server-side
// apply merges (containers by name), JSON patches with escaped keys and kube-apiserver's `test`
// semantics, mutation visible on create, update and in dry runs, param-based mutations, match
// conditions, reinvocation, failurePolicy, order against validating policies, the compile check on
// create, both served versions; and ValidatingAdmissionPolicy on DELETE.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson } from './helpers.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CMS = '/api/v1/namespaces/default/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
type Obj = Record<string, unknown>;

const rules = (resources: string[], operations = ['CREATE', 'UPDATE'], groups = ['']) => ({
  resourceRules: [{ apiGroups: groups, apiVersions: ['v1'], operations, resources }],
});

function policy(name: string, spec: Obj) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: rules(['configmaps']), ...spec },
  };
}

const binding = (name: string, spec: Obj = {}) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName: name, ...spec },
});

const applyConfiguration = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });

const configMap = (name: string, extra: Obj = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: '1' },
  ...extra,
});

async function install(s: ApiServer, p: Obj, b: Obj = binding(String((p.metadata as Obj).name))): Promise<void> {
  const rp = await handleJson(s, 'POST', `${AR}/mutatingadmissionpolicies`, p);
  assert.equal(rp.status, 201, rp.text);
  const rb = await handleJson(s, 'POST', `${AR}/mutatingadmissionpolicybindings`, b);
  assert.equal(rb.status, 201, rb.text);
}

const labelEnv = policy('label-env', {
  mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"env": "test"}}}')],
});

describe('MutatingAdmissionPolicy', () => {
  it('merges an apply configuration into a created object, visible in the answer and in storage', async () => {
    const s = createApiServer();
    await install(s, labelEnv);
    const r = await handleJson(s, 'POST', CMS, configMap('one', { metadata: { name: 'one', labels: { keep: 'me' } } }));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.metadata.labels, { keep: 'me', env: 'test' });
    const got = await handleJson(s, 'GET', `${CMS}/one`);
    assert.deepEqual(got.body.metadata.labels, { keep: 'me', env: 'test' });
  });

  it('leaves the fields it sets owned by no manager, as the real server records managed fields before admission', async () => {
    const s = createApiServer();
    await install(s, labelEnv);
    const r = await handleJson(
      s,
      'POST',
      `${CMS}?fieldManager=tester`,
      configMap('one', { metadata: { name: 'one', labels: { keep: 'me' } } }),
    );
    assert.equal(r.status, 201, r.text);
    const entries = r.body.metadata.managedFields as { manager: string; fieldsV1: Obj }[];
    assert.deepEqual(
      entries.map((e) => e.manager),
      ['tester'],
    );
    const labels = (entries[0]!.fieldsV1['f:metadata'] as Obj)['f:labels'] as Obj;
    assert.deepEqual(Object.keys(labels), ['f:keep'], "the label the policy set is nobody's");
    assert.deepEqual(r.body.metadata.labels, { keep: 'me', env: 'test' });
  });

  it('mutates dry runs the same way without storing anything', async () => {
    const s = createApiServer();
    await install(s, labelEnv);
    const r = await handleJson(s, 'POST', `${CMS}?dryRun=All`, configMap('dry'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.metadata.labels, { env: 'test' });
    assert.equal((await handleJson(s, 'GET', `${CMS}/dry`)).status, 404);
  });

  it('mutates updates, and sees the old object', async () => {
    const s = createApiServer();
    const p = policy('count-updates', {
      matchConstraints: rules(['configmaps'], ['UPDATE']),
      mutations: [
        applyConfiguration(
          'Object{metadata: Object.metadata{annotations: {"updates": string(int(oldObject.metadata.?annotations.updates.orValue("0")) + 1)}}}',
        ),
      ],
    });
    await install(s, p);
    const created = await handleJson(s, 'POST', CMS, configMap('c'));
    assert.equal(created.body.metadata.annotations, undefined, 'CREATE is not matched');
    const u1 = await handleJson(s, 'PUT', `${CMS}/c`, { ...created.body, data: { a: '2' } });
    assert.equal(u1.status, 200, u1.text);
    assert.deepEqual(u1.body.metadata.annotations, { updates: '1' });
    const u2 = await handleJson(s, 'PUT', `${CMS}/c`, { ...u1.body, data: { a: '3' } });
    assert.deepEqual(u2.body.metadata.annotations, { updates: '2' });
  });

  it('merges containers by name, as server-side apply does, keeping the other containers and fields', async () => {
    const s = createApiServer();
    await install(
      s,
      policy('inject-env', {
        matchConstraints: rules(['deployments'], ['CREATE'], ['apps']),
        mutations: [
          applyConfiguration(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
            containers: [Object.spec.template.spec.containers{name: "app", env: [Object.spec.template.spec.containers.env{name: "MODE", value: "test"}]}]
          }}}}`),
        ],
      }),
    );
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'app:1', env: [{ name: 'KEEP', value: '1' }] },
              { name: 'sidecar', image: 'proxy:1' },
            ],
          },
        },
      },
    };
    const r = await handleJson(s, 'POST', DEPLOYS, deployment);
    assert.equal(r.status, 201, r.text);
    const containers = r.body.spec.template.spec.containers as { name: string; image: string; env?: unknown[] }[];
    assert.deepEqual(
      containers.map((c) => [c.name, c.image, c.env]),
      [
        [
          'app',
          'app:1',
          [
            { name: 'KEEP', value: '1' },
            { name: 'MODE', value: 'test' },
          ],
        ],
        ['sidecar', 'proxy:1', undefined],
      ],
    );
  });

  it('refuses an apply configuration that would replace an atomic list, under failurePolicy Fail', async () => {
    const s = createApiServer();
    await install(
      s,
      policy('set-args', {
        matchConstraints: rules(['deployments'], ['CREATE'], ['apps']),
        mutations: [
          applyConfiguration(`Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{
            containers: [Object.spec.template.spec.containers{name: "app", args: ["--verbose"]}]}}}}`),
        ],
      }),
    );
    const r = await handleJson(s, 'POST', DEPLOYS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app:1' }] } },
      },
    });
    assert.equal(r.status, 403, r.text);
    assert.equal(
      r.body.message,
      "policy 'set-args' with binding 'set-args' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.template.spec.containers[0].args",
    );
  });

  it('applies JSON patches with escaped keys; a failed test leaves the object as it was', async () => {
    const s = createApiServer();
    await install(
      s,
      policy('patch', {
        mutations: [
          jsonPatch(`[
            JSONPatch{op: "test", path: "/data/a", value: "1"},
            JSONPatch{op: "add", path: "/metadata/annotations", value: {}},
            JSONPatch{op: "add", path: "/metadata/annotations/" + jsonpatch.escapeKey("example.com/patched"), value: "yes"}
          ]`),
        ],
      }),
    );
    const patched = await handleJson(s, 'POST', CMS, configMap('one'));
    assert.equal(patched.status, 201, patched.text);
    assert.deepEqual(patched.body.metadata.annotations, { 'example.com/patched': 'yes' });
    const untouched = await handleJson(s, 'POST', CMS, configMap('two', { data: { a: '2' } }));
    assert.equal(untouched.status, 201, untouched.text);
    assert.equal(untouched.body.metadata.annotations, undefined);
  });

  it('denies with 403 when a patch does not apply under Fail, and admits unchanged under Ignore', async () => {
    const s = createApiServer();
    const remove = [jsonPatch('[JSONPatch{op: "remove", path: "/data/missing"}]')];
    await install(s, policy('strict', { mutations: remove }));
    const r = await handleJson(s, 'POST', CMS, configMap('one'));
    assert.equal(r.status, 403);
    assert.equal(r.body.reason, 'Invalid');
    assert.match(r.body.message, /^policy 'strict' with binding 'strict' denied request: JSONPath: /);
    assert.deepEqual(r.body.details.causes, [{ message: r.body.message }]);
    const lenient = createApiServer();
    await install(lenient, policy('lenient', { failurePolicy: 'Ignore', mutations: remove }));
    const ok = await handleJson(lenient, 'POST', CMS, configMap('one'));
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body.data, { a: '1' });
  });

  it('takes values from the params its binding names, and skips writes its match conditions refuse', async () => {
    const s = createApiServer();
    const p = policy('team', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConditions: [{ name: 'not-params', expression: "object.metadata.name != 'team-defaults'" }],
      variables: [{ name: 'team', expression: 'params.data.team' }],
      mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"team": variables.team}}}')],
    });
    await install(s, p, binding('team', { paramRef: { name: 'team-defaults', parameterNotFoundAction: 'Allow' } }));
    assert.equal((await handleJson(s, 'POST', CMS, configMap('team-defaults', { data: { team: 'blue' } }))).status, 201);
    const r = await handleJson(s, 'POST', CMS, configMap('app'));
    assert.deepEqual(r.body.metadata.labels, { team: 'blue' });
  });

  it('reinvokes IfNeeded policies once after a later policy changed the object, and Never policies not', async () => {
    const s = createApiServer();
    const increment = applyConfiguration(
      'Object{metadata: Object.metadata{annotations: {"count": string(int(object.metadata.?annotations.count.orValue("0")) + 1)}}}',
    );
    await install(s, policy('a-first', { reinvocationPolicy: 'IfNeeded', mutations: [increment] }));
    await install(s, policy('b-second', { reinvocationPolicy: 'IfNeeded', mutations: [increment] }));
    await install(s, policy('c-third', { reinvocationPolicy: 'Never', mutations: [increment] }));
    const r = await handleJson(s, 'POST', CMS, configMap('counted'));
    assert.equal(r.status, 201, r.text);
    // a, b, c in the first pass; a and b once more (both ran before a later change); c never again.
    assert.deepEqual(r.body.metadata.annotations, { count: '5' });
  });

  it('runs before validating policies, which see the mutated object', async () => {
    const s = createApiServer();
    await install(s, labelEnv);
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'needs-env' },
      spec: { matchConstraints: rules(['configmaps']), validations: [{ expression: "object.metadata.labels.env == 'test'" }] },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicies`, vap)).status, 201);
    const vb = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'needs-env' },
      spec: { policyName: 'needs-env', validationActions: ['Deny'] },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicybindings`, vb)).status, 201);
    assert.equal((await handleJson(s, 'POST', CMS, configMap('ok'))).status, 201);
  });

  it('refuses a policy whose mutation does not compile or has no patch of its type, with the field', async () => {
    const s = createApiServer();
    const bad = policy('bad', {
      mutations: [applyConfiguration('Object{metadata: }'), { patchType: 'JSONPatch' }],
      reinvocationPolicy: 'Sometimes',
    });
    const r = await handleJson(s, 'POST', `${AR}/mutatingadmissionpolicies`, bad);
    assert.equal(r.status, 422, r.text);
    const fields = (r.body.details.causes as { field: string }[]).map((c) => c.field);
    assert.deepEqual(fields, ['spec.mutations[0].applyConfiguration.expression', 'spec.mutations[1].jsonPatch', 'spec.reinvocationPolicy']);
  });

  it('is served at v1 only, as 1.36 serves it: v1beta1 is off by default there, and a 404', async () => {
    const s = createApiServer();
    const r = await handleJson(s, 'POST', `${AR}/mutatingadmissionpolicies`, policy('defaults', labelEnv.spec));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.reinvocationPolicy, 'Never');
    assert.equal(r.body.spec.failurePolicy, 'Fail');
    const beta = '/apis/admissionregistration.k8s.io/v1beta1';
    assert.equal((await s.handle({ method: 'GET', path: beta, headers: {} })).status, 404);
    assert.equal((await s.handle({ method: 'GET', path: `${beta}/mutatingadmissionpolicies`, headers: {} })).status, 404);
  });
});

describe('ValidatingAdmissionPolicy on DELETE', () => {
  it('sees the stored object as oldObject and no object, and denies as its binding says', async () => {
    const s = createApiServer();
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'protect' },
      spec: {
        matchConstraints: rules(['configmaps'], ['DELETE']),
        validations: [{ expression: "object == null && oldObject.metadata.?labels.protected.orValue('') != 'true'", message: 'protected' }],
      },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicies`, vap)).status, 201);
    const vb = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'protect' },
      spec: { policyName: 'protect', validationActions: ['Deny'] },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicybindings`, vb)).status, 201);
    await handleJson(s, 'POST', CMS, configMap('keep', { metadata: { name: 'keep', labels: { protected: 'true' } } }));
    await handleJson(s, 'POST', CMS, configMap('drop'));
    const denied = await handleJson(s, 'DELETE', `${CMS}/keep`);
    assert.equal(denied.status, 422, denied.text);
    assert.equal(
      denied.body.message,
      `configmaps "keep" is forbidden: ValidatingAdmissionPolicy 'protect' with binding 'protect' denied request: protected`,
    );
    assert.equal((await handleJson(s, 'GET', `${CMS}/keep`)).status, 200);
    assert.equal((await handleJson(s, 'DELETE', `${CMS}/drop`)).status, 200);
  });

  it('adds a Warn binding’s warning to the delete’s answer, and deletes', async () => {
    const s = createApiServer();
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'note' },
      spec: {
        matchConstraints: rules(['configmaps'], ['DELETE']),
        validations: [{ expression: 'false', messageExpression: "'deleting ' + oldObject.metadata.name" }],
      },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicies`, vap)).status, 201);
    const vb = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'note' },
      spec: { policyName: 'note', validationActions: ['Warn'] },
    };
    assert.equal((await handleJson(s, 'POST', `${AR}/validatingadmissionpolicybindings`, vb)).status, 201);
    await handleJson(s, 'POST', CMS, configMap('gone'));
    const r = await s.handle({ method: 'DELETE', path: `${CMS}/gone`, headers: { accept: 'application/json' } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.headers?.warning, [
      `299 - ${JSON.stringify("Validation failed for ValidatingAdmissionPolicy 'note' with binding 'note': deleting gone")}`,
    ]);
    assert.equal((await handleJson(s, 'GET', `${CMS}/gone`)).status, 404);
  });
});
