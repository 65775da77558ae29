// ValidatingAdmissionPolicy through the in-process server: deny with kube-apiserver's message and
// code per reason, Warn as a Warning header, audit annotations, param-based policies, namespace and
// object selectors, matchConditions, variables, failurePolicy for runtime and configuration errors,
// and the compile check on create.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { handleJson } from './helpers.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CMS = '/api/v1/namespaces/default/configmaps';
type Audit = { operation: string; resource: string; name: string; annotations: Record<string, string> };

const CONFIGMAP_RULES = {
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
};

function policy(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: CONFIGMAP_RULES, ...spec },
  };
}

function binding(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec };
}

const configMap = (name: string, data: Record<string, string>, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

async function install(s: ApiServer, p: unknown, b: unknown): Promise<void> {
  const rp = await handleJson(s, 'POST', `${AR}/validatingadmissionpolicies`, p);
  assert.equal(rp.status, 201, rp.text);
  const rb = await handleJson(s, 'POST', `${AR}/validatingadmissionpolicybindings`, b);
  assert.equal(rb.status, 201, rb.text);
}

const atMostTwoKeys = { validations: [{ expression: '!has(object.data) || object.data.size() <= 2', message: 'at most two keys' }] };

describe('ValidatingAdmissionPolicy', () => {
  it('denies a matching write with 422 Invalid and the policy, binding and message in kube-apiserver words', async () => {
    const s = createApiServer();
    await install(
      s,
      policy('max-keys', atMostTwoKeys),
      binding('max-keys-binding', { policyName: 'max-keys', validationActions: ['Deny'] }),
    );
    assert.equal((await handleJson(s, 'POST', CMS, configMap('small', { a: '1' }))).status, 201);
    const r = await handleJson(s, 'POST', CMS, configMap('big', { a: '1', b: '2', c: '3' }));
    assert.equal(r.status, 422);
    assert.equal(r.body.reason, 'Invalid');
    const message = "ValidatingAdmissionPolicy 'max-keys' with binding 'max-keys-binding' denied request: at most two keys";
    assert.equal(r.body.message, `configmaps "big" is forbidden: ${message}`);
    assert.deepEqual(r.body.details, { name: 'big', kind: 'configmaps', causes: [{ message }] });
    const update = await handleJson(s, 'PUT', `${CMS}/small`, configMap('small', { a: '1', b: '2', c: '3' }));
    assert.equal(update.status, 422, 'updates are checked too');
  });

  it('answers with the code of the validation reason, and denies dry runs the same way', async () => {
    const s = createApiServer();
    const p = policy('forbid', { validations: [{ expression: "object.metadata.name != 'root'", reason: 'Forbidden' }] });
    await install(s, p, binding('forbid', { policyName: 'forbid', validationActions: ['Deny'] }));
    const r = await handleJson(s, 'POST', `${CMS}?dryRun=All`, configMap('root', {}));
    assert.equal(r.status, 403);
    assert.equal(r.body.reason, 'Forbidden');
    assert.match(r.body.message, /denied request: failed expression: object\.metadata\.name != 'root'$/);
  });

  it('turns a failed validation into a Warning header under the Warn action, admitting the write', async () => {
    const s = createApiServer();
    await install(s, policy('max-keys', atMostTwoKeys), binding('warn-only', { policyName: 'max-keys', validationActions: ['Warn'] }));
    const r = await s.handle({
      method: 'POST',
      path: CMS,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(configMap('big', { a: '1', b: '2', c: '3' })),
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.headers.warning, [
      `299 - ${JSON.stringify("Validation failed for ValidatingAdmissionPolicy 'max-keys' with binding 'warn-only': at most two keys")}`,
    ]);
  });

  it('records audit annotations under the policy name, and the Audit action records the failure', async () => {
    const audits: Audit[] = [];
    const s = createApiServer({ onAdmissionAudit: (e) => audits.push(e) });
    const p = policy('keys', {
      ...atMostTwoKeys,
      auditAnnotations: [{ key: 'count', valueExpression: "'keys=' + string(has(object.data) ? object.data.size() : 0)" }],
    });
    await install(s, p, binding('audit-only', { policyName: 'keys', validationActions: ['Audit'] }));
    assert.equal((await handleJson(s, 'POST', CMS, configMap('big', { a: '1', b: '2', c: '3' }))).status, 201);
    assert.equal(audits.length, 1);
    assert.equal(audits[0]!.name, 'big');
    assert.equal(audits[0]!.annotations['keys/count'], 'keys=3');
    assert.deepEqual(JSON.parse(audits[0]!.annotations['validation.policy.admission.k8s.io/validation_failure']!), [
      { message: 'at most two keys', policy: 'keys', binding: 'audit-only', expressionIndex: 0, validationActions: ['Audit'] },
    ]);
  });

  it('evaluates against the params a binding names, and denies per failurePolicy when they are missing', async () => {
    const s = createApiServer();
    const p = policy('limit', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }] },
      validations: [
        {
          expression: 'size(object.metadata.name) <= int(params.data.maxLength)',
          messageExpression: "'name longer than ' + params.data.maxLength",
        },
      ],
    });
    const b = binding('limit', {
      policyName: 'limit',
      validationActions: ['Deny'],
      paramRef: { name: 'limits', namespace: 'kube-system', parameterNotFoundAction: 'Deny' },
    });
    await install(s, p, b);
    const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name } });
    const missing = await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('abcdef'));
    assert.equal(missing.status, 422);
    assert.match(
      missing.body.message,
      /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/,
    );
    const params = await handleJson(s, 'POST', '/api/v1/namespaces/kube-system/configmaps', {
      ...configMap('limits', { maxLength: '4' }),
      metadata: { name: 'limits', namespace: 'kube-system' },
    });
    assert.equal(params.status, 201, params.text);
    assert.equal((await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('abcd'))).status, 201);
    const long = await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('abcdef'));
    assert.equal(long.status, 422);
    assert.match(long.body.message, /denied request: name longer than 4$/);
  });

  it('evaluates once per param a selector picks from the request namespace, and admits when none is found under Allow', async () => {
    const s = createApiServer();
    const p = policy('banned', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }] },
      validations: [{ expression: 'object.metadata.name != params.data.banned', messageExpression: "'banned by ' + params.metadata.name" }],
    });
    const b = binding('banned', {
      policyName: 'banned',
      validationActions: ['Deny'],
      paramRef: { selector: { matchLabels: { role: 'ban-list' } }, parameterNotFoundAction: 'Allow' },
    });
    await install(s, p, b);
    const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name } });
    assert.equal((await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('x'))).status, 201, 'no params: allowed');
    for (const [name, banned] of [
      ['ban-1', 'x2'],
      ['ban-2', 'x3'],
    ]) {
      const r = await handleJson(s, 'POST', CMS, configMap(name!, { banned: banned! }, { role: 'ban-list' }));
      assert.equal(r.status, 201, r.text);
    }
    assert.equal((await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('x4'))).status, 201);
    const r = await handleJson(s, 'POST', '/api/v1/namespaces/default/secrets', secret('x3'));
    assert.equal(r.status, 422);
    assert.match(r.body.message, /denied request: banned by ban-2$/);
    assert.equal(
      (await handleJson(s, 'POST', '/api/v1/namespaces/kube-system/secrets', secret('x3'))).status,
      201,
      'params of another namespace do not apply',
    );
  });

  it('sees the stored object as oldObject and the operation in request on updates', async () => {
    const s = createApiServer();
    const p = policy('frozen-a', {
      validations: [
        {
          expression: "request.operation != 'UPDATE' || object.data.a == oldObject.data.a",
          messageExpression: "request.operation + ' may not change a (was ' + oldObject.data.a + ')'",
          reason: 'Forbidden',
        },
      ],
    });
    await install(s, p, binding('frozen-a', { policyName: 'frozen-a', validationActions: ['Deny'] }));
    assert.equal((await handleJson(s, 'POST', CMS, configMap('c', { a: '1' }))).status, 201);
    assert.equal((await handleJson(s, 'PUT', `${CMS}/c`, configMap('c', { a: '1', b: '2' }))).status, 200);
    const r = await handleJson(s, 'PATCH', `${CMS}/c`, { data: { a: '9' } }, 'application/merge-patch+json');
    assert.equal(r.status, 403);
    assert.match(r.body.message, /denied request: UPDATE may not change a \(was 1\)$/);
  });

  it('applies only in namespaces its namespaceSelector selects, and only to objects its objectSelector selects', async () => {
    const s = createApiServer();
    const p = policy('prod-only', {
      ...atMostTwoKeys,
      matchConstraints: { ...CONFIGMAP_RULES, namespaceSelector: { matchLabels: { env: 'prod' } } },
    });
    await install(
      s,
      p,
      binding('prod-only', {
        policyName: 'prod-only',
        validationActions: ['Deny'],
        matchResources: { objectSelector: { matchExpressions: [{ key: 'exempt', operator: 'DoesNotExist' }] } },
      }),
    );
    const ns = await handleJson(s, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'prod', labels: { env: 'prod' } },
    });
    assert.equal(ns.status, 201);
    const big = { a: '1', b: '2', c: '3' };
    assert.equal((await handleJson(s, 'POST', CMS, configMap('big', big))).status, 201, 'default is not selected');
    assert.equal((await handleJson(s, 'POST', '/api/v1/namespaces/prod/configmaps', configMap('big', big))).status, 422);
    assert.equal((await handleJson(s, 'POST', '/api/v1/namespaces/prod/configmaps', configMap('big', big, { exempt: 'yes' }))).status, 201);
  });

  it('skips writes its matchConditions exclude, and its excludeResourceRules', async () => {
    const s = createApiServer();
    const p = policy('conditional', {
      ...atMostTwoKeys,
      matchConditions: [{ name: 'not-system', expression: "!object.metadata.name.startsWith('system-')" }],
      matchConstraints: {
        ...CONFIGMAP_RULES,
        excludeResourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'], resourceNames: ['free'] },
        ],
      },
    });
    await install(s, p, binding('conditional', { policyName: 'conditional', validationActions: ['Deny'] }));
    const big = { a: '1', b: '2', c: '3' };
    assert.equal((await handleJson(s, 'POST', CMS, configMap('system-big', big))).status, 201);
    assert.equal((await handleJson(s, 'POST', CMS, configMap('free', big))).status, 201);
    assert.equal((await handleJson(s, 'POST', CMS, configMap('user-big', big))).status, 422);
  });

  it('gives variables to later variables and validations', async () => {
    const s = createApiServer();
    const p = policy('vars', {
      variables: [
        { name: 'keys', expression: 'has(object.data) ? object.data.size() : 0' },
        { name: 'tooMany', expression: 'variables.keys > 2' },
      ],
      validations: [{ expression: '!variables.tooMany', messageExpression: "'has ' + string(variables.keys) + ' keys'" }],
    });
    await install(s, p, binding('vars', { policyName: 'vars', validationActions: ['Deny'] }));
    const r = await handleJson(s, 'POST', CMS, configMap('big', { a: '1', b: '2', c: '3' }));
    assert.match(r.body.message, /denied request: has 3 keys$/);
  });

  it('denies on an evaluation error under failurePolicy Fail and admits under Ignore', async () => {
    const s = createApiServer();
    const failing = { validations: [{ expression: "object.data['required'] == 'yes'" }] };
    await install(s, policy('strict', failing), binding('strict', { policyName: 'strict', validationActions: ['Deny'] }));
    const r = await handleJson(s, 'POST', CMS, configMap('x', { other: '1' }));
    assert.equal(r.status, 422);
    assert.equal(
      r.body.details.causes[0].message,
      "ValidatingAdmissionPolicy 'strict' with binding 'strict' denied request: expression 'object.data['required'] == 'yes'' resulted in error: no such key: required",
    );
    const s2 = createApiServer();
    await install(
      s2,
      policy('lenient', { ...failing, failurePolicy: 'Ignore' }),
      binding('lenient', { policyName: 'lenient', validationActions: ['Deny'] }),
    );
    assert.equal((await handleJson(s2, 'POST', CMS, configMap('x', { other: '1' }))).status, 201);
  });

  it('refuses a policy whose expressions do not compile, with the compiler message per field, and a binding without actions', async () => {
    const s = createApiServer();
    const r = await handleJson(
      s,
      'POST',
      `${AR}/validatingadmissionpolicies`,
      policy('broken', { validations: [{ expression: 'object.data.size( <= 2' }, { expression: 'nope == 1' }] }),
    );
    assert.equal(r.status, 422);
    assert.deepEqual(
      r.body.details.causes.map((c: { field: string }) => c.field),
      ['spec.validations[0].expression', 'spec.validations[1].expression'],
    );
    assert.match(
      r.body.details.causes[1].message,
      /^Invalid value: "nope == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' \(in container ''\)/,
    );
    const b = await handleJson(s, 'POST', `${AR}/validatingadmissionpolicybindings`, binding('b', { policyName: 'p' }));
    assert.equal(b.status, 422);
    assert.equal(b.body.details.causes[0].message, 'Required value: at least one validation action is required');
  });

  it('defaults failurePolicy and the match fields, and never applies to admission configuration itself', async () => {
    const s = createApiServer();
    const p = policy('deny-all', {
      matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
      validations: [{ expression: 'false' }],
    });
    await install(s, p, binding('deny-all', { policyName: 'deny-all', validationActions: ['Deny'] }));
    const stored = await handleJson(s, 'GET', `${AR}/validatingadmissionpolicies/deny-all`);
    assert.equal(stored.body.spec.failurePolicy, 'Fail');
    assert.deepEqual(stored.body.spec.matchConstraints.namespaceSelector, {});
    assert.equal(stored.body.spec.matchConstraints.matchPolicy, 'Equivalent');
    assert.equal(stored.body.spec.matchConstraints.resourceRules[0].scope, '*');
    assert.equal((await handleJson(s, 'POST', CMS, configMap('x', {}))).status, 422);
    assert.equal((await handleJson(s, 'DELETE', `${AR}/validatingadmissionpolicybindings/deny-all`)).status, 200, 'the lock can be undone');
    assert.equal((await handleJson(s, 'POST', CMS, configMap('x', {}))).status, 201);
  });
});
