// The one admission path of a write, in kube-apiserver's plugin order: mutating policies, mutating
// webhooks, the write's own (schema) validation, validating policies, validating webhooks. Each test
// pins one boundary of that order, and the attributes every step shares: the generated name and the
// request's options validating webhooks are sent, and a rule matched through an equivalent version
// (matchPolicy Equivalent) with the object in the version it names.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApiServer, type ApiServer } from 'kube-converge/apiserver';
import type { KubeObject } from 'kube-converge/meta';
import type { AdmissionRequest, AdmissionResponse, WebhookServer } from 'kube-converge/webhook';
import { handleJson } from './helpers.js';
import { startLocalWebhooks } from './local-webhooks.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const CMS = '/api/v1/namespaces/default/configmaps';
const GROUP = 'chain.test.dev';
const widgets = (version: string): string => `/apis/${GROUP}/${version}/namespaces/default/widgets`;
const CM_RULES = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }];
const WIDGET_V1_RULES = [{ apiGroups: [GROUP], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }];

let hooks: WebhookServer;
let url: string;
let caBundle: string;
let stopHooks: () => Promise<void>;

before(async () => {
  ({ server: hooks, url, caBundle, stop: stopHooks } = await startLocalWebhooks());
});
after(() => stopHooks());

let paths = 0;
/** Registers a webhook answering with `answer` (allow, or a patch adding `labels`) and recording what it was sent. */
function webhook(type: 'mutating' | 'validating', seen: AdmissionRequest[], labels?: Record<string, string>): string {
  const path = `/${type}-${++paths}`;
  hooks.registerAdmission(
    { type, path, group: '', version: 'v1', plural: 'configmaps', namespaced: true, operations: [], sideEffects: 'None' },
    async (req: AdmissionRequest): Promise<AdmissionResponse> => {
      seen.push(req);
      if (!labels) return { uid: req.uid, allowed: true };
      const now = (req.object as KubeObject).metadata.labels ?? {};
      const patch = [{ op: 'add', path: '/metadata/labels', value: { ...now, ...labels } }];
      return { uid: req.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
    },
  );
  return path;
}

async function post(api: ApiServer, path: string, body: unknown): Promise<void> {
  const r = await handleJson(api, 'POST', path, body);
  assert.equal(r.status, 201, r.text);
}

async function installWebhook(
  api: ApiServer,
  type: 'mutating' | 'validating',
  path: string,
  rules: unknown[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  const kind = type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  await post(api, `${AR}/${type}webhookconfigurations`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name: path.slice(1) },
    webhooks: [
      {
        name: `${path.slice(1)}.test.dev`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        rules,
        clientConfig: { url: `${url}${path}`, caBundle },
        ...extra,
      },
    ],
  });
}

async function installPolicy(api: ApiServer, kind: 'Validating' | 'Mutating', name: string, spec: Record<string, unknown>): Promise<void> {
  const plural = `${kind.toLowerCase()}admissionpolicies`;
  await post(api, `${AR}/${plural}`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}AdmissionPolicy`,
    metadata: { name },
    spec,
  });
  const binding = { policyName: name, ...(kind === 'Validating' ? { validationActions: ['Deny'] } : {}) };
  await post(api, `${AR}/${plural.replace('policies', 'policybindings')}`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}AdmissionPolicyBinding`,
    metadata: { name },
    spec: binding,
  });
}

/** A server serving `widgets` in v1 (stored) and v2, converted by apiVersion only, `spec.replicas` at most 5. */
async function serverWithWidgets(): Promise<ApiServer> {
  const api = createApiServer();
  const schema = {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', maximum: 5 } } } },
    },
  };
  await post(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v2', served: true, storage: false, schema },
      ],
    },
  });
  return api;
}

const widget = (version: string, name: string, replicas: number) => ({
  apiVersion: `${GROUP}/${version}`,
  kind: 'Widget',
  metadata: { name, namespace: 'default' },
  spec: { replicas },
});
const labelsOf = (o: unknown): Record<string, string> | undefined => (o as KubeObject).metadata.labels;

