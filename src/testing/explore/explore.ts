/**
 * `explore`: runs an operator under many seeded fault schedules against one in-process API server on
 * a shared fake clock, and reports the first schedule after which the operator does not converge or
 * breaks an invariant — with its seed, and the schedule shrunk to the faults that still make it fail.
 * Invariant: a seed always yields the same schedule, so `seeds: [seed]` replays a reported failure's
 * schedule exactly; each run gets its own namespace and manager, so runs never see each other's objects.
 */
import { FakeClock, InvalidOptionError, type KubeObject, type ResourceDescriptor } from '../../meta/index.js';
import type { CrdSource } from '../crds.js';
import { TestEnv } from '../test-env.js';
import { inProcessClient } from './in-process-client.js';
import { runSchedule, type ExploreSetup, type Invariant, type RunSpec, type ScenarioStep } from './run-schedule.js';
import { FAULT_KINDS, describeFault, scheduleFor, type Fault, type FaultKind } from './schedule.js';

/** Options of `explore`: what to run, what converged means, what must hold, and how much to try. */
export interface ExploreOptions<T extends KubeObject> {
  /** The seeds to run: a count `n` (seeds 1…n) or the seeds themselves (e.g. `[seed]` to replay a failure). */
  seeds: number | readonly number[];
  /**
   * Stop starting new schedules once this much real time passed since the first run began (starting the
   * API server and installing the CRDs come before; shrinking a failure may run over). Default 10 000 ms.
   */
  budgetMs?: number;
  /** The fault kinds schedules are drawn from. Default `FAULT_KINDS`: all but `staleRestart`, which is drawn when named here. */
  faults?: readonly FaultKind[];
  /** The kind whose objects must converge; every object of it in the run's namespace is checked. */
  resource: ResourceDescriptor<T>;
  /** Whether one object reached the state the operator is meant to give it. */
  converged: (obj: T) => boolean;
  /** What happens to the cluster during a run; runs against the run's namespace. */
  scenario: readonly ScenarioStep[];
  /** Properties of the converged state, checked once every object converged. */
  invariants?: readonly Invariant[];
  /** Runs exactly this schedule (e.g. a reported minimal one) instead of drawing one per seed. */
  replay?: readonly Fault[];
  /** CRDs to install in the API server first. */
  crds?: readonly CrdSource[];
}

/** A schedule after which the operator failed, and the smallest part of it that still fails. */
export interface ExploreFailure {
  /** The seed of the failing schedule; 0 when the operator fails without any fault. */
  readonly seed: number;
  /** What went wrong with the minimal schedule. */
  readonly reason: string;
  readonly schedule: readonly Fault[];
  readonly minimal: readonly Fault[];
  /** A readable report: the seed, the reason and the minimal schedule, one fault a line. */
  readonly report: string;
}

/** What `explore` did: how many schedules ran, how long it took, and the first failure, if any. */
export interface ExploreResult {
  /** Runs made, the run without faults included (shrinking runs are not counted). */
  readonly schedules: number;
  readonly elapsedMs: number;
  readonly failure: ExploreFailure | undefined;
}

/** Fake time between two looks at the cluster. */
const STEP_MS = 100;
/** Time faults fall in the first second of a run; the scenario should be done by then too. */
const WINDOW_MS = 1000;
/** After the faults stop, the operator has this long (fake time) to converge. */
const SETTLE_MS = 5000;
/** One to three faults a schedule, in the first second of the run. */
const SHAPE = { windowMs: WINDOW_MS, maxFaults: 3 };

/**
 * Runs `setup` (what registers the operator on a manager) once without faults, then under one fault
 * schedule per seed, until the seeds or the budget run out or a run fails; shrinks a failing schedule
 * to the faults it needs. Write and dependency faults are aimed at the writes and calls the fault-free
 * run made, so a schedule depends on the seed and on those two counts (the same for a deterministic
 * operator).
 */
