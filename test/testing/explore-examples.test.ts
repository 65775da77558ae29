// The explorer on the real WebApp operator of examples/webapp (with its Deployment simulator): a
// ConfigMap, two WebApps using it and one referencing a missing ConfigMap, one deleted along the way,
// under seeded fault schedules of every kind. Every WebApp must end reconciled at its generation
// (Ready, or Degraded for the missing ConfigMap), with one Deployment each and the external system
// holding exactly the live WebApps. The budget is small: this runs in `npm test`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explore } from 'kube-converge/testing';
import { exampleConverged, exampleWebAppSetup, webAppCrd } from './fixtures/explore-webapp-example.js';
import { ExternalRecords, WebApp, invariants, scenario } from './fixtures/webapp-variants.js';

describe('explore examples/webapp', () => {
  it('finds no schedule after which the WebApp operator fails to converge or breaks an invariant', async () => {
    const external = new ExternalRecords();
    const r = await explore(exampleWebAppSetup(external), {
      // Bounded by seeds, not by time, so that a loaded machine runs the same schedules.
      seeds: 4,
      budgetMs: Infinity,
      crds: [webAppCrd],
      resource: WebApp,
      converged: exampleConverged,
      scenario,
      invariants: invariants(external),
    });
    console.log(`examples/webapp: ${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms`);
    assert.equal(r.failure, undefined, r.failure?.report);
    assert.ok(r.schedules >= 2, 'at least one schedule with faults ran');
  });
});
