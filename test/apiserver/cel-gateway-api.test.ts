// The Gateway API v1 standard CRDs (kubernetes-sigs/gateway-api v1.6.1, Apache-2.0, in
// fixtures/gateway-api with their LICENSE) as real-world CEL: they install, their objects are
// defaulted, and what a cluster refuses is refused here with the CRDs' own messages and fields.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startApi, type Api } from './helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'gateway-api');
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GW = '/apis/gateway.networking.k8s.io/v1';
const ROUTES = `${GW}/namespaces/default/httproutes`;
const GATEWAYS = `${GW}/namespaces/default/gateways`;

const route = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name },
  spec: { parentRefs: [{ name: 'gw' }], rules, ...extra },
});
const backend = { backendRefs: [{ name: 'web', port: 80 }] };

const gateway = (name: string, listeners: unknown[]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'Gateway',
  metadata: { name },
  spec: { gatewayClassName: 'example', listeners },
});

describe('Gateway API v1 standard CRDs', () => {
  let api: Api;
  before(async () => {
    api = await startApi();
    for (const file of readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      const r = await api.call('POST', CRDS, parse(readFileSync(join(FIXTURES, file), 'utf8')));
      assert.equal(r.status, 201, `${file}: ${r.text}`);
    }
  });
  after(() => api[Symbol.asyncDispose]());

  async function refused(path: string, obj: unknown, field: string, message: string): Promise<void> {
    const r = await api.call('POST', path, obj);
    assert.equal(r.status, 422, r.text);
    const causes = r.body.details.causes as { field: string; message: string }[];
    assert.ok(
      causes.some((c) => c.field === field && c.message === message),
      `expected ${field}: ${message}\ngot ${JSON.stringify(causes, null, 1)}`,
    );
  }

  it('install, all of them, with their rules compiled within the cost limits', async () => {
    const r = await api.call('GET', CRDS);
    const names = r.body.items.map((c: { metadata: { name: string } }) => c.metadata.name).sort();
    assert.deepEqual(names, [
      'gatewayclasses.gateway.networking.k8s.io',
      'gateways.gateway.networking.k8s.io',
      'grpcroutes.gateway.networking.k8s.io',
      'httproutes.gateway.networking.k8s.io',
      'referencegrants.gateway.networking.k8s.io',
    ]);
  });

  it('accept a valid HTTPRoute and default its parentRefs and matches', async () => {
    const r = await api.call('POST', ROUTES, route('ok', [{ ...backend }]));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.parentRefs[0], { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gw' });
    assert.deepEqual(r.body.spec.rules[0].matches, [{ path: { type: 'PathPrefix', value: '/' } }]);
  });

  it('refuse an HTTPRoute whose RequestHeaderModifier filter has no requestHeaderModifier', () =>
    refused(
      ROUTES,
      route('no-modifier', [{ ...backend, filters: [{ type: 'RequestHeaderModifier' }] }]),
      'spec.rules[0].filters[0]',
      'Invalid value: "object": filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type',
    ));

  it("refuse an HTTPRoute whose path contains '/../'", () =>
    refused(
      ROUTES,
      route('dot-dot', [{ ...backend, matches: [{ path: { type: 'PathPrefix', value: '/a/../b' } }] }]),
      'spec.rules[0].matches[0].path',
      `Invalid value: "object": must not contain '/../' when type one of ['Exact', 'PathPrefix']`,
    ));

  it('refuse an HTTPRoute filter that carries the field of another filter type', () =>
    refused(
      ROUTES,
      route('mismatch', [
        {
          ...backend,
          filters: [
            { type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'a', value: 'b' }] }, requestRedirect: { port: 8080 } },
          ],
        },
      ]),
      'spec.rules[0].filters[0]',
      'Invalid value: "object": filter.requestRedirect must be nil if the filter.type is not RequestRedirect',
    ));

  it('accept a RequestHeaderModifier filter that has its requestHeaderModifier', async () => {
    const filters = [{ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'x-env', value: 'test' }] } }];
    const r = await api.call('POST', ROUTES, route('modifier', [{ ...backend, filters }]));
    assert.equal(r.status, 201, r.text);
  });

  it('refuse a Gateway whose listener names repeat', () =>
    refused(
      GATEWAYS,
      gateway('dup', [
        { name: 'http', port: 80, protocol: 'HTTP' },
        { name: 'http', port: 8080, protocol: 'HTTP' },
      ]),
      'spec.listeners',
      'Invalid value: "array": Listener name must be unique within the Gateway',
    ));

  it('refuse a Gateway with a hostname on a TCP listener', () =>
    refused(
      GATEWAYS,
      gateway('tcp-host', [{ name: 'tcp', port: 9000, protocol: 'TCP', hostname: 'example.com' }]),
      'spec.listeners',
      `Invalid value: "array": hostname must not be specified for protocols ['TCP', 'UDP']`,
    ));

  it('accept a Gateway with an HTTP listener', async () => {
    const r = await api.call('POST', GATEWAYS, gateway('gw', [{ name: 'http', port: 80, protocol: 'HTTP' }]));
    assert.equal(r.status, 201, r.text);
  });

  it('validate an update against the rules too', async () => {
    const created = await api.call('POST', ROUTES, route('upd', [{ ...backend }]));
    assert.equal(created.status, 201, created.text);
    const bad = structuredClone(created.body);
    bad.spec.rules[0].filters = [{ type: 'RequestHeaderModifier' }];
    const r = await api.call('PUT', `${ROUTES}/upd`, bad);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /filter\.requestHeaderModifier must be specified for RequestHeaderModifier filter\.type/);
  });
});
