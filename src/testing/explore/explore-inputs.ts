/**
 * `exploreInputs`: runs an operator against sequences of desired states drawn from its kind's schema
 * (no scenario written by hand) and checks a convergence oracle after each sequence: the object
 * reaches its steady state (`observedGeneration` caught up), reports no error condition, keeps every
 * field the user set, and the operator stops writing once there; the caller's invariants say whether
 * the rest of the cluster reflects the spec. A failing sequence is shrunk to the fewest steps and the
 * smallest changes that still fail. Invariant: a seed names one sequence (see `specSequence`), and
 * each run has its own namespace and manager on one API server and fake clock, as `explore`'s runs do.
 */
import { FakeClock, InvalidOptionError, type KubeObject, type ResourceDescriptor } from '../../meta/index.js';
import { isConflict, type Client } from '../../client/index.js';
import type { CrdSource, CustomResourceDefinition } from '../crds.js';
import { TestEnv } from '../test-env.js';
import { inProcessClient } from './in-process-client.js';
import { runSchedule, type ExploreContext, type ExploreSetup, type Invariant, type RunSpec, type ScenarioStep } from './run-schedule.js';
import { baseSpec, sameJson, specChanges, specSequence, undoOneChange, type Spec, type SpecSchema } from './spec-inputs.js';

/** A kind defined with `defineCustomResource` (or anything that gives its CRD). */
export type KindWithCrd<T extends KubeObject> = ResourceDescriptor<T> & { crd(): CustomResourceDefinition };

/** A status condition, as the oracle reads it. */
export interface InputCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

/** Options of `exploreInputs`. */
export interface ExploreInputsOptions<T extends KubeObject> {
  /** The kind whose spec is generated; its CRD is installed first. */
  resource: KindWithCrd<T>;
  /** Seeds to run: a count `n` (seeds 1…n) or the seeds themselves (`[seed]` replays a failure). */
  seeds: number | readonly number[];
  /** Stop starting new sequences after this much real time (shrinking may run over). Default 10 000 ms. */
  budgetMs?: number;
  /** At most this many changes after the base spec in a random sequence. Default 3. */
  steps?: number;
  /** Steady state of the object. Default: `status.observedGeneration` equals `metadata.generation`. */
  converged?: (obj: T) => boolean;
  /** Which conditions are errors. Default: Ready or Available False, or a type ending in Degraded, Failed or Error True. */
  errorCondition?: (c: InputCondition) => boolean;
  /** Whether the cluster reflects the spec (the consistency oracle), checked once converged. */
  invariants?: readonly Invariant[];
  /** Once converged, the operator must not write for this long (fake time). Default 2 000 ms. */
  quietMs?: number;
  /** Other CRDs to install. */
  crds?: readonly CrdSource[];
  /** Runs exactly this sequence of specs instead of the seed's (e.g. a reported minimal one). */
  replay?: readonly Spec[];
}

/** A sequence of specs after which the operator failed, and the smallest one that still fails. */
export interface InputFailure {
  readonly seed: number;
  readonly reason: string;
  readonly specs: readonly Spec[];
  readonly minimal: readonly Spec[];
  /** The last change of the minimal sequence, one `path: before → after` line per field. */
  readonly change: readonly string[];
  readonly report: string;
}

/** What `exploreInputs` did: how many sequences ran, how long it took, and the first failure, if any. */
export interface ExploreInputsResult {
  /** Sequences run (shrinking runs are not counted). */
  readonly runs: number;
  readonly elapsedMs: number;
  readonly failure: InputFailure | undefined;
}

/** The name of the object each run creates and changes. */
const NAME = 'input';
/** Fake time between two changes of the spec. */
const CHANGE_MS = 300;
const STEP_MS = 100;
const SETTLE_MS = 5000;

const defaultErrorCondition = (c: InputCondition): boolean =>
  ((c.type === 'Ready' || c.type === 'Available') && c.status === 'False') ||
  (/(Degraded|Failed|Error)$/.test(c.type) && c.status === 'True');

/** Explores `setup` under spec sequences drawn from `options.resource`'s schema; see the file's comment. */
export async function exploreInputs<T extends KubeObject>(
  setup: ExploreSetup,
  options: ExploreInputsOptions<T>,
): Promise<ExploreInputsResult> {
  const started = performance.now();
  const crd = options.resource.crd();
  const schema = crd.spec.versions.find((v) => v.storage)?.schema?.openAPIV3Schema?.properties?.['spec'] as SpecSchema | undefined;
  if (!schema) throw new InvalidOptionError('resource', `${crd.spec.names.kind} has no spec in the schema of its storage version`);
  const base = baseSpec(schema);
  const seeds = typeof options.seeds === 'number' ? Array.from({ length: options.seeds }, (_, i) => i + 1) : options.seeds;
  const budgetMs = options.budgetMs ?? 10_000;
  const clock = new FakeClock();
  await using env = await TestEnv.start({ clock, crds: [crd, ...(options.crds ?? [])] });
  const client = inProcessClient(env.server);
  const converged = options.converged ?? ((o: T) => (o as Observed).status?.observedGeneration === o.metadata.generation);
  const oracle = [healthy(options.resource, options.errorCondition ?? defaultErrorCondition), ...(options.invariants ?? [])];
  let runs = 0;
  const fails = async (specs: readonly Spec[]): Promise<string | undefined> => {
    const spec: RunSpec<T> = {
      env,
      client,
      clock,
      setup,
      resource: options.resource,
      converged,
      scenario: scenarioOf(options.resource, specs),
      invariants: [keepsUserFields(options.resource, specs[specs.length - 1]!), ...oracle],
      stepMs: STEP_MS,
      windowMs: CHANGE_MS,
      settleMs: SETTLE_MS,
      quietMs: options.quietMs ?? 2000,
    };
    return (await runSchedule(spec, `inputs-${runs++}`, [])).failure;
  };
  let count = 0;
  const runsFrom = performance.now();
  for (const seed of seeds) {
    if (performance.now() - runsFrom > budgetMs) break;
    const specs = options.replay ?? specSequence(schema, seed, options.steps ?? 3);
    count++;
    const reason = await fails(specs);
    if (reason === undefined) continue;
    const minimal = await shrink(specs, reason, base, fails);
    return Object.freeze({ runs: count, elapsedMs: performance.now() - started, failure: failureOf(seed, specs, minimal, base) });
  }
  return Object.freeze({ runs: count, elapsedMs: performance.now() - started, failure: undefined });
}