export async function explore<T extends KubeObject>(setup: ExploreSetup, options: ExploreOptions<T>): Promise<ExploreResult> {
  if (options.faults?.length === 0)
    throw new InvalidOptionError('faults', 'name at least one fault kind (a run without faults always comes first)');
  const started = performance.now();
  const budgetMs = options.budgetMs ?? 10_000;
  const seeds = typeof options.seeds === 'number' ? Array.from({ length: options.seeds }, (_, i) => i + 1) : options.seeds;
  const clock = new FakeClock();
  await using env = await TestEnv.start({ clock, crds: options.crds ?? [] });
  const spec: RunSpec<T> = {
    env,
    client: inProcessClient(env.server),
    clock,
    setup,
    resource: options.resource,
    converged: options.converged,
    scenario: options.scenario,
    invariants: options.invariants ?? [],
    stepMs: STEP_MS,
    windowMs: WINDOW_MS,
    settleMs: SETTLE_MS,
    quietMs: 0,
  };
  let runs = 0;
  const run = (seed: number, faults: readonly Fault[]) => runSchedule(spec, `explore-${seed}-${runs++}`, faults);
  const done = (schedules: number, failure?: ExploreFailure): ExploreResult =>
    Object.freeze({ schedules, elapsedMs: performance.now() - started, failure });
  // A run without faults first: a failure there needs no schedule, and its writes and dependency
  // calls are what the schedules' faults are aimed at.
  const runsFrom = performance.now();
  const baseline = await run(0, []);
  if (baseline.failure !== undefined) return done(1, failureOf(0, [], { faults: [], outcome: baseline }));
  const shape = {
    ...SHAPE,
    faults: options.faults ?? FAULT_KINDS,
    writes: Math.max(1, baseline.writes.length),
    calls: Math.max(1, baseline.calls),
    watches: Math.max(1, baseline.kinds.length),
  };
  let schedules = 1;
  for (const seed of seeds) {
    if (performance.now() - runsFrom > budgetMs) break;
    const schedule = options.replay ?? scheduleFor(seed, shape);
    schedules++;
    const outcome = await run(seed, schedule);
    if (outcome.failure === undefined) continue;
    const minimal = await shrink(schedule, outcome, (faults) => run(seed, faults));
    return done(schedules, failureOf(seed, schedule, minimal));
  }
  return done(schedules);
}

type Outcome = Awaited<ReturnType<typeof runSchedule>>;

/** Drops faults one at a time while the run still fails (no fault at all is tried too). */
async function shrink(
  schedule: readonly Fault[],
  failing: Outcome,
  run: (faults: readonly Fault[]) => Promise<Outcome>,
): Promise<{ faults: readonly Fault[]; outcome: Outcome }> {
  let best = { faults: schedule, outcome: failing };
  for (let i = best.faults.length - 1; i >= 0; i--) {
    const fewer = best.faults.filter((_, j) => j !== i);
    const outcome = await run(fewer);
    if (outcome.failure !== undefined) best = { faults: fewer, outcome };
  }
  return best;
}

function failureOf(seed: number, schedule: readonly Fault[], minimal: { faults: readonly Fault[]; outcome: Outcome }): ExploreFailure {
  const { faults, outcome } = minimal;
  const reason = outcome.failure!;
  const line = (f: Fault): string => {
    const hit = 'write' in f ? outcome.writes[f.write] : undefined;
    return `  ${describeFault(f, outcome.kinds)}${hit ? ` (${hit})` : ''}`;
  };
  const report = [
    `explore: the schedule of seed ${seed} fails: ${reason}`,
    faults.length === 0
      ? 'it fails without any fault'
      : `minimal schedule (${faults.length} of ${schedule.length} faults; write numbers count the operator's writes from the start):`,
    ...faults.map(line),
    `replay it with seeds: [${seed}]`,
  ].join('\n');
  return Object.freeze({ seed, reason, schedule, minimal: faults, report });
}
