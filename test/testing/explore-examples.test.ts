// The explorer on the real WebApp operator of examples/webapp (with its Deployment simulator): a
// ConfigMap, two WebApps using it and one referencing a missing ConfigMap, one deleted along the way,
// under seeded fault schedules of every kind. Every WebApp must end reconciled at its generation
// (Ready, or Degraded for the missing ConfigMap), with one Deployment each and the external system
// holding exactly the live WebApps. The budget is small: this runs in `npm test`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explore, type ExploreContext } from 'kube-converge/testing';
import { itemExponentialFailureRateLimiter } from 'kube-converge/workqueue';
import { setupWebAppController } from '../../examples/webapp/controller.js';
import { setupDeploymentSimulator } from '../../examples/webapp/deployment-simulator.js';
import { ExternalSystem } from '../../examples/webapp/external-system.js';
import { ExternalRecords, WebApp, invariants, scenario } from './fixtures/webapp-variants.js';

const crd = new URL('../../examples/webapp/crd.yaml', import.meta.url).pathname;

/** The example's external system, each call going through the explorer (which may time it out), mirrored into `records`. */
class ExploredExternalSystem extends ExternalSystem {
  constructor(
    readonly ctx: ExploreContext,
    readonly records: Set<string>,
  ) {
    super({ clock: ctx.clock });
  }
  override async register(key: string): Promise<void> {
    await this.ctx.dependency('external register');
    await super.register(key);
    this.records.add(key);
  }
  override async cleanup(key: string): Promise<void> {
    await this.ctx.dependency('external cleanup');
    await super.cleanup(key);
    this.records.delete(key);
  }
}

describe('explore examples/webapp', () => {
  it('finds no schedule after which the WebApp operator fails to converge or breaks an invariant', async () => {
    const external = new ExternalRecords();
    const systems = new Map<string, ExploredExternalSystem>();
    const r = await explore(
      (mgr, ctx) => {
        // One external system per run, kept across the restarts of a crash.
        let system = systems.get(ctx.namespace);
        if (!system) systems.set(ctx.namespace, (system = new ExploredExternalSystem(ctx, external.of(ctx.namespace))));
        setupWebAppController(mgr, {
          externalSystem: system,
          controller: { rateLimiter: itemExponentialFailureRateLimiter({ baseDelayMs: 5, maxDelayMs: 1000 }) },
        });
        setupDeploymentSimulator(mgr, { stepMs: 50 });
      },
      {
        seeds: 4,
        budgetMs: 8000,
        crds: [crd],
        resource: WebApp,
        converged: (app) =>
          !app.metadata.deletionTimestamp &&
          app.status?.observedGeneration === app.metadata.generation &&
          (app.status?.conditions ?? []).some(
            (c) => (c.type === 'Ready' && c.status === 'True') || (c.type === 'Degraded' && c.status === 'True'),
          ),
        scenario,
        invariants: invariants(external),
      },
    );
    console.log(`examples/webapp: ${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms`);
    assert.equal(r.failure, undefined, r.failure?.report);
    assert.ok(r.schedules >= 2, 'at least one schedule with faults ran');
  });
});