describe('the admission chain', () => {
  it('a mutating policy’s change reaches the mutating webhook, whose change reaches the validating policy', async () => {
    const api = createApiServer();
    await installPolicy(api, 'Mutating', 'add-policy-label', {
      matchConstraints: { resourceRules: CM_RULES },
      mutations: [
        {
          patchType: 'ApplyConfiguration',
          applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"policy": "set"}}}' },
        },
      ],
    });
    const seen: AdmissionRequest[] = [];
    await installWebhook(api, 'mutating', webhook('mutating', seen, { webhook: 'seen' }), CM_RULES);
    await installPolicy(api, 'Validating', 'needs-webhook-label', {
      matchConstraints: { resourceRules: CM_RULES },
      validations: [{ expression: "object.metadata.?labels.webhook.orValue('') == 'seen'", message: 'the webhook did not run first' }],
    });
    const r = await handleJson(api, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(labelsOf(seen[0]!.object), { policy: 'set' });
    assert.deepEqual(labelsOf(r.body), { policy: 'set', webhook: 'seen' });
  });

  it('a second pass reinvokes IfNeeded policies, then IfNeeded webhooks the policies changed the object for', async () => {
    const api = createApiServer();
    // Counts its runs in an annotation: every run changes the object.
    await installPolicy(api, 'Mutating', 'count-runs', {
      matchConstraints: { resourceRules: CM_RULES },
      reinvocationPolicy: 'IfNeeded',
      mutations: [
        {
          patchType: 'ApplyConfiguration',
          applyConfiguration: {
            expression:
              'Object{metadata: Object.metadata{annotations: {"runs": string(int(object.metadata.?annotations["runs"].orValue("0")) + 1)}}}',
          },
        },
      ],
    });
    const ifNeeded: AdmissionRequest[] = [];
    const never: AdmissionRequest[] = [];
    await installWebhook(api, 'mutating', webhook('mutating', ifNeeded, { webhook: 'seen' }), CM_RULES, { reinvocationPolicy: 'IfNeeded' });
    await installWebhook(api, 'mutating', webhook('mutating', never), CM_RULES, { reinvocationPolicy: 'Never' });
    const r = await handleJson(api, 'POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    assert.equal(r.status, 201, r.text);
    // The webhook's label made the policy run again; the policy's second run made the webhook run again.
    assert.equal((r.body as KubeObject).metadata.annotations?.runs, '2');
    assert.deepEqual(
      ifNeeded.map((q) => (q.object as KubeObject).metadata.annotations?.runs),
      ['1', '2'],
    );
    assert.equal(never.length, 1);
  });

  it('schema validation refuses a write before any validating policy sees it', async () => {
    const api = await serverWithWidgets();
    await installPolicy(api, 'Validating', 'no-widgets', {
      matchConstraints: { resourceRules: [{ ...WIDGET_V1_RULES[0], apiVersions: ['*'] }] },
      validations: [{ expression: 'false', message: 'no widgets at all' }],
    });
    const bad = await handleJson(api, 'POST', widgets('v1'), widget('v1', 'too-many', 9));
    assert.equal(bad.status, 422);
    assert.match(String(bad.body.message), /spec\.replicas/);
    assert.doesNotMatch(String(bad.body.message), /ValidatingAdmissionPolicy/);
    const good = await handleJson(api, 'POST', widgets('v1'), widget('v1', 'fine', 1));
    assert.equal(good.status, 422);
    assert.match(String(good.body.message), /ValidatingAdmissionPolicy 'no-widgets' .*no widgets at all/);
  });

  it('a validating policy’s denial comes before the validating webhooks, which are then not called', async () => {
    const api = createApiServer();
    const seen: AdmissionRequest[] = [];
    await installWebhook(api, 'validating', webhook('validating', seen), CM_RULES);
    await installPolicy(api, 'Validating', 'no-deny-label', {
      matchConstraints: { resourceRules: CM_RULES },
      validations: [{ expression: "!('deny' in object.metadata.?labels.orValue({}))", message: 'labelled deny' }],
    });
    const denied = await handleJson(api, 'POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'd', labels: { deny: 'y' } },
    });
    assert.equal(denied.status, 422);
    assert.equal(seen.length, 0);
    await post(api, CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' } });
    assert.equal(seen.length, 1);
  });

  it('validating webhooks are sent the generated name, and every webhook the request’s options', async () => {
    const api = createApiServer();
    const mutatingSeen: AdmissionRequest[] = [];
    const validatingSeen: AdmissionRequest[] = [];
    await installWebhook(api, 'mutating', webhook('mutating', mutatingSeen), CM_RULES);
    await installWebhook(api, 'validating', webhook('validating', validatingSeen), CM_RULES);
    const r = await handleJson(api, 'POST', `${CMS}?fieldManager=chain-test`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'gen-' },
    });
    assert.equal(r.status, 201, r.text);
    const options = { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'chain-test' };
    assert.equal(mutatingSeen[0]!.name, '');
    assert.deepEqual(mutatingSeen[0]!.options, options);
    assert.match(String(validatingSeen[0]!.name), /^gen-/);
    assert.deepEqual(validatingSeen[0]!.options, options);
  });

  it('matchPolicy Equivalent calls a webhook for v1 on a v2 write with the object in v1, and converts its patch back; Exact does not', async () => {
    const api = await serverWithWidgets();
    const equivalent: AdmissionRequest[] = [];
    const exact: AdmissionRequest[] = [];
    await installWebhook(api, 'mutating', webhook('mutating', equivalent, { webhook: 'seen' }), WIDGET_V1_RULES, {
      matchPolicy: 'Equivalent',
    });
    await installWebhook(api, 'validating', webhook('validating', exact), WIDGET_V1_RULES, { matchPolicy: 'Exact' });
    const r = await handleJson(api, 'POST', widgets('v2'), widget('v2', 'w', 1));
    assert.equal(r.status, 201, r.text);
    const [req] = equivalent;
    assert.deepEqual(req!.kind, { group: GROUP, version: 'v1', kind: 'Widget' });
    assert.deepEqual(req!.requestKind, { group: GROUP, version: 'v2', kind: 'Widget' });
    assert.equal((req!.object as KubeObject).apiVersion, `${GROUP}/v1`);
    assert.equal((r.body as KubeObject).apiVersion, `${GROUP}/v2`);
    assert.deepEqual(labelsOf(r.body), { webhook: 'seen' });
    assert.equal(exact.length, 0);
  });

  it('a policy for v1 judges a v2 write as v1, its request naming both', async () => {
    const api = await serverWithWidgets();
    await installPolicy(api, 'Validating', 'v1-only', {
      matchConstraints: { resourceRules: WIDGET_V1_RULES },
      validations: [
        {
          expression: `request.kind.version == 'v1' && request.requestKind.version == 'v2' && object.apiVersion == '${GROUP}/v1'`,
          message: 'not seen as v1',
        },
        { expression: 'object.spec.replicas < 3', message: 'at most two replicas' },
      ],
    });
    await post(api, widgets('v2'), widget('v2', 'small', 2));
    const r = await handleJson(api, 'POST', widgets('v2'), widget('v2', 'big', 4));
    assert.equal(r.status, 422);
    assert.match(String(r.body.message), /at most two replicas$/);
  });

  it('a kind served by two groups is one resource: a policy for events.k8s.io judges a core Event in its own shape', async () => {
    const api = createApiServer();
    await installPolicy(api, 'Validating', 'event-notes', {
      matchConstraints: {
        resourceRules: [{ apiGroups: ['events.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['events'] }],
      },
      validations: [{ expression: "object.note != 'bad'", message: 'a bad note' }],
    });
    const event = (name: string, message: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Test',
      message,
    });
    await post(api, '/api/v1/namespaces/default/events', event('fine', 'good'));
    const r = await handleJson(api, 'POST', '/api/v1/namespaces/default/events', event('refused', 'bad'));
    assert.equal(r.status, 422, r.text);
    assert.match(String(r.body.message), /a bad note$/);
  });
});
