/**
 * `explain`: the answer to "why is this object not converged?" from what this process already knows —
 * the object as the cache holds it (generation against `status.observedGeneration`, conditions that
 * are not True, a deletion held up by finalizers) and what each controller of this manager that
 * reconciles the object, or its controller owner, knows about that request (phase, last error and its
 * API reason, failures in a row, next attempt). The report is plain JSON with a one-line `summary`.
 * An object of a member cluster (a fleet's) is explained from that member's cache and API reader and
 * the controllers that reconcile its cluster, whose requests carry the cluster's name.
 *
 * Invariants: an object the cache holds is explained without any API call (a live GET is made only
 * when the cache cannot answer: no informer, still syncing, another namespace, or not held, as with a
 * filtered cache); the report is computed from snapshots and never changes anything.
 */
import {
  InvalidOptionError,
  getControllerOf,
  type Clock,
  type KubeObject,
  type NamespacedName,
  type ResourceDescriptor,
} from '../../meta/index.js';
import { clusterKeyOf } from '../../meta/internal.js';
import type { Client } from '../../client/index.js';
import type { Controller, Request } from '../../controller/index.js';
import type { ReconcileState } from '../../controller/internal.js';
import type { InformerCache } from '../cache/index.js';
import { predatesServing, shardElsewhereReason, type ShardReport } from './shard-ownership.js';

/** Where the facts about the object came from. */
export type ExplainSource = 'cache' | 'api';

