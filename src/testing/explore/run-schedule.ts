/**
 * One run of the explorer: an operator (its manager setup) in a fresh namespace of the shared API
 * server, under one fault schedule, on the shared fake clock. The run moves the clock in steps,
 * letting the in-process requests and watch events settle between them; plays the scenario's steps
 * and the schedule's faults when due; restarts the manager where the schedule crashes it, starts a
 * standby where it takes the leader's lease away; and once the faults and the scenario are over,
 * waits (in fake time) for every object to reach `converged` and every deposed manager to stop, then
 * checks the invariants. Invariant: the run always stops its managers and deletes its namespace, and
 * reports at most one failure, the first one found.
 */
import { NetworkError, StatusError, type Client } from '../../client/index.js';
import { LeaderElectionLostError, type Manager } from '../../manager/index.js';
import { LeaseResource, NamespaceResource, type FakeClock, type KubeObject, type ResourceDescriptor } from '../../meta/index.js';
import { faultInjectingClient, type ClientWrite, type FaultInjectingClient } from '../fault-injecting-client.js';
import type { TestEnv } from '../test-env.js';
import type { Fault } from './schedule.js';

/** What the setup, the scenario and the invariants of a run are given. */
export interface ExploreContext {
  /** The run's own namespace: put every object of the scenario here; the manager's cache watches only it. */
  readonly namespace: string;
  /** A client of the API server that no fault touches, for the scenario and the invariants. */
  readonly client: Client;
  /** The fake clock shared by the API server and the managers. */
  readonly clock: FakeClock;
  /**
   * Call before each call to something outside the cluster (a webhook, a cloud API): throws, as a
   * timeout would, where the schedule says so. Calls are counted from the start of the run.
   */
  dependency(name: string): Promise<void>;
}

/** Registers the operator on a manager; called again for the new manager after each crash. */
export type ExploreSetup = (mgr: Manager, ctx: ExploreContext) => void | Promise<void>;

/** Something the scenario does to the cluster at a moment of the run (create, change or delete objects). */
export interface ScenarioStep {
  readonly atMs: number;
  run(ctx: ExploreContext): Promise<void>;
}

/** A property of the converged state; `check` returns what is wrong, or undefined when it holds. */
export interface Invariant {
  readonly name: string;
  check(ctx: ExploreContext): string | undefined | Promise<string | undefined>;
}

/** Everything a run needs besides its namespace and faults. */
export interface RunSpec<T extends KubeObject> {
  env: TestEnv;
  /** The server in process, without faults: what the scenario, the checks and (through faults) the managers use. */
  client: Client;
  clock: FakeClock;
  setup: ExploreSetup;
  resource: ResourceDescriptor<T>;
  converged: (obj: T) => boolean;
  scenario: readonly ScenarioStep[];
  invariants: readonly Invariant[];
  stepMs: number;
  windowMs: number;
  settleMs: number;
  /** Once converged with every invariant holding, the operator must not write for this long (fake time); 0: not checked. */
  quietMs: number;
}

/** How a run ended, and what each numbered write was (for reports). */
export interface RunOutcome {
  failure: string | undefined;
  writes: string[];
  /** How many dependency calls the run made. */
  calls: number;
  /** The kinds the operator watched, in the order it first watched them. */
  kinds: string[];
}

const TOUCHED = 'explore.converge.dev/touched';

/** The Lease managers elect a leader with, in schedules with a lease loss; short, so a takeover fits in a run. */
const LEASE = { id: 'explore-leader', leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 200 } as const;

/** A manager that lost its lease must have stopped this long (fake time) after the loss began. */
const DEPOSED_STOP_MS = 2 * LEASE.leaseDurationMs;

/** One manager of a run: crashed (its client refuses every write), deposed (it cannot renew its Lease), stopped. */
interface RunManager {
  identity: string;
  mgr: Manager;
  client: FaultInjectingClient;
  dead: boolean;
  /** When it began to lose its lease (fake time), if it did. */
  deposedAt: number | undefined;
  stopped: boolean;
}

/** Turns of the event loop with nothing in flight after which a step's work counts as done. */
const IDLE_TURNS = 3;

