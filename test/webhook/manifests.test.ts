// Imports the webhook layer's private paths, which the manifests must name.
// Deployment manifests derived from what the server serves: one webhook per registered kind and
// type, the operations the validator handles, the Service or URL target with its CA, and the CRD's
// conversion block pointing at /convert.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WebhookServer, conversionWebhookBlock, defaultingHandler, validatingHandler, webhookConfigurations } from 'kube-converge/webhook';
import { AppV1 } from './helpers.js';
import { mutatePath, validatePath } from '../../src/webhook/paths.js';

function server(): WebhookServer {
  const s = new WebhookServer({ port: 0 });
  const base = { group: AppV1.group, version: 'v1', plural: 'apps', namespaced: true } as const;
  s.registerAdmission(
    { ...base, type: 'mutating', path: mutatePath(AppV1), operations: ['CREATE', 'UPDATE'], sideEffects: 'None' },
    defaultingHandler(AppV1, () => {}),
  );
  s.registerAdmission(
    { ...base, type: 'validating', path: validatePath(AppV1), operations: ['CREATE', 'DELETE'], sideEffects: 'NoneOnDryRun' },
    validatingHandler(AppV1, {}),
  );
  return s;
}

describe('webhook manifests', () => {
  it('declares one mutating and one validating webhook with the registered rules, for a Service', () => {
    const { mutating, validating } = webhookConfigurations(server().registrations(), {
      name: 'app-webhooks',
      target: { service: { namespace: 'system', name: 'webhook-service' } },
      caPem: 'PEM',
    });
    assert.equal(mutating?.kind, 'MutatingWebhookConfiguration');
    assert.equal(mutating?.metadata?.name, 'app-webhooks');
    assert.deepEqual(mutating?.webhooks?.[0], {
      name: 'mapp-v1.test.converge.dev',
      admissionReviewVersions: ['v1', 'v1beta1'],
      clientConfig: {
        service: { namespace: 'system', name: 'webhook-service', path: '/mutate-test-converge-dev-v1-app', port: 443 },
        caBundle: Buffer.from('PEM').toString('base64'),
      },
      rules: [
        {
          apiGroups: ['test.converge.dev'],
          apiVersions: ['v1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['apps'],
          scope: 'Namespaced',
        },
      ],
      sideEffects: 'None',
      failurePolicy: 'Fail',
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
    });
    const v = validating?.webhooks?.[0];
    assert.equal(v?.name, 'vapp-v1.test.converge.dev');
    assert.deepEqual(v?.rules?.[0]?.operations, ['CREATE', 'DELETE']);
    assert.equal(v?.sideEffects, 'NoneOnDryRun');
  });

  it('points at a URL when given one, with the options that apply to every webhook', () => {
    const { validating } = webhookConfigurations(server().registrations(), {
      name: 'w',
      target: { url: 'https://127.0.0.1:9443/' },
      failurePolicy: 'Ignore',
      timeoutSeconds: 3,
      namespaceSelector: { matchLabels: { env: 'production' } },
    });
    const v = validating!.webhooks![0]!;
    assert.deepEqual(v.clientConfig, { url: 'https://127.0.0.1:9443/validate-test-converge-dev-v1-app' });
    assert.equal(v.failurePolicy, 'Ignore');
    assert.equal(v.timeoutSeconds, 3);
    assert.deepEqual(v.namespaceSelector, { matchLabels: { env: 'production' } });
  });

  it('leaves out a configuration type nothing is registered for', () => {
    assert.deepEqual(webhookConfigurations([], { name: 'w', target: { url: 'https://x' } }), {});
  });

  it("gives a CRD's conversion block pointing at /convert", () => {
    assert.deepEqual(conversionWebhookBlock({ service: { namespace: 'system', name: 'webhook-service', port: 9443 } }, 'CA'), {
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: { namespace: 'system', name: 'webhook-service', path: '/convert', port: 9443 },
          caBundle: Buffer.from('CA').toString('base64'),
        },
        conversionReviewVersions: ['v1', 'v1beta1'],
      },
    });
  });
});
