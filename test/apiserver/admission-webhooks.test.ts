// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// Admission webhooks as the local API server calls them, one test per rule: mutating (patches,
// reinvocation, warnings), validating (denials, the stored form, DELETE), rules, namespace and
// object selectors, failurePolicy with a webhook that is down or times out (on the server's
// FakeClock), sideEffects with dry run, admissionReviewVersions, clientConfig url and service, caBundle.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { servingMaterial } from '../../src/apiserver/internal.js';
import { FakeClock, noopLogger } from 'kube-converge/meta';
import { WebhookServer, type AdmissionRequest, type AdmissionResponse } from 'kube-converge/webhook';
import { certDir } from '../webhook/helpers.js';
import { handleJson } from './helpers.js';
import { startLocalWebhooks } from './local-webhooks.js';

type Hook = (req: AdmissionRequest, signal: AbortSignal) => AdmissionResponse | Promise<AdmissionResponse>;

/** One webhook server for the suite; each test points its configurations at paths it registers. */
let hooks: WebhookServer;
let url: string;
let caBundle: string;
let stopHooks: () => Promise<void>;
let paths = 0;

function serve(hook: Hook): string {
  const path = `/hook-${++paths}`;
  hooks.registerAdmission(
    { type: 'validating', path, group: '', version: 'v1', plural: 'configmaps', namespaced: true, operations: [], sideEffects: 'None' },
    async (req, ctx) => hook(req, ctx.signal),
  );
  return path;
}

const allow = (req: AdmissionRequest, extra: Partial<AdmissionResponse> = {}): AdmissionResponse => ({
  uid: req.uid,
  allowed: true,
  ...extra,
});
const jsonPatch = (ops: unknown[]) => ({ patchType: 'JSONPatch' as const, patch: Buffer.from(JSON.stringify(ops)).toString('base64') });
const CONFIGMAPS = [
  { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['configmaps'], scope: '*' },
];

interface HookSpec {
  name: string;
  path?: string;
  clientConfig?: Record<string, unknown>;
  [k: string]: unknown;
}

async function configure(api: ApiServer, type: 'mutating' | 'validating', name: string, webhooks: HookSpec[]): Promise<void> {
  const kind = type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const body = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: webhooks.map(({ path, clientConfig, ...w }) => ({
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      rules: CONFIGMAPS,
      clientConfig: clientConfig ?? { url: `${url}${path}`, caBundle },
      ...w,
    })),
  };
  const r = await handleJson(api, 'POST', `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}s`, body);
  assert.equal(r.status, 201, r.text);
}

const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: '1' },
});
const CM_PATH = '/api/v1/namespaces/default/configmaps';

before(async () => {
  ({ server: hooks, url, caBundle, stop: stopHooks } = await startLocalWebhooks());
});
after(() => stopHooks());

