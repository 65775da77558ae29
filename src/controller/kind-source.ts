/**
 * `kindSource`: events of one kind from the host's shared informer cache (controller-runtime's
 * `source.Kind`). Starting returns at once; in the background it asks the host for the informer and,
 * while the kind is not served (a CRD not installed yet), logs and retries every 10 s on the host's
 * clock instead of failing. Then it registers its handler; the informer replays the objects it
 * already holds as initial-list creates.
 *
 * Synced means: the informer has synced AND this handler has been handed every object of the initial
 * list (the registration's `hasSynced`), so the first reconciles see a complete cache.
 *
 * Each event is dispatched inside its trace span (tracing.ts), so the reconciles it enqueues link to it.
 *
 * A source runs once at a time: started again after its previous run's signal aborted (a controller
 * restarted), it registers a new handler, which the informer replays its objects to once more.
 */
import assert from 'node:assert/strict';
import { gvkOfResource } from '../meta/index.js';
import { formatGVK, untilAborted } from '../meta/internal.js';
import type { Clock, KubeObject, ResourceDescriptor } from '../meta/index.js';
import type { DeletedFinalStateUnknown, HandlerRegistration, SharedIndexInformer } from '../cache/index.js';
import { AlreadyStartedError } from './errors.js';
import type { EventHandler } from './handler.js';
import type { Predicate } from './predicate.js';
import { EventDispatcher } from './source.js';
import type { Source, SourceContext } from './source.js';
import { traceEvent } from './tracing.js';

/** How often a kind that is not served yet is asked for again (controller-runtime's 10 s). */
export const KIND_RETRY_INTERVAL_MS = 10_000;
/** How often the handler registration is checked once the informer has synced (client-go's 100 ms poll). */
const REGISTRATION_SYNC_POLL_MS = 100;

/** A source of events of one kind, from the host's shared informer cache. */
export function kindSource<T extends KubeObject>(
  resource: ResourceDescriptor<T>,
  handler: EventHandler<T>,
  ...predicates: Predicate<T>[]
): Source {
  return new KindSource(resource, handler, predicates);
}

interface Registered<T extends KubeObject> {
  informer: SharedIndexInformer<T>;
  registration: HandlerRegistration;
  clock: Clock;
}

/** One run of a kind source: the signal that ends it, and its handler's registration once made. */
interface Run<T extends KubeObject> {
  readonly signal: AbortSignal;
  /**
   * Resolves once the handler is registered; rejects if registering failed (logged where it failed);
   * stays pending if the run stops first.
   */
  readonly registered: Promise<Registered<T>>;
  resolve(r: Registered<T>): void;
  reject(err: unknown): void;
}

class KindSource<T extends KubeObject> implements Source {
  readonly #resource: ResourceDescriptor<T>;
  readonly #handler: EventHandler<T>;
  readonly #predicates: readonly Predicate<T>[];
  /** The current or last run; undefined before the first start. */
  #run: Run<T> | undefined;

  constructor(resource: ResourceDescriptor<T>, handler: EventHandler<T>, predicates: readonly Predicate<T>[]) {
    this.#resource = resource;
    this.#handler = handler;
    this.#predicates = predicates;
  }

  toString(): string {
    return `kind source: ${formatGVK(gvkOfResource(this.#resource))}`;
  }

  async start(ctx: SourceContext): Promise<void> {
    if (this.#run && !this.#run.signal.aborted) throw new AlreadyStartedError(String(this));
    let resolve!: (r: Registered<T>) => void;
    let reject!: (err: unknown) => void;
    const registered = new Promise<Registered<T>>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be waiting (a source watched after start is not waited for); the failure is logged.
    registered.catch(() => {});
    const run: Run<T> = { signal: ctx.signal, registered, resolve, reject };
    this.#run = run;
    void this.#register(ctx, run);
  }

  async waitForSync({ signal }: { signal: AbortSignal }): Promise<void> {
    assert(this.#run, `${String(this)}: waitForSync is called after start, by the controller that started it`);
    const { informer, registration, clock } = await untilAborted(this.#run.registered, signal);
    await informer.waitForSync({ signal });
    while (!registration.hasSynced()) await clock.sleep(REGISTRATION_SYNC_POLL_MS, { signal });
  }

  /**
   * Never rejects. A kind that is not served is logged and retried until the signal aborts; a handler
   * that cannot be registered (the informer stopped) is logged and fails `waitForSync`.
   */
  async #register({ signal, queue, host, log }: SourceContext, run: Run<T>): Promise<void> {
    const kind = formatGVK(gvkOfResource(this.#resource));
    const sourceLog = log.child({ source: String(this) });
    let informer: SharedIndexInformer<T> | undefined;
    while (!informer) {
      try {
        informer = await host.getInformer(this.#resource, { signal });
      } catch (err) {
        if (signal.aborted) return;
        sourceLog.error({ err, kind, retryInMs: KIND_RETRY_INTERVAL_MS }, 'kind is not served yet (if it is a CRD, install it); retrying');
        try {
          await host.clock.sleep(KIND_RETRY_INTERVAL_MS, { signal });
        } catch {
          return; // aborted while waiting: the controller is stopping
        }
      }
    }
    if (signal.aborted) return;
    const dispatcher = new EventDispatcher(this.#handler, this.#predicates, queue, sourceLog);
    let registration: HandlerRegistration;
    try {
      registration = this.#addHandler(informer, dispatcher);
    } catch (err) {
      sourceLog.error({ err, kind }, 'could not register the event handler');
      run.reject(err);
      return;
    }
    signal.addEventListener('abort', () => registration.remove(), { once: true });
    run.resolve({ informer, registration, clock: host.clock });
  }

  #addHandler(informer: SharedIndexInformer<T>, dispatcher: EventDispatcher<T>): HandlerRegistration {
    const kind = this.#resource.kind;
    return informer.addEventHandler({
      onAdd: (object, isInInitialList) => traceEvent(kind, 'ADDED', object, () => dispatcher.create({ object, isInInitialList })),
      onUpdate: (objectOld, objectNew) => traceEvent(kind, 'MODIFIED', objectNew, () => dispatcher.update({ objectOld, objectNew })),
      onDelete: (obj) =>
        isTombstone(obj)
          ? traceEvent(kind, 'DELETED', obj.obj, () => dispatcher.delete({ object: obj.obj, deleteStateUnknown: true }))
          : traceEvent(kind, 'DELETED', obj, () => dispatcher.delete({ object: obj, deleteStateUnknown: false })),
    });
  }
}

/** A tombstone: the delete was missed while the watch was down; `obj` is the last state known. */
function isTombstone<T extends KubeObject>(v: T | DeletedFinalStateUnknown<T>): v is DeletedFinalStateUnknown<T> {
  return (v as Partial<DeletedFinalStateUnknown<T>>).deletedFinalStateUnknown === true;
}
