// The corpus HTTPRoute (the Gateway API's gateway.networking.k8s.io/v1 structure, with CEL rules we
// wrote for the constraints the API documents) installed in TestEnv and driven as a user would: a
// route that a cluster takes is defaulted as a cluster defaults it, and the routes a cluster refuses
// (a filter whose type names a field it does not set, a path with `/../`, a redirect beside a
// rewrite, two references to one parent without a section) are refused, each with its rule's
// message at the field the rule sits on, on create and on update.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TestEnv } from 'kube-converge/testing';
import { isInvalid } from 'kube-converge/client';
import { stringify } from 'yaml';
import { kubectlBinaries, startKubectlEnv, type KubectlEnv } from '../e2e/kubectl/harness.js';
import { HTTPRoute } from './corpus/httproute.js';

type Spec = Record<string, unknown>;
const route = (name: string, spec: Spec) =>
  ({ apiVersion: HTTPRoute.apiVersion, kind: HTTPRoute.kind, metadata: { name, namespace: 'default' }, spec }) as never;
const parent = { name: 'gateway' };
const backend = { name: 'web', port: 80 };
const oneRule = (rule: Spec): Spec => ({ parentRefs: [parent], rules: [{ backendRefs: [backend], ...rule }] });

/** Refused as invalid, with `message` reported at `field`. */
const refusedAt = (field: string, message: string) => (e: unknown) => {
  assert.ok(isInvalid(e), `expected 422 Invalid, got ${String(e)}`);
  const text = String((e as Error).message);
  assert.ok(text.includes(field), `"${field}" not in: ${text}`);
  assert.ok(text.includes(message), `"${message}" not in: ${text}`);
  return true;
};

