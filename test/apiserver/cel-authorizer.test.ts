// Imports the private cel/ face to evaluate the authorizer library directly beside the server.
// The CEL `authorizer` variable in admission expressions, answered by the server's RBAC authorizer
// for the request's user: resource and path checks, another ServiceAccount's checks, the request's
// own resource, a decision's reason, webhook match conditions and mutating policies; the checks'
// cost against kube-apiserver's limits; and the compile errors for an authorizer used wrongly or
// where none is declared.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer, type UserInfo } from 'kube-converge/apiserver';
import { celAuthorizer, compile, evaluate, PER_CALL_LIMIT } from '../../src/apiserver/cel/index.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const CMS = '/api/v1/namespaces/default/configmaps';
type Obj = Record<string, unknown>;

const sa = (name: string, namespace = 'default'): UserInfo => ({
  username: `system:serviceaccount:${namespace}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
});
const READER = sa('reader');
const WRITER = sa('writer');

/** One request to the in-process server, as `user` (the trusted admin when none is given). */
async function call(api: ApiServer, method: string, path: string, body?: unknown, user?: UserInfo) {
  const r = await api.handle({
    method,
    path,
    ...(user ? { user } : {}),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, text: r.body, body: r.body.startsWith('{') ? JSON.parse(r.body) : undefined };
}

async function created(api: ApiServer, path: string, body: unknown): Promise<void> {
  const r = await call(api, 'POST', path, body);
  assert.equal(r.status, 201, r.text);
}

const rule = (verbs: string[], resources: string[], extra: Obj = {}) => ({ apiGroups: [''], verbs, resources, ...extra });
const toSa = (name: string) => [{ kind: 'ServiceAccount', name, namespace: 'default' }];

async function role(api: ApiServer, name: string, rules: Obj[], subjects: Obj[]): Promise<void> {
  await created(api, `${RBAC}/namespaces/default/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name },
    rules,
  });
  await roleBinding(api, name, name, subjects);
}

async function roleBinding(api: ApiServer, name: string, roleName: string, subjects: Obj[]): Promise<void> {
  await created(api, `${RBAC}/namespaces/default/rolebindings`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
    subjects,
  });
}

/** A server where both ServiceAccounts may write ConfigMaps and only `reader` may get Secrets. */
async function server(): Promise<ApiServer> {
  const api = createApiServer();
  await role(api, 'configmap-writer', [rule(['create', 'update', 'get'], ['configmaps'])], [...toSa('reader'), ...toSa('writer')]);
  await role(api, 'secret-reader', [rule(['get'], ['secrets'])], toSa('reader'));
  return api;
}

const CONFIGMAP_WRITES = {
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
};

async function validatingPolicy(api: ApiServer, name: string, spec: Obj): Promise<void> {
  await created(api, `${AR}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: CONFIGMAP_WRITES, ...spec },
  });
  await created(api, `${AR}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Deny'] },
  });
}