type Observed = KubeObject & { status?: { observedGeneration?: number; conditions?: InputCondition[] } };

/** The scenario of a sequence: the object created with the first spec, then replaced by each next one. */
function scenarioOf<T extends KubeObject>(resource: ResourceDescriptor<T>, specs: readonly Spec[]): ScenarioStep[] {
  return specs.map((spec, i) => ({
    atMs: i * CHANGE_MS,
    async run(ctx: ExploreContext): Promise<void> {
      const nn = { namespace: ctx.namespace, name: NAME };
      if (i === 0) {
        await ctx.client.create(resource, { metadata: nn, spec } as unknown as T);
        return;
      }
      await replaceSpec(ctx.client, resource, nn, spec);
    },
  }));
}

/** Puts `spec` in place of the object's spec, as a user's `kubectl replace` would, retrying a conflict with the operator's own writes. */
async function replaceSpec<T extends KubeObject>(
  client: Client,
  resource: ResourceDescriptor<T>,
  nn: { namespace: string; name: string },
  spec: Spec,
): Promise<void> {
  for (;;) {
    const current = await client.get(resource, nn);
    try {
      await client.update(resource, { ...current, spec } as T);
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
}

/** The oracle's part that needs the spec the user wrote last: every field set there still has its value. */
function keepsUserFields<T extends KubeObject>(resource: ResourceDescriptor<T>, desired: Spec): Invariant {
  return {
    name: 'every field the user set keeps its value',
    async check(ctx) {
      const obj = await ctx.client.get(resource, { namespace: ctx.namespace, name: NAME });
      const lost = changedFields(desired, ((obj as { spec?: Spec }).spec ?? {}) as Spec);
      return lost.length === 0 ? undefined : `the operator changed what the user set: ${lost.join(', ')}`;
    },
  };
}

/** The changes from `desired` to `actual` at the paths `desired` sets (fields it leaves unset may be defaulted). */
function changedFields(desired: Spec, actual: Spec): string[] {
  return specChanges(desired, actual).filter((line) => !/: unset → /.test(line));
}

function healthy<T extends KubeObject>(resource: ResourceDescriptor<T>, isError: (c: InputCondition) => boolean): Invariant {
  return {
    name: 'no error condition',
    async check(ctx) {
      const obj = (await ctx.client.get(resource, { namespace: ctx.namespace, name: NAME })) as Observed;
      const bad = (obj.status?.conditions ?? []).filter(isError);
      return bad.length === 0 ? undefined : bad.map((c) => `${c.type}=${c.status} (${c.reason ?? ''}: ${c.message ?? ''})`).join(', ');
    },
  };
}

/** Drops steps while the sequence still fails, then undoes parts of each step's change while it still fails. */
async function shrink(
  specs: readonly Spec[],
  reason: string,
  base: Spec,
  fails: (specs: readonly Spec[]) => Promise<string | undefined>,
): Promise<{ specs: readonly Spec[]; reason: string }> {
  let best = { specs, reason };
  for (let i = best.specs.length - 1; i >= 0 && best.specs.length > 1; i--) {
    const fewer = best.specs.filter((_, j) => j !== i);
    const r = await fails(fewer);
    if (r !== undefined) best = { specs: fewer, reason: r };
  }
  // Then each step's change (against the step before it, the first against the base spec) is undone
  // path by path, the last step first, until no undoing keeps the failure.
  for (let smaller = true; smaller;) {
    smaller = false;
    for (let i = best.specs.length - 1; i >= 0 && !smaller; i--) {
      const from = i > 0 ? best.specs[i - 1]! : base;
      for (const candidate of undoOneChange(from, best.specs[i]!)) {
        if (sameJson(candidate, from)) continue; // no change left: that is dropping the step, tried above
        const tried = best.specs.map((s, j) => (j === i ? candidate : s));
        const r = await fails(tried);
        if (r === undefined) continue;
        best = { specs: tried, reason: r };
        smaller = true;
        break;
      }
    }
  }
  return best;
}

function failureOf(seed: number, specs: readonly Spec[], minimal: { specs: readonly Spec[]; reason: string }, base: Spec): InputFailure {
  const m = minimal.specs;
  const from = m.length > 1 ? m[m.length - 2]! : base;
  const change = m.length > 1 ? specChanges(from, m[m.length - 1]!) : [`created with ${JSON.stringify(m[0])}`];
  const report = [
    `exploreInputs: the specs of seed ${seed} fail: ${minimal.reason}`,
    `smallest failing sequence (${m.length} of ${specs.length} specs):`,
    ...m.map((s, i) => `  ${i === 0 ? 'create' : 'replace'} spec ${JSON.stringify(s)}`),
    `its last change: ${change.join('; ')}`,
    `replay it with seeds: [${seed}]`,
  ].join('\n');
  return Object.freeze({ seed, reason: minimal.reason, specs, minimal: m, change, report });
}