describe('Gateway API HTTPRoute rules on the local API server', () => {
  let env: TestEnv;
  before(async () => {
    env = await TestEnv.start({ crds: [HTTPRoute.crd()] });
  });
  after(() => env.stop());

  it('installs with every rule inside the cost limits and defaults a minimal route as a cluster does', async () => {
    const created = (await env.client.create(
      HTTPRoute,
      route('minimal', { parentRefs: [parent], rules: [{ backendRefs: [backend] }] }),
    )) as {
      spec: { parentRefs: Spec[]; rules: { matches: Spec[]; backendRefs: Spec[] }[] };
    };
    assert.deepEqual(created.spec.parentRefs[0], { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'gateway' });
    assert.deepEqual(created.spec.rules[0]!.matches, [{ path: { type: 'PathPrefix', value: '/' } }]);
    assert.deepEqual(created.spec.rules[0]!.backendRefs[0], { group: '', kind: 'Service', name: 'web', port: 80, weight: 1 });
  });

  it('accepts a route with a header modifier, a rewrite and normalised paths', async () => {
    await env.client.create(
      HTTPRoute,
      route(
        'full',
        oneRule({
          matches: [{ path: { type: 'PathPrefix', value: '/api/v1' } }, { path: { type: 'RegularExpression', value: '/a/../b' } }],
          filters: [
            { type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Env', value: 'prod' }] } },
            { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: '/v2' } } },
          ],
          timeouts: { request: '10s', backendRequest: '5s' },
        }),
      ),
    );
  });

  it('refuses a RequestHeaderModifier filter without its requestHeaderModifier', async () => {
    await assert.rejects(
      env.client.create(HTTPRoute, route('no-modifier', oneRule({ filters: [{ type: 'RequestHeaderModifier' }] }))),
      refusedAt('spec.rules[0].filters[0]', 'filter.requestHeaderModifier must be specified for RequestHeaderModifier filter.type'),
    );
    await assert.rejects(
      env.client.create(
        HTTPRoute,
        route(
          'wrong-modifier',
          oneRule({
            filters: [{ type: 'RequestMirror', requestHeaderModifier: { remove: ['X-A'] }, requestMirror: { backendRef: backend } }],
          }),
        ),
      ),
      refusedAt('spec.rules[0].filters[0]', 'filter.requestHeaderModifier must be nil if the filter.type is not RequestHeaderModifier'),
    );
  });

  for (const value of ['/a/../b', '/a/./b', '/a//b', '/a/..', '/a%2Fb', '/a#b']) {
    it(`refuses the PathPrefix path ${value}`, async () => {
      await assert.rejects(
        env.client.create(HTTPRoute, route('bad-path', oneRule({ matches: [{ path: { type: 'PathPrefix', value } }] }))),
        refusedAt('spec.rules[0].matches[0].path', "when type one of ['Exact', 'PathPrefix']"),
      );
    });
  }

  it('refuses a relative Exact path and a path with a character outside the URL path set', async () => {
    await assert.rejects(
      env.client.create(HTTPRoute, route('relative', oneRule({ matches: [{ path: { type: 'Exact', value: 'api' } }] }))),
      refusedAt('spec.rules[0].matches[0].path', "value must be an absolute path and start with '/'"),
    );
    await assert.rejects(
      env.client.create(HTTPRoute, route('space', oneRule({ matches: [{ path: { type: 'Exact', value: '/a b' } }] }))),
      refusedAt('spec.rules[0].matches[0].path', 'must only contain valid characters'),
    );
  });

  it('refuses a redirect beside a rewrite, and a repeated header modifier', async () => {
    const redirect = { type: 'RequestRedirect', requestRedirect: { scheme: 'https' } };
    const rewrite = { type: 'URLRewrite', urlRewrite: { hostname: 'example.com' } };
    await assert.rejects(
      env.client.create(HTTPRoute, route('both', oneRule({ filters: [redirect, rewrite] }))),
      refusedAt(
        'spec.rules[0].filters',
        'May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both',
      ),
    );
    const modifier = { type: 'RequestHeaderModifier', requestHeaderModifier: { remove: ['X-A'] } };
    await assert.rejects(
      env.client.create(HTTPRoute, route('twice', oneRule({ filters: [modifier, modifier] }))),
      refusedAt('spec.rules[0].filters', 'RequestHeaderModifier filter cannot be repeated'),
    );
  });

  it('refuses a path modifier whose type names a field it does not set', async () => {
    await assert.rejects(
      env.client.create(
        HTTPRoute,
        route(
          'modifier',
          oneRule({ filters: [{ type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replaceFullPath: '/x' } } }] }),
        ),
      ),
      refusedAt(
        'spec.rules[0].filters[0].urlRewrite.path',
        "replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'",
      ),
    );
  });

  it('refuses a backend timeout longer than the request timeout', async () => {
    await assert.rejects(
      env.client.create(HTTPRoute, route('timeouts', oneRule({ timeouts: { request: '1s', backendRequest: '2s' } }))),
      refusedAt('spec.rules[0].timeouts', 'backendRequest timeout cannot be longer than request timeout'),
    );
  });

  it('refuses two references to one parent unless each names a distinct section', async () => {
    const spec = (refs: Spec[]): Spec => ({ parentRefs: refs, rules: [{ backendRefs: [backend] }] });
    await assert.rejects(
      env.client.create(HTTPRoute, route('half', spec([parent, { ...parent, sectionName: 'https' }]))),
      refusedAt(
        'spec.parentRefs',
        'sectionName or port must be specified when parentRefs includes 2 or more references to the same parent',
      ),
    );
    await assert.rejects(
      env.client.create(
        HTTPRoute,
        route(
          'same',
          spec([
            { ...parent, sectionName: 'https' },
            { ...parent, sectionName: 'https' },
          ]),
        ),
      ),
      refusedAt('spec.parentRefs', 'sectionName or port must be unique when parentRefs includes 2 or more references to the same parent'),
    );
    await env.client.create(
      HTTPRoute,
      route(
        'two-sections',
        spec([
          { ...parent, sectionName: 'http' },
          { ...parent, sectionName: 'https' },
        ]),
      ),
    );
  });

  it('refuses an update that breaks a rule and keeps the stored route', async () => {
    const stored = (await env.client.get(HTTPRoute, { name: 'full', namespace: 'default' })) as { spec: { rules: { matches: Spec[] }[] } };
    stored.spec.rules[0]!.matches = [{ path: { type: 'Exact', value: '/a/../b' } }];
    await assert.rejects(
      env.client.update(HTTPRoute, stored as never),
      refusedAt('spec.rules[0].matches[0].path', "must not contain '/../'"),
    );
    const after = (await env.client.get(HTTPRoute, { name: 'full', namespace: 'default' })) as { spec: { rules: { matches: Spec[] }[] } };
    assert.deepEqual(after.spec.rules[0]!.matches[0], { path: { type: 'PathPrefix', value: '/api/v1' } });
  });
});

const binaries = kubectlBinaries();

describe('Gateway API HTTPRoute rules through kubectl', { skip: binaries.length === 0 ? 'kubectl is not installed' : false }, () => {
  let env: KubectlEnv;
  before(async () => {
    env = await startKubectlEnv();
    await env.installCrd('httproutes.gateway.networking.k8s.io', stringify(HTTPRoute.crd()));
  });
  after(() => env.stop());

  for (const bin of [binaries[0]!, binaries.at(-1)!]) {
    it(`kubectl ${bin.version}: apply takes a route and refuses one whose path climbs out with /../`, async () => {
      const ok = await env.manifest('route.yaml', stringify(route(`ok-${bin.version}`, oneRule({}))));
      assert.match(await env.ok(bin, ['apply', '-f', ok]), /httproute.gateway.networking.k8s.io\/ok-\S+ created/);
      const bad = await env.manifest(
        'bad-route.yaml',
        stringify(route(`bad-${bin.version}`, oneRule({ matches: [{ path: { type: 'PathPrefix', value: '/static/../etc' } }] }))),
      );
      const r = await env.run(bin, ['apply', '-f', bad]);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /spec\.rules\[0\]\.matches\[0\]\.path: Invalid value: "object": must not contain '\/\.\.\/' when type one of \['Exact', 'PathPrefix'\]/,
      );
    });
  }
});
