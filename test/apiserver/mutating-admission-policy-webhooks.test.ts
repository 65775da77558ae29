// Mutating admission policies beside mutating webhooks: policies run first (the webhook sees their
// change), and an IfNeeded policy runs once more after a webhook changed the object, while a Never
// policy does not.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import type { AdmissionRequest, AdmissionResponse, WebhookServer } from 'kube-converge/webhook';
import { handleJson } from './helpers.js';
import { startLocalWebhooks } from './local-webhooks.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CMS = '/api/v1/namespaces/default/configmaps';
const RULES = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], scope: '*' }];

let hooks: WebhookServer;
let url: string;
let caBundle: string;
let stopHooks: () => Promise<void>;

before(async () => {
  ({ server: hooks, url, caBundle, stop: stopHooks } = await startLocalWebhooks());
});
after(() => stopHooks());

/** A mutating webhook that records the labels it saw and adds `webhook: seen`. */
function labellingWebhook(seen: unknown[]): string {
  const path = '/label';
  hooks.registerAdmission(
    { type: 'mutating', path, group: '', version: 'v1', plural: 'configmaps', namespaced: true, operations: [], sideEffects: 'None' },
    async (req: AdmissionRequest): Promise<AdmissionResponse> => {
      const labels = (req.object as { metadata: { labels?: Record<string, string> } }).metadata.labels ?? {};
      seen.push(labels);
      const patch = [{ op: 'add', path: '/metadata/labels', value: { ...labels, webhook: 'seen' } }];
      return { uid: req.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
    },
  );
  return path;
}

async function install(api: ApiServer, name: string, reinvocationPolicy: string): Promise<void> {
  // Counts its runs in an annotation, and copies the webhook's label when it is there.
  const expression = `Object{metadata: Object.metadata{
    annotations: {"${name}-runs": string(int(object.metadata.?annotations["${name}-runs"].orValue("0")) + 1)},
    labels: {"${name}-saw-webhook": object.metadata.?labels.webhook.orValue("no")}}}`;
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: RULES },
      reinvocationPolicy,
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression } }],
    },
  };
  assert.equal((await handleJson(api, 'POST', `${AR}/mutatingadmissionpolicies`, policy)).status, 201);
  const binding = { apiVersion: policy.apiVersion, kind: 'MutatingAdmissionPolicyBinding', metadata: { name }, spec: { policyName: name } };
  assert.equal((await handleJson(api, 'POST', `${AR}/mutatingadmissionpolicybindings`, binding)).status, 201);
}

describe('mutating admission policies with mutating webhooks', () => {
  it('run before the webhooks, and an IfNeeded policy runs again after a webhook changed the object', async () => {
    const api = createApiServer();
    const seen: unknown[] = [];
    const path = labellingWebhook(seen);
    const webhooks = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'label' },
      webhooks: [
        {
          name: 'label.test.dev',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          rules: RULES,
          clientConfig: { url: `${url}${path}`, caBundle },
        },
      ],
    };
    assert.equal((await handleJson(api, 'POST', `${AR}/mutatingwebhookconfigurations`, webhooks)).status, 201);
    // In name order: `a-once` first, then `b-again`, which nothing after it changes but the webhook.
    await install(api, 'a-once', 'Never');
    await install(api, 'b-again', 'IfNeeded');
    const r = await handleJson(api, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(seen, [{ 'a-once-saw-webhook': 'no', 'b-again-saw-webhook': 'no' }], 'the webhook ran once, after both policies');
    assert.deepEqual(r.body.metadata.annotations, { 'a-once-runs': '1', 'b-again-runs': '2' });
    assert.deepEqual(r.body.metadata.labels, { 'a-once-saw-webhook': 'no', 'b-again-saw-webhook': 'seen', webhook: 'seen' });
  });
});