export async function runSchedule<T extends KubeObject>(
  spec: RunSpec<T>,
  namespace: string,
  faults: readonly Fault[],
): Promise<RunOutcome> {
  const { env, clock, client: direct } = spec;
  await direct.create(NamespaceResource, { metadata: { name: namespace } });
  const state = {
    writes: 0,
    calls: 0,
    inflight: 0,
    idle: undefined as (() => void) | undefined,
    crashed: false,
    /** The view the manager a crash starts reads from: the latest one, or a stale one (a `staleRestart`). */
    restartView: undefined as StaleView | undefined,
    failure: undefined as string | undefined,
  };
  const writes: string[] = [];
  const start = clock.now();
  const elapsed = (): number => clock.now() - start;
  const ctx: ExploreContext = {
    namespace,
    client: direct,
    clock,
    async dependency(name) {
      const n = state.calls++;
      if (faults.some((f) => f.kind === 'dependencyTimeout' && f.call === n)) {
        throw new Error(`${name} timed out (injected by the explorer, dependency call #${n})`);
      }
    },
  };

  const kinds: string[] = [];
  /** When each lag began (the fake time its write was sent). */
  const lagStarts = new Map<Fault, number>();
  const lagNow = (kind: string): number => {
    let lag = 0;
    for (const [f, from] of lagStarts) {
      if (f.kind !== 'cacheLag' || clock.now() >= from + f.forMs) continue;
      if (f.watch === undefined || kinds[f.watch] === kind) lag = Math.max(lag, f.lagMs);
    }
    return lag;
  };
  const faultAt = (write: number, kind: Fault['kind']): boolean => faults.some((f) => f.kind === kind && 'write' in f && f.write === write);
  /** The server's revision just before each `staleRestart`'s write #`from`: what the restarted manager lists at. */
  const staleRevisions = new Map<Fault, string>();
  const revisionNow = async (): Promise<string> => (await direct.list(NamespaceResource, { limit: 1 })).metadata.resourceVersion ?? '';
  const electing = faults.some((f) => f.kind === 'leaseLoss');
  let managers = 0;
  /** The manager that should lead now: the one a crash restarts, the one a lease loss deposes. */
  let current: RunManager | undefined;
  /** A manager that began to lose its lease, not yet handled by the run's loop. */
  let deposing: RunManager | undefined;

  /** A manager with its own faulty client: once it crashed, that client refuses every write; once deposed, its Lease writes. */
  const startManager = async (view?: StaleView): Promise<RunManager> => {
    const numbers = new WeakMap<ClientWrite, number>();
    const identity = `${namespace}-manager-${managers++}`;
    const m: RunManager = { identity, mgr: undefined!, client: undefined!, dead: false, deposedAt: undefined, stopped: false };
    m.client = faultInjectingClient(counting(view ? staleLists(direct, view, clock) : direct, state), {
      beforeWrite: async (w) => {
        if (m.dead) throw new Error('the manager crashed (injected by the explorer)');
        if (electing && w.resource.kind === LeaseResource.kind && w.name === LEASE.id) {
          // Leader election is the manager's machinery, not the operator's: its writes are not numbered.
          if (m.deposedAt !== undefined) throw new Error(`${identity} cannot renew its Lease (injected by the explorer)`);
          return;
        }
        const desc = `${w.verb}${w.subresource ? ` ${w.subresource}` : ''} ${w.resource.kind} ${w.namespace ?? ''}/${w.name}`;
        if (m.stopped) state.failure ??= `${identity} wrote (${desc}) after it stopped`;
        const n = state.writes++;
        numbers.set(w, n);
        writes[n] = desc;
        for (const f of faults) {
          if (f.kind === 'cacheLag' && f.write === n) lagStarts.set(f, clock.now());
          if (f.kind === 'staleRestart' && f.from === n && m === current) staleRevisions.set(f, await revisionNow());
        }
        if (faultAt(n, 'leaseLoss') && m === current && m.deposedAt === undefined) {
          m.deposedAt = clock.now();
          deposing = m;
        }
        const stale = faults.find((f) => f.kind === 'staleRestart' && f.write === n && staleRevisions.has(f));
        if ((faultAt(n, 'crash') || stale) && m === current) {
          m.dead = true;
          state.crashed = true;
          if (stale?.kind === 'staleRestart') {
            state.restartView = { revision: staleRevisions.get(stale)!, until: clock.now() + stale.forMs, lagMs: stale.lagMs };
          }
          throw new Error(`the manager crashed before write #${n} (injected by the explorer)`);
        }
        if (faultAt(n, 'tooManyRequests')) throw tooManyRequests(n);
        if (faultAt(n, 'writeTimeout')) throw writeTimeout(n);
        if (faultAt(n, 'concurrentWrite') && w.name) {
          const patch = { metadata: { annotations: { [TOUCHED]: String(n) } } };
          await direct.patch(w.resource, { namespace: w.namespace ?? '', name: w.name }, patch, 'merge').catch(() => undefined); // nothing to touch yet
        }
      },
      afterWrite: (w) => {
        const n = numbers.get(w)!;
        if (faultAt(n, 'lostResponse')) {
          throw new NetworkError(w.verb, writes[n]!, new Error(`response of write #${n} lost (injected by the explorer)`));
        }
      },
      beforeWatch: (r) => {
        if (!kinds.includes(r.kind)) kinds.push(r.kind);
      },
      beforeWatchEvent: async (r) => {
        const lag = Math.max(lagNow(r.kind), view && clock.now() < view.until ? view.lagMs : 0);
        if (lag > 0) await clock.sleep(lag);
      },
    });
    const leaderElection = electing ? { leaderElection: { ...LEASE, namespace, identity } } : {};
    m.mgr = await env.newManager({ client: m.client, cache: { defaults: { namespaces: [namespace] } }, ...leaderElection });
    await spec.setup(m.mgr, ctx);
    void m.mgr.start().then(
      () => (m.stopped = true),
      (err: unknown) => {
        m.stopped = true;
        // Losing the lease is how a deposed (or crashed) manager is meant to stop.
        if (err instanceof LeaderElectionLostError && (m.deposedAt !== undefined || m.dead)) return;
        state.failure ??= `${identity} failed: ${(err as Error).message}`;
      },
    );
    return m;
  };

  const settleIO = async (): Promise<void> => {
    // Requests and watch events are promises and immediates (no socket): the work of a step is done
    // once no request is in flight over a few turns of the event loop (a cache hands events on in one).
    for (let idle = 0; idle < IDLE_TURNS;) {
      if (state.inflight > 0) {
        await new Promise<void>((resolve) => (state.idle = resolve));
        idle = 0;
        continue;
      }
      await new Promise((resolve) => setImmediate(resolve));
      idle = state.inflight === 0 ? idle + 1 : 0;
    }
  };
  const step = async (): Promise<void> => {
    await clock.advance(spec.stepMs);
    await settleIO();
  };
  /** Steps the clock until `p` settles (a stop waits for reconciles that may wait on the clock). */
  const stepUntil = async (p: Promise<unknown>): Promise<void> => {
    let done = false;
    void p.then(
      () => (done = true),
      () => (done = true),
    );
    await settleIO();
    while (!done) await step();
  };

  const scenario = [...spec.scenario].sort((a, b) => a.atMs - b.atMs);
  const cuts = faults.filter((f) => f.kind === 'watchCut').sort((a, b) => a.atMs - b.atMs);
  const deposed: RunManager[] = [];
  current = await startManager();
  try {
    for (;;) {
      if (state.failure) return { failure: state.failure, writes, calls: state.calls, kinds };
      while (scenario[0] && scenario[0].atMs <= elapsed()) await scenario.shift()!.run(ctx);
      while (cuts[0] && cuts[0].atMs <= elapsed()) {
        if (cuts.shift()!.relist) env.server.compact();
        current.client.endWatches();
      }
      if (state.crashed) {
        state.crashed = false;
        await stepUntil(current.mgr.shutdown());
        const view = state.restartView;
        state.restartView = undefined;
        current = await startManager(view);
      }
      if (deposing) {
        // The deposed manager keeps running until it notices; a standby waits for the lease meanwhile
        // (unless a crash already replaced the deposed one).
        deposed.push(deposing);
        if (deposing === current) current = await startManager();
        deposing = undefined;
      }
      const lingering = deposed.find((d) => !d.stopped && clock.now() - d.deposedAt! > DEPOSED_STOP_MS);
      if (lingering) {
        const failure = `${lingering.identity} still runs ${DEPOSED_STOP_MS} ms after it began to lose its lease`;
        return { failure, writes, calls: state.calls, kinds };
      }
      await step();
      if (elapsed() < spec.windowMs || scenario.length > 0) continue;
      const waiting = await notConverged(spec, ctx);
      if (waiting.length === 0 && deposed.every((d) => d.stopped)) {
        for (const inv of spec.invariants) {
          const broken = await inv.check(ctx);
          if (broken !== undefined)
            return { failure: `invariant "${inv.name}" does not hold: ${broken}`, writes, calls: state.calls, kinds };
        }
        const before = state.writes;
        for (const until = elapsed() + spec.quietMs; elapsed() < until && state.writes === before;) await step();
        if (state.writes !== before) {
          const failure = `the operator still writes after its steady state was reached: ${writes.slice(before).join('; ')}`;
          return { failure, writes, calls: state.calls, kinds };
        }
        return { failure: undefined, writes, calls: state.calls, kinds };
      }
      if (elapsed() >= spec.windowMs + spec.settleMs) {
        return {
          failure: `not converged ${spec.settleMs} ms after the faults stopped: ${waiting.join(', ')}`,
          writes,
          calls: state.calls,
          kinds,
        };
      }
    }
  } finally {
    await stepUntil(Promise.all([current, ...deposed].map((m) => m?.mgr.shutdown())));
    // The run's objects go with its namespace, so thousands of runs leave the shared server as they
    // found it (Service IPs, memory, list costs); objects kept by a finalizer stay, Terminating.
    await direct.delete(NamespaceResource, { name: namespace });
  }
}