/** A condition that is not True. */
export interface ConditionReport {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

/** One controller's view of the request that converges the object. */
export interface ControllerReport {
  controller: string;
  /** `for`: it reconciles this kind; `owner`: it owns this kind and reconciles the object's controller owner. */
  role: 'for' | 'owner';
  /** The kind of the request (the controller's `for` kind). */
  kind: string;
  request: Request;
  /** What the controller knows, or null if it never saw this request (or forgot it). */
  state: ReconcileState | null;
  /** Milliseconds until `state.nextAttemptAt` (negative: overdue), when one is scheduled. */
  nextAttemptInMs?: number;
  /** Milliseconds since the last reconcile finished. */
  lastFinishedAgoMs?: number;
  /** Milliseconds the reconcile in flight has been running. */
  reconcilingForMs?: number;
}

/** Why an object is or is not converged, as `explain` finds it from the cache and the controllers. */
export interface ConvergeReport {
  apiVersion: string;
  kind: string;
  /** The plural resource name, as in the URL. */
  resource: string;
  namespace?: string;
  name: string;
  /** The member cluster the object lives in, when explained for one (a fleet's); absent: the manager's own. */
  cluster?: string;
  converged: boolean;
  /** One line in plain words: `converged: …` or `not converged: …`. */
  summary: string;
  /** Every reason found for not being converged, most telling first; empty when converged. */
  reasons: string[];
  /** The host clock's time of the report. */
  at: string;
  cache: {
    /** `none`: the cache has no informer for the kind; `outside-namespaces`: it does not watch that namespace. */
    informer: 'none' | 'outside-namespaces' | 'syncing' | 'synced';
    holdsObject: boolean;
  };
  object: {
    /** Undefined when it could not be read. */
    exists: boolean | undefined;
    source?: ExplainSource;
    /** Why it could not be read, when it could not. */
    readError?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    observedGeneration?: number;
    /** False when the status was written for an older generation. */
    statusUpToDate?: boolean;
    deletionTimestamp?: string;
    finalizers: string[];
    /**
     * Conditions not in their healthy state, `Ready` first: status not True, except for the
     * abnormal-true types (`Degraded`, `Progressing`, `Stalled`, `Reconciling`), which are healthy
     * when False and listed when they are not.
     */
    conditionsNotTrue: ConditionReport[];
    /** The `Ready` condition's status, when the object has one. */
    ready?: string;
  };
  controllers: ControllerReport[];
  /** With sharding: the shard of the object's namespace (or, sharded by cluster, of its cluster) and who owns it. */
  shard?: ShardReport;
}

export interface ExplainInput {
  resource: ResourceDescriptor;
  nn: NamespacedName;
  cache: InformerCache;
  apiReader: Pick<Client, 'get'>;
  controllers: readonly Controller<unknown>[];
  clock: Clock;
  signal?: AbortSignal | undefined;
  /** The member cluster the object lives in: `cache` and `apiReader` are its, and requests carry its name. */
  cluster?: string | undefined;
  /** With sharding: the shard of a namespace (of a cluster's name, with `cluster`) and its owner. */
  shardOf?: ((key: string) => ShardReport) | undefined;
}

/**
 * Builds the report for one object (see the file's doc for where each fact comes from). Throws
 * `InvalidOptionError` for a namespaced kind without a namespace or an empty name.
 */
export async function explainObject(input: ExplainInput): Promise<ConvergeReport> {
  const { resource, clock } = input;
  if (!input.nn.name) throw new InvalidOptionError('name', `explain needs the name of the ${resource.kind}`);
  if (resource.namespaced && !input.nn.namespace)
    throw new InvalidOptionError('namespace', `${resource.kind} is namespaced: explain needs a namespace`);
  const nn: NamespacedName = resource.namespaced ? { namespace: input.nn.namespace ?? '', name: input.nn.name } : { name: input.nn.name };
  const now = clock.now();
  const peek = input.cache.peek(resource, nn);
  const holdsObject = peek.informer === 'synced' && peek.object !== undefined;
  const read = holdsObject ? { object: peek.object, source: 'cache' as const } : await readLive(input, nn);

  const obj = read.object;
  const object = describeObject(obj, read);
  const { cluster } = input;
  const shardKey = cluster ?? nn.namespace;
  const shard = shardKey && input.shardOf ? input.shardOf(shardKey) : undefined;
  const elsewhere = shard && shardElsewhereReason(cluster !== undefined ? `cluster ${cluster}` : `namespace ${shardKey}`, shard);
  // A member's requests carry its cluster: that is the key its controllers know them by.
  const requestOf = (r: Request): Request => (cluster === undefined ? r : ({ cluster, ...r } as Request));
  // Elsewhere, the controllers here know nothing current of it; only the object itself is judged.
  const controllers = elsewhere ? [] : controllerReports(resource, nn, obj, input.controllers, now, shard, requestOf);

  const reasons: string[] = [];
  if (peek.informer === 'syncing' && !elsewhere) reasons.push(`the cache of ${resource.kind} has not synced yet`);
  if (read.error !== undefined) reasons.push(`the object could not be read: ${read.error}`);
  if (object.deletionTimestamp !== undefined) {
    reasons.push(
      object.finalizers.length > 0
        ? `being deleted since ${object.deletionTimestamp}, waiting for finalizers: ${object.finalizers.join(', ')}`
        : `being deleted since ${object.deletionTimestamp}`,
    );
  }
  for (const c of controllers) {
    const why = controllerReason(c);
    if (why !== undefined) reasons.push(why);
  }
  if (object.statusUpToDate === false) {
    reasons.push(`status is stale: observedGeneration ${object.observedGeneration} < generation ${object.generation}`);
  }
  const ready = object.conditionsNotTrue.find((c) => c.type === 'Ready');
  if (ready)
    reasons.push(`Ready=${ready.status}${ready.reason ? ` (${ready.reason}${ready.message ? `: ${firstLine(ready.message)}` : ''})` : ''}`);

  const converged = reasons.length === 0;
  const who = `${resource.kind} ${clusterKeyOf({ ...nn, cluster })}`;
  const where = elsewhere ? ` (${elsewhere})` : '';
  const summary = converged
    ? `converged: ${who} — ${convergedFacts(object, controllers).join(', ')}${where}`
    : `not converged: ${who} — ${reasons.join('; ')}${where}`;
  return {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    resource: resource.plural,
    ...(nn.namespace ? { namespace: nn.namespace } : {}),
    name: nn.name,
    ...(cluster !== undefined ? { cluster } : {}),
    converged,
    summary,
    reasons,
    at: new Date(now).toISOString(),
    cache: { informer: peek.informer, holdsObject },
    object,
    controllers,
    ...(shard ? { shard } : {}),
  };
}

interface Read {
  object: KubeObject | undefined;
  source?: ExplainSource;
  error?: string;
}

/** A GET through the API reader: 404 means the object does not exist; any other failure is reported. */
async function readLive(input: ExplainInput, nn: NamespacedName): Promise<Read> {
  try {
    return { object: await input.apiReader.get(input.resource, nn, { signal: input.signal }), source: 'api' };
  } catch (err) {
    if ((err as { status?: { code?: unknown } } | null)?.status?.code === 404) return { object: undefined, source: 'api' };
    return { object: undefined, error: err instanceof Error ? err.message : String(err) };
  }
}

function describeObject(obj: KubeObject | undefined, read: Read): ConvergeReport['object'] {
  if (!obj) {
    return {
      exists: read.error === undefined ? false : undefined,
      ...(read.source ? { source: read.source } : {}),
      ...(read.error !== undefined ? { readError: read.error } : {}),
      finalizers: [],
      conditionsNotTrue: [],
    };
  }
  const m = obj.metadata;
  const status = (obj as { status?: unknown }).status as { observedGeneration?: unknown; conditions?: unknown } | undefined;
  const conditions = Array.isArray(status?.conditions) ? (status.conditions as Record<string, unknown>[]) : [];
  const readyCondition = conditions.find((c) => c['type'] === 'Ready');
  const generation = typeof m.generation === 'number' ? m.generation : undefined;
  // Without status.observedGeneration, the Ready condition's own observedGeneration says the same.
  const observed =
    typeof status?.observedGeneration === 'number'
      ? status.observedGeneration
      : typeof readyCondition?.['observedGeneration'] === 'number'
        ? (readyCondition['observedGeneration'] as number)
        : undefined;
  const notTrue = conditions
    .filter((c) => typeof c['type'] === 'string' && c['status'] !== healthyStatus(c['type']))
    .sort((a, b) => Number(b['type'] === 'Ready') - Number(a['type'] === 'Ready'))
    .map(conditionReport);
  return {
    exists: true,
    ...(read.source ? { source: read.source } : {}),
    ...(m.uid !== undefined ? { uid: m.uid } : {}),
    ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
    ...(generation !== undefined ? { generation } : {}),
    ...(observed !== undefined ? { observedGeneration: observed } : {}),
    ...(generation !== undefined && observed !== undefined ? { statusUpToDate: observed >= generation } : {}),
    ...(m.deletionTimestamp ? { deletionTimestamp: m.deletionTimestamp } : {}),
    finalizers: [...(m.finalizers ?? [])],
    ...(typeof readyCondition?.['status'] === 'string' ? { ready: readyCondition['status'] } : {}),
    conditionsNotTrue: notTrue,
  };
}

/** Condition types whose True means trouble or work still going on (the Kubernetes API conventions' abnormal-true). */
const ABNORMAL_TRUE = new Set(['Degraded', 'Progressing', 'Stalled', 'Reconciling']);

function healthyStatus(type: string): 'True' | 'False' {
  return ABNORMAL_TRUE.has(type) ? 'False' : 'True';
}

function conditionReport(c: Record<string, unknown>): ConditionReport {
  const r: ConditionReport = { type: String(c['type']), status: typeof c['status'] === 'string' ? c['status'] : 'Unknown' };
  if (typeof c['reason'] === 'string' && c['reason'] !== '') r.reason = c['reason'];
  if (typeof c['message'] === 'string' && c['message'] !== '') r.message = c['message'];
  if (typeof c['lastTransitionTime'] === 'string') r.lastTransitionTime = c['lastTransitionTime'];
  if (typeof c['observedGeneration'] === 'number') r.observedGeneration = c['observedGeneration'];
  return r;
}

const sameKind = (a: ResourceDescriptor, b: ResourceDescriptor): boolean => a.group === b.group && a.kind === b.kind;

/**
 * Controllers whose `for` kind is the object's kind report the object's own request; controllers
 * that own the kind report the request of the object's controller owner, when it is of their kind.
 */
function controllerReports(
  resource: ResourceDescriptor,
  nn: NamespacedName,
  obj: KubeObject | undefined,
  controllers: readonly Controller<unknown>[],
  now: number,
  shard: ShardReport | undefined,
  requestOf: (r: Request) => Request,
): ControllerReport[] {
  const out: ControllerReport[] = [];
  for (const c of controllers) {
    const forKind = c.forResource;
    if (!forKind) continue;
    if (sameKind(forKind, resource)) out.push(report(c, 'for', forKind.kind, requestOf(nn), now, shard));
    if (obj && c.ownedResources.some((r) => sameKind(r, resource))) {
      const ref = getControllerOf(obj);
      if (ref && ref.kind === forKind.kind && groupOf(ref.apiVersion) === forKind.group) {
        const request: Request = forKind.namespaced && nn.namespace ? { namespace: nn.namespace, name: ref.name } : { name: ref.name };
        out.push(report(c, 'owner', forKind.kind, requestOf(request), now, shard));
      }
    }
  }
  return out;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function report(
  c: Controller<unknown>,
  role: 'for' | 'owner',
  kind: string,
  request: Request,
  now: number,
  shard: ShardReport | undefined,
): ControllerReport {
  const known = c.reconcileState(request);
  // A sharded replica forgets what it knew of a request before it began serving the shard.
  const state = known && !(shard && predatesServing(known, shard)) ? known : null;
  const r: ControllerReport = { controller: c.name, role, kind, request, state };
  if (state?.nextAttemptAt !== undefined) r.nextAttemptInMs = state.nextAttemptAt - now;
  if (state?.lastFinishedAt !== undefined) r.lastFinishedAgoMs = now - state.lastFinishedAt;
  if (state?.phase === 'reconciling' && state.lastStartedAt !== undefined) r.reconcilingForMs = now - state.lastStartedAt;
  return r;
}

/** Why this controller's request keeps the object from being converged, or undefined if it does not. */
function controllerReason(c: ControllerReport): string | undefined {
  const s = c.state;
  if (!s) return undefined;
  const whose = c.role === 'for' ? `controller ${c.controller}` : `controller ${c.controller} (owner ${c.kind} ${keyText(c.request)})`;
  const error = s.lastError ? ` (${s.lastError.reason ? `${s.lastError.reason}: ` : ''}${firstLine(s.lastError.message)})` : '';
  switch (s.phase) {
    case 'waiting-retry':
      return `${whose}: reconcile failing for ${s.failures} attempt${s.failures === 1 ? '' : 's'}${error}${c.nextAttemptInMs !== undefined ? `, next attempt in ${formatDuration(c.nextAttemptInMs)}` : ''}`;
    case 'terminal':
      return `${whose}: reconcile failed with a terminal error${error}; not retried until the object changes`;
    case 'reconciling':
      return `${whose}: reconcile in progress${c.reconcilingForMs !== undefined ? ` for ${formatDuration(c.reconcilingForMs)}` : ''}${s.failures > 0 ? ` after ${s.failures} failed attempt${s.failures === 1 ? '' : 's'}${error}` : ''}`;
    case 'queued':
      return `${whose}: queued for reconcile${s.failures > 0 ? ` after ${s.failures} failed attempt${s.failures === 1 ? '' : 's'}${error}` : ''}`;
    case 'waiting-requeue':
    case 'done':
      return undefined;
  }
}

/** What a converged object's summary says: the facts that were checked. */
function convergedFacts(object: ConvergeReport['object'], controllers: ControllerReport[]): string[] {
  const facts: string[] = [];
  // A deleted object has reached what its deletion asked for.
  if (object.exists === false) facts.push('the object does not exist (deleted, or never created)');
  if (object.ready !== undefined) facts.push(`Ready=${object.ready}`);
  if (object.statusUpToDate) facts.push(`observedGeneration ${object.observedGeneration} = generation ${object.generation}`);
  const last = controllers
    .filter((c) => c.role === 'for' && c.lastFinishedAgoMs !== undefined)
    .sort((a, b) => a.lastFinishedAgoMs! - b.lastFinishedAgoMs!)[0];
  if (last?.state) {
    const requeue =
      last.state.phase === 'waiting-requeue' && last.nextAttemptInMs !== undefined
        ? `, requeued in ${formatDuration(last.nextAttemptInMs)}`
        : '';
    facts.push(`last reconcile succeeded ${formatDuration(last.lastFinishedAgoMs!)} ago${requeue}`);
  }
  if (facts.length === 0) facts.push('nothing pending is known for it');
  return facts;
}

function keyText(r: Request): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

function firstLine(s: string): string {
  const line = s.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** `80 ms`, `2.1 s`, `3.5 min`, `2.0 h`: a duration as a person reads it. */
export function formatDuration(ms: number): string {
  const a = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (Math.round(a) < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${(a / 1000).toFixed(1)} s`;
  if (a < 3_600_000) return `${sign}${(a / 60_000).toFixed(1)} min`;
  return `${sign}${(a / 3_600_000).toFixed(1)} h`;
}
