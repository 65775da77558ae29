// Route CRDs shaped like real-world route APIs (fixtures/route-crds.ts) as CEL in practice: they
// install with every rule inside the cost limits, their objects are defaulted, and what their rules
// refuse is refused with the rules' own messages, reasons and fields — on creates and on updates.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { ROUTES_GROUP, edgeGatewayCrd, webRouteCrd } from './fixtures/route-crds.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = `/apis/${ROUTES_GROUP}/v1/namespaces/default`;
const ROUTES = `${GROUP}/webroutes`;
const GATEWAYS = `${GROUP}/edgegateways`;

const route = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: `${ROUTES_GROUP}/v1`,
  kind: 'WebRoute',
  metadata: { name },
  spec: { parents: [{ name: 'gw' }], rules, ...extra },
});
const backends = { backends: [{ name: 'web', port: 80 }] };

const gateway = (name: string, listeners: unknown[], className = 'edge') => ({
  apiVersion: `${ROUTES_GROUP}/v1`,
  kind: 'EdgeGateway',
  metadata: { name },
  spec: { className, listeners },
});

describe('route CRDs shaped like real-world route APIs', () => {
  let api: Api;
  before(async () => {
    api = await startApi();
    for (const crd of [webRouteCrd(), edgeGatewayCrd()]) {
      const r = await api.call('POST', CRDS, crd);
      assert.equal(r.status, 201, `${crd.metadata?.name}: ${r.text}`);
    }
  });
  after(() => api[Symbol.asyncDispose]());

  type Cause = { reason: string; field: string; message: string };
  async function refused(method: 'POST' | 'PUT', path: string, obj: unknown, expected: Cause): Promise<void> {
    const r = await api.call(method, path, obj);
    assert.equal(r.status, 422, r.text);
    const causes = r.body.details.causes as Cause[];
    assert.ok(
      causes.some((c) => c.reason === expected.reason && c.field === expected.field && c.message === expected.message),
      `expected ${JSON.stringify(expected)}\ngot ${JSON.stringify(causes, null, 1)}`,
    );
  }
  const refusedCreate = (path: string, obj: unknown, expected: Cause) => refused('POST', path, obj, expected);

  it('install, both of them, with their rules compiled within the cost limits', async () => {
    const r = await api.call('GET', CRDS);
    const names = r.body.items.map((c: { metadata: { name: string } }) => c.metadata.name).sort();
    assert.deepEqual(names, [`edgegateways.${ROUTES_GROUP}`, `webroutes.${ROUTES_GROUP}`]);
  });

  it('accept a valid route and default its parents, matches and backend weights', async () => {
    const r = await api.call('POST', ROUTES, route('ok', [{ ...backends }], { hosts: ['*.example.com'] }));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.parents[0], { group: ROUTES_GROUP, kind: 'EdgeGateway', name: 'gw' });
    assert.deepEqual(r.body.spec.rules[0].matches, [{ path: { type: 'Prefix', value: '/' } }]);
    assert.deepEqual(r.body.spec.rules[0].backends, [{ name: 'web', port: 80, weight: 1 }]);
  });

  it('refuse a SetHeaders filter without its setHeaders field, as a required value', () =>
    refusedCreate(ROUTES, route('no-set', [{ ...backends, filters: [{ type: 'SetHeaders' }] }]), {
      reason: 'FieldValueRequired',
      field: 'spec.rules[0].filters[0]',
      message: 'Required value: a SetHeaders filter needs its setHeaders field',
    }));

  it('refuse a filter that also carries the fields of other filter types, naming them', () =>
    refusedCreate(
      ROUTES,
      route('mismatch', [
        {
          ...backends,
          filters: [
            {
              type: 'SetHeaders',
              setHeaders: { set: [{ name: 'x-env', value: 'test' }] },
              redirect: { port: 8443 },
              mirror: { name: 'shadow', port: 80 },
            },
          ],
        },
      ]),
      {
        reason: 'FieldValueInvalid',
        field: 'spec.rules[0].filters[0]',
        message: 'Invalid value: "object": a SetHeaders filter must not carry the fields of other filter types',
      },
    ));

  it('accept a SetHeaders filter that has its setHeaders field', async () => {
    const filters = [{ type: 'SetHeaders', setHeaders: { set: [{ name: 'x-env', value: 'test' }], remove: ['x-debug'] } }];
    const r = await api.call('POST', ROUTES, route('set', [{ ...backends, filters }]));
    assert.equal(r.status, 201, r.text);
  });

  for (const value of ['/a/../b', '/a/./b', '/a/..']) {
    it(`refuse a literal path with a dot segment (${value}) at the path's value, worded by the path's type`, () =>
      refusedCreate(ROUTES, route('dots', [{ ...backends, matches: [{ path: { type: 'Prefix', value } }] }]), {
        reason: 'FieldValueInvalid',
        field: 'spec.rules[0].matches[0].path.value',
        message: `Invalid value: "object": path ${value} has a . or .. segment, which never survives normalisation`,
      }));
  }

  it('refuse a literal path that does not start with a slash, naming its type and first character', () =>
    refusedCreate(ROUTES, route('relative', [{ ...backends, matches: [{ path: { type: 'Exact', value: 'api' } }] }]), {
      reason: 'FieldValueInvalid',
      field: 'spec.rules[0].matches[0].path.value',
      message: 'Invalid value: "object": Exact paths start with /, not a',
    }));

  it('refuse a rule that redirects twice, at its filters', () =>
    refusedCreate(
      ROUTES,
      route('twice', [
        {
          filters: [
            { type: 'Redirect', redirect: { scheme: 'https' } },
            { type: 'Redirect', redirect: { port: 8443 } },
          ],
        },
      ]),
      { reason: 'FieldValueInvalid', field: 'spec.rules[0].filters', message: 'Invalid value: "object": a rule redirects at most once' },
    ));

  it('refuse a Rewrite filter that rewrites nothing', () =>
    refusedCreate(ROUTES, route('rewrite', [{ ...backends, filters: [{ type: 'Rewrite', rewrite: {} }] }]), {
      reason: 'FieldValueInvalid',
      field: 'spec.rules[0].filters[0].rewrite',
      message: 'Invalid value: "object": a rewrite needs a hostname, a pathPrefix or both',
    }));

  it('accept a dot segment in a Regex path, which is matched as written', async () => {
    const matches = [{ path: { type: 'Regex', value: '^/v[0-9]+/./x' } }];
    const r = await api.call('POST', ROUTES, route('regex', [{ ...backends, matches }]));
    assert.equal(r.status, 201, r.text);
  });

  it('refuse header matches whose names repeat in another case, three lists deep, as a duplicate', () =>
    refusedCreate(
      ROUTES,
      route('headers', [
        {
          ...backends,
          matches: [
            {
              headers: [
                { name: 'X-Tenant', value: 'a' },
                { name: 'x-tenant', value: 'b' },
              ],
            },
          ],
        },
      ]),
      {
        reason: 'FieldValueDuplicate',
        field: 'spec.rules[0].matches[0].headers',
        // kube-apiserver words a duplicate by the rule's type alone, dropping its message.
        message: 'Duplicate value: "array"',
      },
    ));

  it('refuse a redirecting rule with backends, as forbidden, at its backends', () =>
    refusedCreate(ROUTES, route('redirect', [{ ...backends, filters: [{ type: 'Redirect', redirect: { scheme: 'https' } }] }]), {
      reason: 'FieldValueForbidden',
      field: 'spec.rules[0].backends',
      message: 'Forbidden: a rule that redirects answers the client itself and has no backends',
    }));

  it('refuse a wildcard host that is not the whole first label', () =>
    refusedCreate(ROUTES, route('wild', [{ ...backends }], { hosts: ['api*.example.com'] }), {
      reason: 'FieldValueInvalid',
      field: 'spec.hosts[0]',
      message: 'Invalid value: "string": host api*.example.com: a wildcard may only stand for the whole first label, as in *.example.com',
    }));

  it('refuse a gateway whose listener names repeat', async () => {
    const r = await api.call(
      'POST',
      GATEWAYS,
      gateway('dup', [
        { name: 'http', port: 80, protocol: 'HTTP' },
        { name: 'http', port: 8080, protocol: 'HTTP' },
      ]),
    );
    assert.equal(r.status, 422, r.text);
    const causes = r.body.details.causes as Cause[];
    assert.ok(
      causes.some((c) => c.reason === 'FieldValueDuplicate' && c.field === 'spec.listeners[1]'),
      JSON.stringify(causes, null, 1),
    );
  });

  it('refuse a hostname on a TCP listener, as forbidden, at the hostname', () =>
    refusedCreate(GATEWAYS, gateway('tcp-host', [{ name: 'tcp', port: 9000, protocol: 'TCP', hostname: 'example.com' }]), {
      reason: 'FieldValueForbidden',
      field: 'spec.listeners[0].hostname',
      message: 'Forbidden: a TCP listener sees no host name, so it cannot select on one',
    }));

  it('refuse two listeners on one port with the same hostname', () =>
    refusedCreate(
      GATEWAYS,
      gateway('same-port', [
        { name: 'a', port: 80, protocol: 'HTTP', hostname: 'a.example.com' },
        { name: 'b', port: 80, protocol: 'HTTP', hostname: 'a.example.com' },
      ]),
      {
        reason: 'FieldValueInvalid',
        field: 'spec.listeners',
        message: 'Invalid value: "array": listeners on one port must differ in hostname',
      },
    ));

  it('refuse an HTTPS listener without tls, with the message its expression builds', () =>
    refusedCreate(GATEWAYS, gateway('no-tls', [{ name: 'https', port: 443, protocol: 'HTTPS' }]), {
      reason: 'FieldValueInvalid',
      field: 'spec.listeners[0].tls',
      message: 'Invalid value: "object": an HTTPS listener needs tls',
    }));

  it('accept a gateway with an HTTP listener and an HTTPS one with tls', async () => {
    const listeners = [
      { name: 'http', port: 80, protocol: 'HTTP' },
      { name: 'https', port: 443, protocol: 'HTTPS', hostname: 'example.com', tls: { certificateSecret: 'edge-cert' } },
    ];
    const r = await api.call('POST', GATEWAYS, gateway('gw', listeners));
    assert.equal(r.status, 201, r.text);
  });

  it('check an update against the transition rules: a listener keeps its port, the gateway its class', async () => {
    const created = await api.call('POST', GATEWAYS, gateway('moving', [{ name: 'http', port: 80, protocol: 'HTTP' }]));
    assert.equal(created.status, 201, created.text);
    const moved = structuredClone(created.body);
    moved.spec.listeners[0].port = 8080;
    await refused('PUT', `${GATEWAYS}/moving`, moved, {
      reason: 'FieldValueInvalid',
      field: 'spec.listeners[0].port',
      message: 'Invalid value: "object": listener http cannot move to another port',
    });
    const reclassed = structuredClone(created.body);
    reclassed.spec.className = 'other';
    await refused('PUT', `${GATEWAYS}/moving`, reclassed, {
      reason: 'FieldValueInvalid',
      field: 'spec.className',
      message: 'Invalid value: "string": className cannot change; create a new gateway instead',
    });
    const added = structuredClone(created.body);
    added.spec.listeners.push({ name: 'alt', port: 8080, protocol: 'HTTP' });
    const r = await api.call('PUT', `${GATEWAYS}/moving`, added);
    assert.equal(r.status, 200, r.text);
  });

  it('check an update against the other rules too', async () => {
    const created = await api.call('POST', ROUTES, route('upd', [{ ...backends }]));
    assert.equal(created.status, 201, created.text);
    const bad = structuredClone(created.body);
    bad.spec.rules[0].filters = [{ type: 'Rewrite' }];
    await refused('PUT', `${ROUTES}/upd`, bad, {
      reason: 'FieldValueRequired',
      field: 'spec.rules[0].filters[0]',
      message: 'Required value: a Rewrite filter needs its rewrite field',
    });
  });
});