async function notConverged<T extends KubeObject>(spec: RunSpec<T>, ctx: ExploreContext): Promise<string[]> {
  const list = await ctx.client.list(spec.resource, { namespace: ctx.namespace });
  return list.items.filter((o) => !spec.converged(o)).map((o) => `${spec.resource.kind} ${o.metadata.name}`);
}

function tooManyRequests(n: number): StatusError {
  return new StatusError({
    apiVersion: 'v1',
    kind: 'Status',
    status: 'Failure',
    code: 429,
    reason: 'TooManyRequests',
    message: `too many requests (injected by the explorer, write #${n})`,
    details: { retryAfterSeconds: 1 },
  });
}

function writeTimeout(n: number): StatusError {
  return new StatusError({
    apiVersion: 'v1',
    kind: 'Status',
    status: 'Failure',
    code: 504,
    reason: 'Timeout',
    message: `the write timed out and was not applied (injected by the explorer, write #${n})`,
  });
}

/** A view of the API server that lags behind the one writes go to, as a restarted manager may read from. */
interface StaleView {
  /** Lists without a resourceVersion are answered as the cluster was at this revision… */
  revision: string;
  /** …until this moment (fake time), and watch events reach the cache `lagMs` late until then. */
  until: number;
  lagMs: number;
}

/**
 * `base`, whose lists that ask for any recent state (a fresh cache's first list asks for "0") are answered from
 * `view.revision` while the view lasts: an exact read at an older revision of the same history, so the
 * watch that follows replays what came after it, as a lagging API server would catch up.
 */
function staleLists(base: Client, view: StaleView, clock: FakeClock): Client {
  return {
    ...base,
    list: (r, o) =>
      !o?.continue && ['', '0'].includes(o?.resourceVersion ?? '') && clock.now() < view.until
        ? base.list(r, { ...o, resourceVersion: view.revision, resourceVersionMatch: 'Exact' })
        : base.list(r, o),
  };
}

/** `base`, counting the calls in flight in `state.inflight` (a watch counts until it is open); `state.idle` is called when none is left. */
function counting(base: Client, state: { inflight: number; idle: (() => void) | undefined }): Client {
  return new Proxy(base, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (out instanceof Promise) {
          state.inflight++;
          const done = (): void => {
            if (--state.inflight > 0) return;
            const idle = state.idle;
            state.idle = undefined;
            idle?.();
          };
          out.then(done, done);
        }
        return out;
      };
    },
  });
}
