// Imports apiserver's internal (private) face: machinery shared between layers that the package does not export.
// Admission webhooks' matchConditions in the local API server: all true calls the webhook, any false
// skips it, an evaluation error is the webhook's failure (failurePolicy Fail refuses the write, Ignore
// skips the webhook), `object`, `oldObject` and `request` are there to test, and a condition that
// does not compile is refused when the configuration is written.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import { servingMaterial } from '../../src/apiserver/internal.js';
import { noopLogger } from 'kube-converge/meta';
import { WebhookServer, type AdmissionRequest } from 'kube-converge/webhook';
import { certDir } from '../webhook/helpers.js';
import { handleJson } from './helpers.js';

let hooks: WebhookServer;
let url: string;
let caBundle: string;
const stop = new AbortController();
let cleanup: () => Promise<void>;
/** Every request the denying webhook was sent, by object name. */
const called: string[] = [];

const CM_PATH = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

function configuration(matchConditions: unknown[], failurePolicy = 'Fail') {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'deny' },
    webhooks: [
      {
        name: 'deny.test.dev',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy,
        matchConditions,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
        clientConfig: { url: `${url}/deny`, caBundle },
      },
    ],
  };
}

async function serverWith(matchConditions: unknown[], failurePolicy = 'Fail'): Promise<ApiServer> {
  const api = createApiServer();
  const r = await handleJson(
    api,
    'POST',
    '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    configuration(matchConditions, failurePolicy),
  );
  assert.equal(r.status, 201, r.text);
  called.length = 0;
  return api;
}

before(async () => {
  const material = await servingMaterial('127.0.0.1');
  caBundle = Buffer.from(material.caPem).toString('base64');
  const certs = await certDir();
  await certs.write(material);
  hooks = new WebhookServer({ host: '127.0.0.1', port: 0, certDir: certs.dir, logger: noopLogger });
  hooks.registerAdmission(
    {
      type: 'validating',
      path: '/deny',
      group: '',
      version: 'v1',
      plural: 'configmaps',
      namespaced: true,
      operations: [],
      sideEffects: 'None',
    },
    async (req: AdmissionRequest) => {
      called.push(req.name ?? '');
      return { uid: req.uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'denied by the webhook' } };
    },
  );
  const done = hooks.start(stop.signal);
  url = await hooks.listening();
  cleanup = async () => {
    stop.abort();
    await done;
    await certs.remove();
  };
});
after(() => cleanup());

describe('admission webhook matchConditions', () => {
  it('matchConditions: the webhook is called when every condition is true, and skipped when one is false', async () => {
    const api = await serverWith([
      { name: 'is-guarded', expression: "has(object.metadata.labels) && object.metadata.labels['guard'] == 'on'" },
      { name: 'always', expression: 'true' },
    ]);
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('free'))).status, 201);
    const guarded = { ...cm('guarded'), metadata: { name: 'guarded', labels: { guard: 'on' } } };
    const r = await handleJson(api, 'POST', CM_PATH, guarded);
    assert.equal(r.status, 403);
    assert.deepEqual(called, ['guarded']);
  });

  it('matchConditions: oldObject and request describe the write, as the AdmissionRequest does', async () => {
    const api = await serverWith([
      { name: 'update-from-1', expression: "request.operation == 'UPDATE' && oldObject.data.a == '1' && request.name == 'x'" },
    ]);
    const created = await handleJson(api, 'POST', CM_PATH, cm('x'));
    assert.equal(created.status, 201, 'a create does not match');
    const r = await handleJson(api, 'PUT', `${CM_PATH}/x`, { ...(created.body as object), data: { a: '2' } });
    assert.equal(r.status, 403);
    assert.deepEqual(called, ['x']);
  });

  it('matchConditions: a condition that fails to evaluate refuses the write under failurePolicy Fail', async () => {
    const api = await serverWith([{ name: 'reads-missing', expression: "object.data.missing == 'x'" }]);
    const r = await handleJson(api, 'POST', CM_PATH, cm('err'));
    assert.equal(r.status, 500);
    assert.match(
      (r.body as { message: string }).message,
      /^Internal error occurred: failed calling webhook "deny\.test\.dev": failed evaluating match conditions: /,
    );
    assert.deepEqual(called, []);
  });

  it('matchConditions: a condition that fails to evaluate skips the webhook under failurePolicy Ignore', async () => {
    const api = await serverWith([{ name: 'reads-missing', expression: "object.data.missing == 'x'" }], 'Ignore');
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('err'))).status, 201);
    assert.deepEqual(called, []);
  });

  it('matchConditions: a false condition skips the webhook even when another fails to evaluate', async () => {
    const api = await serverWith([
      { name: 'reads-missing', expression: "object.data.missing == 'x'" },
      { name: 'never', expression: 'false' },
    ]);
    assert.equal((await handleJson(api, 'POST', CM_PATH, cm('skip'))).status, 201);
  });

  it('matchConditions: a configuration whose condition does not compile, or repeats a name, is refused when written', async () => {
    const api = createApiServer();
    const path = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
    const bad = await handleJson(api, 'POST', path, configuration([{ name: 'typo', expression: 'object.metadata.name ==' }]));
    assert.equal(bad.status, 422);
    assert.match(
      (bad.body as { message: string }).message,
      /webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: .*compilation failed/,
    );
    const unknown = await handleJson(
      api,
      'POST',
      path,
      configuration([{ name: 'ns', expression: "namespaceObject.metadata.name == 'a'" }]),
    );
    assert.equal(unknown.status, 422, 'webhooks have no namespaceObject variable');
    const twice = await handleJson(
      api,
      'POST',
      path,
      configuration([
        { name: 'a', expression: 'true' },
        { name: 'a', expression: 'true' },
      ]),
    );
    assert.equal(twice.status, 422);
    assert.match((twice.body as { message: string }).message, /webhooks\[0\]\.matchConditions\[1\]\.name: Duplicate value: "a"/);
  });
});