describe('admission webhooks in the local API server', () => {
  it('mutating: a webhook’s JSON patch is applied before the write, and its warnings reach the client as Warning headers', async () => {
    const api = createApiServer();
    const path = serve((req) => allow(req, { ...jsonPatch([{ op: 'add', path: '/data/b', value: '2' }]), warnings: ['b was defaulted'] }));
    await configure(api, 'mutating', 'defaults', [{ name: 'defaults.test.dev', path }]);
    const r = await api.handle({
      method: 'POST',
      path: CM_PATH,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cm('one')),
    });
    assert.equal(r.status, 201);
    assert.deepEqual((JSON.parse(r.body) as { data: unknown }).data, { a: '1', b: '2' });
    assert.deepEqual(r.headers?.warning, ['299 - "b was defaulted"']);
  });

  it('reinvocationPolicy: an IfNeeded webhook is called again after a later webhook changed the object, a Never one is not', async () => {
    const api = createApiServer();
    const calls = { ifNeeded: 0, never: 0 };
    const ifNeeded = serve((req) => (calls.ifNeeded++, allow(req)));
    const never = serve((req) => (calls.never++, allow(req)));
    const changer = serve((req) => allow(req, jsonPatch([{ op: 'add', path: '/metadata/labels', value: { changed: 'yes' } }])));
    await configure(api, 'mutating', 'a-first', [
      { name: 'if-needed.test.dev', path: ifNeeded, reinvocationPolicy: 'IfNeeded' },
      { name: 'never.test.dev', path: never, reinvocationPolicy: 'Never' },
    ]);
    await configure(api, 'mutating', 'b-second', [{ name: 'changer.test.dev', path: changer }]);
    const r = await handleJson(api, 'POST', CM_PATH, cm('two'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(calls, { ifNeeded: 2, never: 1 });
  });

  it('validating: a denial fails the write with the webhook named, and nothing is stored', async () => {
    const api = createApiServer();
    const path = serve((req) => ({ uid: req.uid, allowed: false, status: { code: 422, reason: 'Invalid', message: 'data.a must be 2' } }));
    await configure(api, 'validating', 'policy', [{ name: 'policy.test.dev', path }]);
    const r = await handleJson(api, 'POST', CM_PATH, cm('three'));
    assert.equal(r.status, 422);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'admission webhook "policy.test.dev" denied the request: data.a must be 2',
      reason: 'Invalid',
      code: 422,
    });
    assert.equal((await handleJson(api, 'GET', `${CM_PATH}/three`)).status, 404);
  });

  it('validating: webhooks see the object as it would be stored, after mutation and server-set metadata', async () => {
    const api = createApiServer();
    let seen: AdmissionRequest['object'];
    const mutate = serve((req) => allow(req, jsonPatch([{ op: 'add', path: '/data/m', value: 'x' }])));
    const validate = serve((req) => ((seen = req.object), allow(req)));
    await configure(api, 'mutating', 'm', [{ name: 'm.test.dev', path: mutate }]);
    await configure(api, 'validating', 'v', [{ name: 'v.test.dev', path: validate }]);
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('four'))).status, 201);
    assert.deepEqual(seen?.data, { a: '1', m: 'x' });
    assert.ok(seen?.metadata.creationTimestamp, 'server-set metadata is there');
  });

  it('validating: a DELETE is sent with the stored object as oldObject', async () => {
    const api = createApiServer();
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('five'))).status, 201);
    const seen: AdmissionRequest[] = [];
    const path = serve(
      (req) => (seen.push(req), req.operation === 'DELETE' ? { uid: req.uid, allowed: false, status: { message: 'keep it' } } : allow(req)),
    );
    await configure(api, 'validating', 'v', [{ name: 'no-delete.test.dev', path }]);
    const r = await handleJson(api, 'DELETE', `${CM_PATH}/five`);
    assert.equal(r.status, 403);
    assert.equal(seen[0]?.operation, 'DELETE');
    assert.equal(seen[0]?.oldObject?.metadata.name, 'five');
    assert.equal(seen[0]?.object, null);
  });

  it('an update whose stored object changed while its webhooks ran is refused with a conflict, so no change is lost', async () => {
    const api = createApiServer();
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('race'))).status, 201);
    let raced = false;
    const path = serve(async (req) => {
      if (req.operation === 'UPDATE' && !raced) {
        raced = true; // a concurrent writer commits while this webhook is still answering
        const r = await handleJson(api, 'PUT', `${CM_PATH}/race`, { ...cm('race'), data: { a: 'concurrent' } });
        assert.equal(r.status, 200, r.text);
      }
      return allow(req);
    });
    await configure(api, 'validating', 'v', [{ name: 'slow-check.test.dev', path }]);
    const r = await handleJson(api, 'PUT', `${CM_PATH}/race`, { ...cm('race'), data: { a: 'mine' } });
    assert.equal(r.status, 409);
    assert.equal((r.body as { reason: string }).reason, 'Conflict');
    assert.deepEqual(((await handleJson(api, 'GET', `${CM_PATH}/race`)).body as { data: unknown }).data, { a: 'concurrent' });
  });

  it('rules: operations, resources and scope decide which writes a webhook is called for', async () => {
    const api = createApiServer();
    const seen: string[] = [];
    const path = serve((req) => (seen.push(`${req.operation} ${req.resource.resource}`), allow(req)));
    await configure(api, 'validating', 'v', [
      {
        name: 'creates.test.dev',
        path,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], scope: 'Namespaced' }],
      },
    ]);
    await handleJson(api, 'POST', CM_PATH, cm('six'));
    await handleJson(api, 'PUT', `${CM_PATH}/six`, { ...cm('six'), data: { a: '2' } });
    await handleJson(api, 'POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    assert.deepEqual(seen, ['CREATE configmaps']);
  });

  it("namespaceSelector matches the namespace's labels and objectSelector the object's", async () => {
    const api = createApiServer();
    await handleJson(api, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'prod', labels: { env: 'production' } },
    });
    const seen: string[] = [];
    const path = serve((req) => (seen.push(`${req.namespace}/${req.name}`), allow(req)));
    await configure(api, 'validating', 'v', [
      {
        name: 'prod-only.test.dev',
        path,
        namespaceSelector: { matchLabels: { env: 'production' } },
        objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] },
      },
    ]);
    await handleJson(api, 'POST', CM_PATH, cm('in-default'));
    await handleJson(api, 'POST', '/api/v1/namespaces/prod/configmaps', cm('in-prod'));
    await handleJson(api, 'POST', '/api/v1/namespaces/prod/configmaps', cm('skipped', { labels: { skip: 'yes' } }));
    assert.deepEqual(seen, ['prod/in-prod']);
  });

  it('failurePolicy: a webhook that is down refuses the write under Fail and is skipped under Ignore', async () => {
    const api = createApiServer();
    const down = { url: 'https://127.0.0.1:1/down', caBundle };
    await configure(api, 'validating', 'v', [{ name: 'down.test.dev', clientConfig: down, failurePolicy: 'Fail' }]);
    const failed = await handleJson(api, 'POST', CM_PATH, cm('seven'));
    assert.equal(failed.status, 500);
    assert.match((failed.body as { message: string }).message, /^Internal error occurred: failed calling webhook "down\.test\.dev": /);
    const ignoring = createApiServer();
    await configure(ignoring, 'validating', 'v', [{ name: 'down.test.dev', clientConfig: down, failurePolicy: 'Ignore' }]);
    assert.equal((await handleJson(ignoring, 'POST', CM_PATH, cm('seven'))).status, 201);
  });

  it("timeoutSeconds: a webhook that does not answer in time fails the call, measured on the server's clock", async () => {
    const clock = new FakeClock();
    const api = createApiServer({ clock });
    let called!: () => void;
    const reached = new Promise<void>((resolve) => (called = resolve));
    const path = serve(
      (req, signal) =>
        new Promise<AdmissionResponse>((resolve) => {
          called();
          signal.addEventListener('abort', () => resolve(allow(req)), { once: true });
        }),
    );
    await configure(api, 'validating', 'slow', [{ name: 'slow.test.dev', path, timeoutSeconds: 2, failurePolicy: 'Fail' }]);
    const pending = handleJson(api, 'POST', CM_PATH, cm('eight'));
    await reached;
    await clock.advance(2_000);
    const r = await pending;
    assert.equal(r.status, 500);
    assert.match((r.body as { message: string }).message, /failed calling webhook "slow\.test\.dev": context deadline exceeded/);
  });

  it('sideEffects: a dry run is refused when a matching webhook may have side effects, and sent with dryRun to one that has none', async () => {
    const api = createApiServer();
    const seen: boolean[] = [];
    const path = serve((req) => (seen.push(req.dryRun === true), allow(req)));
    await configure(api, 'validating', 'v', [{ name: 'safe.test.dev', path, sideEffects: 'NoneOnDryRun' }]);
    const dry = await handleJson(api, 'POST', `${CM_PATH}?dryRun=All`, cm('nine'));
    assert.equal(dry.status, 201);
    assert.deepEqual(seen, [true]);
    assert.equal((await handleJson(api, 'GET', `${CM_PATH}/nine`)).status, 404, 'a dry run stores nothing');
    const unsafe = createApiServer();
    await configure(unsafe, 'validating', 'v', [{ name: 'unsafe.test.dev', path, sideEffects: 'Unknown' }]);
    const refused = await handleJson(unsafe, 'POST', `${CM_PATH}?dryRun=All`, cm('nine'));
    assert.equal(refused.status, 400);
    assert.equal((refused.body as { message: string }).message, 'admission webhook "unsafe.test.dev" does not support dry run');
  });

  it('admissionReviewVersions: the first version the server speaks is sent, and a webhook that accepts none fails under its failurePolicy', async () => {
    const api = createApiServer();
    const path = serve((req) => allow(req));
    await configure(api, 'validating', 'v', [{ name: 'beta.test.dev', path, admissionReviewVersions: ['v9', 'v1beta1'] }]);
    // The webhook server answers in the request's review version, so v1beta1 round-trips.
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('ten'))).status, 201);
    const none = createApiServer();
    await configure(none, 'validating', 'v', [{ name: 'v9.test.dev', path, admissionReviewVersions: ['v9'] }]);
    const r = await handleJson(none, 'POST', CM_PATH, cm('ten'));
    assert.equal(r.status, 500);
    assert.match((r.body as { message: string }).message, /does not accept known AdmissionReview versions: v9/);
  });

  it('caBundle: without a bundle that signs the webhook’s certificate, the call fails', async () => {
    const api = createApiServer();
    const path = serve((req) => allow(req));
    await configure(api, 'validating', 'v', [{ name: 'untrusted.test.dev', clientConfig: { url: `${url}${path}` } }]);
    const r = await handleJson(api, 'POST', CM_PATH, cm('eleven'));
    assert.equal(r.status, 500);
    assert.match((r.body as { message: string }).message, /failed calling webhook "untrusted\.test\.dev"/);
  });

  it("clientConfig service: resolves through the Service's Endpoints, verifying the certificate for <name>.<namespace>.svc", async () => {
    const api = createApiServer();
    const svcMaterial = await servingMaterial('webhooks.default.svc');
    const certs = await certDir();
    await certs.write(svcMaterial);
    const svcHooks = new WebhookServer({ host: '127.0.0.1', port: 0, certDir: certs.dir, logger: noopLogger });
    const stopped = new AbortController();
    const running = svcHooks.start(stopped.signal);
    try {
      const port = Number(new URL(await svcHooks.listening()).port);
      let calls = 0;
      svcHooks.registerAdmission(
        {
          type: 'validating',
          path: '/validate',
          group: '',
          version: 'v1',
          plural: 'configmaps',
          namespaced: true,
          operations: [],
          sideEffects: 'None',
        },
        async (req) => (calls++, allow(req)),
      );
      await handleJson(api, 'POST', '/api/v1/namespaces/default/services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'webhooks' },
        spec: { ports: [{ name: 'https', port: 443, targetPort: port }] },
      });
      await handleJson(api, 'POST', '/api/v1/namespaces/default/endpoints', {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'webhooks' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }],
      });
      const service = { namespace: 'default', name: 'webhooks', path: '/validate', port: 443 };
      await configure(api, 'validating', 'v', [
        { name: 'svc.test.dev', clientConfig: { service, caBundle: Buffer.from(svcMaterial.caPem).toString('base64') } },
      ]);
      assert.equal((await handleJson(api, 'POST', CM_PATH, cm('twelve'))).status, 201);
      assert.equal(calls, 1);
    } finally {
      stopped.abort();
      await running;
      await certs.remove();
    }
  });
});
