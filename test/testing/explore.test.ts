// Imports the explorer's private schedule builders, to test schedules apart from runs.
// The explorer's self-tests: the compact WebApp operator survives seeded fault schedules, and each of
// its deliberately broken variants is caught within a small budget by schedules of every fault kind
// (nothing tells the search which fault a bug needs), with the seed and a minimal schedule in the
// report. Budgets are small: these run in `npm test` on two cores.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explore, type Fault, type FaultKind } from 'kube-converge/testing';
import {
  ExternalRecords,
  WebApp,
  converged,
  invariants,
  scenario,
  singleApp,
  webAppVariant,
  type WebAppBug,
} from './fixtures/webapp-variants.js';
import { describeFault, scheduleFor, FAULT_KINDS } from '../../src/testing/explore/schedule.js';

/** A schedule the search below reports for the generateName variant: a lost create, and a lagging cache. */
const GENERATE_NAME_FAILURE: readonly Fault[] = [
  { kind: 'lostResponse', write: 1 },
  { kind: 'cacheLag', write: 0, forMs: 1000, lagMs: 300 },
];

const crd = new URL('../../examples/webapp/crd.yaml', import.meta.url).pathname;

function exploreVariant(
  bug: WebAppBug | undefined,
  options: { seeds: number; faults?: readonly FaultKind[]; scenario?: typeof scenario; replay?: readonly Fault[] },
) {
  const external = new ExternalRecords();
  return explore(webAppVariant(external, bug), {
    seeds: options.seeds,
    // Bounded by seeds, not by time: a loaded machine must reach the same seed (a search stops at its first failure).
    budgetMs: Infinity,
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.replay ? { replay: options.replay } : {}),
    crds: [crd],
    resource: WebApp,
    converged,
    scenario: options.scenario ?? scenario,
    invariants: invariants(external),
  });
}

describe('explore', () => {
  it('draws the same schedule from the same seed, and different ones from different seeds', () => {
    const shape = { faults: FAULT_KINDS, windowMs: 1000, writes: 10, calls: 3, watches: 3, maxFaults: 3 };
    assert.deepEqual(scheduleFor(7, shape), scheduleFor(7, shape));
    const distinct = new Set(Array.from({ length: 20 }, (_, i) => JSON.stringify(scheduleFor(i + 1, shape))));
    assert.ok(distinct.size > 15);
  });

  it('describes every fault kind in its own line', () => {
    const kinds: FaultKind[] = [...FAULT_KINDS, 'staleRestart'];
    const shape = { faults: kinds, windowMs: 1000, writes: 10, calls: 3, watches: 3, maxFaults: 3 };
    const seen = new Map<FaultKind, string>();
    for (let seed = 1; seen.size < kinds.length && seed < 500; seed++) {
      for (const f of scheduleFor(seed, shape)) seen.set(f.kind, describeFault(f, ['WebApp']));
    }
    assert.deepEqual([...seen.keys()].sort(), [...kinds].sort());
    assert.equal(new Set(seen.values()).size, kinds.length);
    assert.match(seen.get('staleRestart')!, /the new one lists the cluster as it was before write #\d+, and its watch events lag/);
    assert.match(seen.get('leaseLoss')!, /cannot renew its Lease; a standby takes over/);
    assert.match(seen.get('writeTimeout')!, /times out \(504, not applied\)/);
  });

  it('lets a manager that lost its lease stop and a standby take over, and the correct operator still converges', async () => {
    const r = await exploreVariant(undefined, { seeds: 3, faults: ['leaseLoss', 'writeTimeout'] });
    assert.equal(r.failure, undefined, r.failure?.report);
    assert.equal(r.schedules, 4);
  });

  it('finds no failure in the correct WebApp operator', async () => {
    const r = await exploreVariant(undefined, { seeds: 6 });
    console.log(`correct: ${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms`);
    assert.equal(r.failure, undefined, r.failure?.report);
    assert.ok(r.schedules >= 2);
  });

  it('catches a missing referenced ConfigMap not handled, without any fault', async () => {
    const r = await exploreVariant('missingConfigMap', { seeds: 1 });
    assert.ok(r.failure, 'found');
    assert.equal(r.failure.seed, 0);
    assert.match(r.failure.reason, /not converged.*WebApp wiki/);
    console.log(r.failure.report);
  });

  it('catches a finalizer removed before the external cleanup succeeded', async () => {
    const r = await exploreVariant('finalizerBeforeCleanup', { seeds: 20 });
    assert.ok(r.failure, 'found');
    assert.match(r.failure.reason, /external system holds exactly the live WebApps/);
    assert.ok(r.failure.minimal.length >= 1 && r.failure.minimal.every((f) => f.kind === 'dependencyTimeout'));
    console.log(r.failure.report, `\n(${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms)`);
  });

  it('catches swallowed conflicts on the status write', async () => {
    const r = await exploreVariant('ignoreConflicts', { seeds: 40 });
    assert.ok(r.failure, 'found');
    assert.match(r.failure.reason, /not converged/);
    console.log(r.failure.report, `\n(${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms)`);
  });

  it('replays a reported schedule exactly, and fails the same way', async () => {
    const r = await exploreVariant('generateName', { seeds: 1, scenario: singleApp, replay: GENERATE_NAME_FAILURE });
    assert.ok(r.failure, 'reproduced');
    assert.deepEqual(r.failure.minimal, GENERATE_NAME_FAILURE);
    assert.match(r.failure.reason, /WebApp shop has 2 Deployments/);
    assert.match(r.failure.report, /write #1: applied, but the response is lost \(create Deployment /);
  });

  it('catches children created with generateName, and a second search with the same seeds finds the same failure', async () => {
    const search = () => exploreVariant('generateName', { seeds: 200, scenario: singleApp }); // found at seed 98 today;
    const r = await search();
    assert.ok(r.failure, 'found');
    assert.match(r.failure.reason, /one Deployment per WebApp/);
    console.log(r.failure.report, `\n(${r.schedules} schedules in ${r.elapsedMs.toFixed(0)} ms)`);
    const again = await search();
    assert.deepEqual(
      { seed: again.failure?.seed, minimal: again.failure?.minimal, reason: again.failure?.reason.replace(/explore-[\d-]+/g, 'ns') },
      { seed: r.failure.seed, minimal: r.failure.minimal, reason: r.failure.reason.replace(/explore-[\d-]+/g, 'ns') },
    );
  });
});