const configMap = (name: string, data: Record<string, string> = { a: '1' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const MAY_GET_SECRETS = "authorizer.group('').resource('secrets').namespace(request.namespace).check('get').allowed()";

describe('CEL authorizer in validating admission policies', () => {
  it('denies a ConfigMap write unless the writer may get Secrets in its namespace, as RBAC says', async () => {
    const api = await server();
    await validatingPolicy(api, 'secret-readers-only', {
      validations: [
        {
          expression: MAY_GET_SECRETS,
          reason: 'Forbidden',
          messageExpression: "request.userInfo.username + ' may not read secrets in ' + request.namespace",
        },
      ],
    });
    assert.equal((await call(api, 'POST', CMS, configMap('by-reader'), READER)).status, 201);
    const denied = await call(api, 'POST', CMS, configMap('by-writer'), WRITER);
    assert.equal(denied.status, 403, denied.text);
    assert.equal(
      denied.body.message,
      `configmaps "by-writer" is forbidden: ValidatingAdmissionPolicy 'secret-readers-only' with binding 'secret-readers-only' denied request: system:serviceaccount:default:writer may not read secrets in default`,
    );
    assert.equal((await call(api, 'POST', CMS, configMap('by-admin'))).status, 201, 'system:masters is allowed every check');
    await role(api, 'late-secret-reader', [rule(['get'], ['secrets'])], toSa('writer'));
    assert.equal((await call(api, 'POST', CMS, configMap('by-writer'), WRITER)).status, 201, 'a new binding is in force at once');
  });

  it("checks another ServiceAccount with authorizer.serviceAccount, in that account's groups only", async () => {
    const api = await server();
    await validatingPolicy(api, 'reader-may-read', {
      validations: [
        {
          expression:
            "authorizer.serviceAccount('default', 'reader').group('').resource('secrets').namespace('default').check('get').allowed()",
        },
        // The account's own groups, without system:authenticated: the bootstrap public-info-viewer binding does not reach it.
        { expression: "!authorizer.serviceAccount('default', 'reader').path('/version').check('get').allowed()" },
        { expression: "authorizer.path('/version').check('get').allowed()" },
      ],
    });
    assert.equal((await call(api, 'POST', CMS, configMap('one'), WRITER)).status, 201, 'the writer is judged by what the reader may do');
    assert.equal((await call(api, 'DELETE', `${RBAC}/namespaces/default/rolebindings/secret-reader`)).status, 200);
    const r = await call(api, 'POST', CMS, configMap('two'), WRITER);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /denied request: failed expression: authorizer\.serviceAccount\('default', 'reader'\)/);
  });

  it('refuses an invalid ServiceAccount name in authorizer.serviceAccount at run time', async () => {
    const api = await server();
    await validatingPolicy(api, 'bad-account', {
      validations: [{ expression: "authorizer.serviceAccount('Not_A_Namespace', 'x').path('/healthz').check('get').allowed()" }],
    });
    const r = await call(api, 'POST', CMS, configMap('one'), READER);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /resulted in error: Invalid service account namespace$/);
  });

  it('checks a non-resource path against a ClusterRole with nonResourceURLs', async () => {
    const api = await server();
    await created(api, `${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'metrics-reader' },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
    });
    await created(api, `${RBAC}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'metrics-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: toSa('reader'),
    });
    await validatingPolicy(api, 'metrics-readers-only', {
      validations: [
        {
          expression: "authorizer.path('/metrics/cpu').check('get').allowed() && !authorizer.path('/metrics/cpu').check('post').allowed()",
        },
      ],
    });
    assert.equal((await call(api, 'POST', CMS, configMap('one'), READER)).status, 201);
    assert.equal((await call(api, 'POST', CMS, configMap('two'), WRITER)).status, 422);
  });

  it("checks the request's own resource and name with authorizer.requestResource", async () => {
    const api = await server();
    await role(api, 'deleter', [rule(['delete'], ['configmaps'], { resourceNames: ['disposable'] })], toSa('writer'));
    await validatingPolicy(api, 'only-deletable-changes', {
      matchConstraints: { resourceRules: [{ ...CONFIGMAP_WRITES.resourceRules[0], operations: ['UPDATE'] }] },
      validations: [{ expression: "authorizer.requestResource.check('delete').allowed()", message: 'may only change what it may delete' }],
    });
    for (const name of ['disposable', 'kept']) await created(api, CMS, configMap(name));
    assert.equal((await call(api, 'PUT', `${CMS}/disposable`, configMap('disposable', { a: '2' }), WRITER)).status, 200);
    const r = await call(api, 'PUT', `${CMS}/kept`, configMap('kept', { a: '2' }), WRITER);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /denied request: may only change what it may delete$/);
  });

  it("reports a decision's reason, with errored() false and error() empty, as RBAC gives them", async () => {
    const api = await server();
    await roleBinding(api, 'to-nothing', 'missing', toSa('writer'));
    await validatingPolicy(api, 'explain', {
      variables: [{ name: 'secrets', expression: "authorizer.group('').resource('secrets').namespace('default').check('get')" }],
      validations: [
        {
          expression: 'false',
          messageExpression:
            "variables.secrets.reason() + ' | errored=' + string(variables.secrets.errored()) + ' | error=' + variables.secrets.error()",
        },
      ],
    });
    const allowed = await call(api, 'POST', CMS, configMap('one'), READER);
    assert.match(
      allowed.body.message,
      /denied request: RBAC: allowed by RoleBinding "secret-reader\/default" of Role "secret-reader" to ServiceAccount "reader\/default" \| errored=false \| error=$/,
    );
    const denied = await call(api, 'POST', CMS, configMap('two'), WRITER);
    assert.match(
      denied.body.message,
      /denied request: RBAC: role\.rbac\.authorization\.k8s\.io "missing" not found \| errored=false \| error=$/,
    );
  });

  it('halts an expression with a third check at the per-call cost limit, and a policy with 29 checks at the budget', async () => {
    const api = await server();
    const check = (path: string) => `authorizer.path('${path}').check('get').allowed()`;
    const three = ['/a', '/b', '/c'].map(check).join(' || ');
    await validatingPolicy(api, 'three-checks', { validations: [{ expression: three }] });
    const r = await call(api, 'POST', CMS, configMap('one'), READER);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /resulted in error: operation cancelled: actual cost limit exceeded$/);

    const api2 = await server();
    const pairs = Array.from({ length: 15 }, (_, i) => ({ expression: `!(${check(`/x${i}`)} || ${check(`/y${i}`)})` }));
    await validatingPolicy(api2, 'many-checks', { validations: pairs });
    const out = await call(api2, 'POST', CMS, configMap('one'), READER);
    assert.equal(out.status, 422, out.text);
    assert.match(out.body.message, /validation failed due to running out of cost budget, no further validation rules will be run$/);
  });

  it('refuses a policy that misuses the authorizer, with the compiler message', async () => {
    const api = createApiServer();
    const r = await call(api, 'POST', `${AR}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'misuse' },
      spec: {
        matchConstraints: CONFIGMAP_WRITES,
        validations: [{ expression: 'authorizer.path(1)' }, { expression: "authorizer.path('/x').check('get') == true" }],
      },
    });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.body.details.causes.map((c: { message: string }) => c.message.split('\n')[0]),
      [
        `Invalid value: "authorizer.path(1)": compilation failed: ERROR: <input>:1:16: found no matching overload for 'path' applied to 'kubernetes.authorization.Authorizer.(int)'`,
        `Invalid value: "authorizer.path('/x').check('get') == true": compilation failed: ERROR: <input>:1:36: found no matching overload for '_==_' applied to '(kubernetes.authorization.Decision, bool)'`,
      ],
    );
  });
});

describe('CEL authorizer elsewhere', () => {
  it('calls a webhook only when its matchCondition on the authorizer holds', async () => {
    const api = await server();
    // Nothing listens there: a call fails the write (failurePolicy Fail), a skipped webhook does not.
    await created(api, `${AR}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'non-readers' },
      webhooks: [
        {
          name: 'non-readers.test.dev',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Fail',
          matchConditions: [{ name: 'cannot-read-secrets', expression: `!${MAY_GET_SECRETS}` }],
          rules: CONFIGMAP_WRITES.resourceRules,
          clientConfig: { url: 'https://127.0.0.1:1/validate' },
        },
      ],
    });
    assert.equal((await call(api, 'POST', CMS, configMap('by-reader'), READER)).status, 201, 'the webhook is skipped');
    const r = await call(api, 'POST', CMS, configMap('by-writer'), WRITER);
    assert.equal(r.status, 500, r.text);
    assert.match(r.body.message, /failed calling webhook "non-readers\.test\.dev"/);
  });

  it('refuses a webhook configuration whose matchCondition misuses the authorizer, with the compiler message', async () => {
    const api = createApiServer();
    const r = await call(api, 'POST', `${AR}/validatingwebhookconfigurations`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'misuse' },
      webhooks: [
        {
          name: 'misuse.test.dev',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          matchConditions: [{ name: 'bad', expression: "authorizer.check('get')" }],
          rules: CONFIGMAP_WRITES.resourceRules,
          clientConfig: { url: 'https://127.0.0.1:1/validate' },
        },
      ],
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.body.details.causes[0].message.split('\n')[0],
      `Invalid value: "authorizer.check('get')": compilation failed: ERROR: <input>:1:17: found no matching overload for 'check' applied to 'kubernetes.authorization.Authorizer.(string)'`,
    );
  });

  it('lets a mutating policy label an object by what its writer may do', async () => {
    const api = await server();
    await created(api, `${AR}/mutatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'label' },
      spec: {
        matchConstraints: CONFIGMAP_WRITES,
        mutations: [
          {
            patchType: 'ApplyConfiguration',
            applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"reads-secrets": string(${MAY_GET_SECRETS})}}}` },
          },
        ],
      },
    });
    await created(api, `${AR}/mutatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name: 'label' },
      spec: { policyName: 'label' },
    });
    const byReader = await call(api, 'POST', CMS, configMap('one'), READER);
    assert.deepEqual(byReader.body.metadata.labels, { 'reads-secrets': 'true' });
    const byWriter = await call(api, 'POST', CMS, configMap('two'), WRITER);
    assert.deepEqual(byWriter.body.metadata.labels, { 'reads-secrets': 'false' });
  });

  it('is not declared for CRD validation rules, so a rule naming it does not compile', () => {
    const c = compile("authorizer.path('/healthz').check('get').allowed()", { self: { kind: 'dyn' } });
    assert.equal(c.ok, false);
    assert.match(!c.ok ? c.error : '', /^compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' \(in container ''\)/);
  });

  it("estimates a check at kube-apiserver's 350 000 and a selector at its parse", () => {
    const authorizer = { authorizer: { kind: 'authorizer' } } as const;
    const one = compile("authorizer.path('/healthz').check('get').allowed()", authorizer);
    assert.ok(one.ok && one.program.estimatedCost >= 350_000 && one.program.estimatedCost < 350_010, JSON.stringify(one));
    const selected = compile("authorizer.group('').resource('pods').labelSelector('app=web').check('list').allowed()", authorizer);
    const plain = compile("authorizer.group('').resource('pods').check('list').allowed()", authorizer);
    // A 7-character selector: a list (10), a tenth of its length (1), four requirements of 50 each.
    assert.ok(selected.ok && plain.ok);
    assert.equal(selected.program.estimatedCost - plain.program.estimatedCost, 10 + 1 + 4 * 50);
  });

  it('charges the same check and selector costs at run time', () => {
    const allowAll = { authorize: () => ({ allowed: true, reason: '' }) };
    const request = { group: '', resource: 'pods', subresource: '', namespace: 'default', name: '' };
    const activation = { authorizer: celAuthorizer(allowAll, { username: 'u', groups: [] }, request) };
    const cost = (expression: string): number => {
      const c = compile(expression, { authorizer: { kind: 'authorizer' } });
      assert.ok(c.ok);
      const r = evaluate(c.program, activation, PER_CALL_LIMIT);
      assert.ok(r.ok, JSON.stringify(r));
      return r.cost;
    };
    const plain = cost("authorizer.requestResource.check('list').allowed()");
    assert.ok(plain >= 350_000 && plain < 350_010, String(plain));
    // The selector's parse, and one step for its string literal, which the estimate does not count.
    assert.equal(cost("authorizer.requestResource.labelSelector('app=web').check('list').allowed()") - plain, 10 + 1 + 4 * 50 + 1);
  });
});
