// Unit tests of the ApplicationRoute operator's pure functions: index values, the dependency check
// and the rendered HTTPRoute. No server: these are what the reconciler computes from the cache.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backendServiceNames, desiredHTTPRoute, missingDependencies, tlsSecretNames } from './render.js';
import { route } from './fixtures.js';
import { GATEWAY_NAME, TLS_SECRET_ANNOTATION } from './types.js';

const r = route('shop', 'web', {
  hostnames: ['web.example.com', 'www.example.com'],
  backends: [
    { service: 'web', port: 8080, weight: 90 },
    { service: 'web-canary', port: 8081, weight: 10 },
    { service: 'web', port: 9090 },
  ],
  tlsSecret: 'web-tls',
  timeout: '2s',
});

describe('ApplicationRoute rendering', () => {
  it('indexes every backend Service name once and the TLS Secret name, without the namespace (the manager scopes them)', () => {
    assert.deepEqual(backendServiceNames(r), ['web', 'web-canary']);
    assert.deepEqual(tlsSecretNames(r), ['web-tls']);
    assert.deepEqual(tlsSecretNames(route('shop', 'plain')), []);
  });

  it('reports missing Services first (sorted, each once), then a missing Secret, and nothing when all exist', () => {
    const none = { service: () => false, secret: () => false };
    assert.deepEqual(missingDependencies(r, none), { reason: 'ServiceNotFound', message: 'backend Service(s) not found: web, web-canary' });
    assert.deepEqual(missingDependencies(r, { service: () => true, secret: () => false }), {
      reason: 'SecretNotFound',
      message: 'TLS Secret not found: web-tls',
    });
    assert.equal(missingDependencies(r, { service: () => true, secret: () => true }), undefined);
    assert.equal(
      missingDependencies(route('shop', 'plain'), { service: () => true, secret: () => false }),
      undefined,
      'no tlsSecret, no Secret needed',
    );
  });

  it('renders weighted backends, hostnames, timeout and the TLS annotation, with the defaults the CRD would add written out', () => {
    const hr = desiredHTTPRoute(r);
    assert.deepEqual(hr.metadata, {
      name: 'web',
      namespace: 'shop',
      labels: { 'app.kubernetes.io/managed-by': 'applicationroute-operator' },
      annotations: { [TLS_SECRET_ANNOTATION]: 'web-tls' },
    });
    assert.deepEqual(hr.spec, {
      parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: GATEWAY_NAME }],
      hostnames: ['web.example.com', 'www.example.com'],
      rules: [
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [
            { group: '', kind: 'Service', name: 'web', port: 8080, weight: 90 },
            { group: '', kind: 'Service', name: 'web-canary', port: 8081, weight: 10 },
            { group: '', kind: 'Service', name: 'web', port: 9090, weight: 1 },
          ],
          timeouts: { request: '2s' },
        },
      ],
    });
  });

  it('leaves out the TLS annotation and the timeouts when the route has none', () => {
    const hr = desiredHTTPRoute(route('shop', 'plain'));
    assert.equal(hr.metadata.annotations, undefined);
    assert.equal(hr.spec.rules?.[0]?.timeouts, undefined);
  });
});
