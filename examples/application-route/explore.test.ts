// The fault explorer on the ApplicationRoute operator: three routes, one waiting for a backend
// Service that appears later and one whose spec changes mid-run, under seeded fault schedules of every
// kind (stale caches, watch cuts and relists, conflicts, 429s, timeouts, lost responses, crashes, lease
// loss). Every route must end Ready at its generation, with exactly one HTTPRoute it controls, equal
// to its current rendering. The budget is small: this runs in `npm test`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { SecretResource, ServiceResource, findStatusCondition } from 'kube-converge/meta';
import { explore, type Invariant, type ScenarioStep } from 'kube-converge/testing';
import { setupApplicationRouteController } from './controller.js';
import { route, service, tlsSecret, type Route } from './fixtures.js';
import { desiredHTTPRoute } from './render.js';
import { ApplicationRoute, HTTPRouteResource } from './types.js';

const CRDS = [
  fileURLToPath(new URL('./networking.converge.dev_applicationroutes.yaml', import.meta.url)),
  fileURLToPath(new URL('./httproute-crd.yaml', import.meta.url)),
];

const scenario: ScenarioStep[] = [
  {
    atMs: 0,
    async run({ client, namespace: ns }) {
      await client.create(ServiceResource, service(ns, 'web'));
      await client.create(SecretResource, tlsSecret(ns, 'web-tls'));
      await client.create(ApplicationRoute, route(ns, 'shop', { backends: [{ service: 'web', port: 8080 }], tlsSecret: 'web-tls' }));
      await client.create(ApplicationRoute, route(ns, 'blog', { backends: [{ service: 'api', port: 8080 }] }));
      await client.create(ApplicationRoute, route(ns, 'wiki', { backends: [{ service: 'web', port: 8080, weight: 2 }] }));
    },
  },
  {
    // blog waited for this Service: its watch, mapped through the field index, must wake the route.
    atMs: 300,
    async run({ client, namespace: ns }) {
      await client.create(ServiceResource, service(ns, 'api'));
    },
  },
  {
    atMs: 500,
    async run({ client, namespace: ns }) {
      await client.patch(ApplicationRoute, { namespace: ns, name: 'wiki' }, { spec: { hostnames: ['wiki.example.com'] } }, 'merge');
    },
  },
];

const converged = (r: Route): boolean =>
  r.status?.observedGeneration === r.metadata.generation && findStatusCondition(r.status?.conditions ?? [], 'Ready')?.status === 'True';

const invariants: Invariant[] = [
  {
    name: 'each route controls exactly one HTTPRoute, and every HTTPRoute has its route',
    async check({ client, namespace }) {
      const routes = (await client.list(ApplicationRoute, { namespace })).items;
      const uids = new Set(routes.map((r) => r.metadata.uid));
      for (const hr of (await client.list(HTTPRouteResource, { namespace })).items) {
        const owners = (hr.metadata.ownerReferences ?? []).filter((o) => o.controller && uids.has(o.uid));
        if (owners.length !== 1) return `HTTPRoute ${hr.metadata.name} has ${owners.length} controlling routes`;
      }
      return undefined;
    },
  },
  {
    name: "every HTTPRoute is its route's current rendering",
    async check({ client, namespace }) {
      for (const r of (await client.list(ApplicationRoute, { namespace })).items) {
        const hr = await client.get(HTTPRouteResource, { namespace, name: r.metadata.name! }).catch(() => undefined);
        if (!hr) return `route ${r.metadata.name} has no HTTPRoute`;
        if (!isDeepStrictEqual(hr.spec, desiredHTTPRoute(r).spec)) return `HTTPRoute ${r.metadata.name} drifted from its route`;
      }
      return undefined;
    },
  },
];

describe('explore examples/application-route', () => {
  it('finds no schedule after which the ApplicationRoute operator fails to converge or breaks an invariant', async () => {
    const r = await explore((mgr) => setupApplicationRouteController(mgr), {
      // Bounded by seeds, not by time, so that a loaded machine runs the same schedules.
      seeds: 4,
      budgetMs: Infinity,
      crds: CRDS,
      resource: ApplicationRoute,
      converged,
      scenario,
      invariants,
    });
    console.log(`examples/application-route: ${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms`);
    assert.equal(r.failure, undefined, r.failure?.report);
    assert.ok(r.schedules >= 2, 'at least one schedule with faults ran');
  });
});
