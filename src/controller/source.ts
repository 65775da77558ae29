/**
 * Sources: where a controller's events come from (controller-runtime's `source` package). A source is
 * started once by its controller with the controller's queue; from then on it feeds events through its
 * predicates (all must pass) into its handler until the signal aborts. A source with an initial state
 * (a kind's cache) also says when that state has been delivered, so workers start on a warm cache.
 *
 * Invariant: a failing predicate or handler never stops a source; the failure is logged with the
 * source's name and that event is dropped (as a Go panic in a handler would, minus the crash).
 */
import type { KubeObject, Logger } from '../meta/index.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from './events.js';
import type { EventHandler, RequestQueue } from './handler.js';
import type { ControllerHost } from './host.js';
import type { Predicate } from './predicate.js';

/** What a source is started with: the controller's queue, host and logger, and the signal that stops it. @extension */
export interface SourceContext {
  /** Aborts when the controller stops; the source stops delivering then. */
  readonly signal: AbortSignal;
  readonly queue: RequestQueue;
  readonly host: ControllerHost<unknown>;
  /** The controller's logger. */
  readonly log: Logger;
}

/** Where a controller's events come from: started once, it feeds its handler until the controller stops. @extension */
export interface Source {
  /**
   * Starts delivering events and returns promptly; background work runs until `ctx.signal` aborts.
   * Rejects if the source cannot start at all (e.g. started twice).
   */
  start(ctx: SourceContext): Promise<void>;
  /**
   * Resolves once the source's initial state has been handed to its handler; rejects with the
   * signal's reason if it aborts first. Absent for sources without an initial state.
   */
  waitForSync?(options: { signal: AbortSignal }): Promise<void>;
  /** Names the source in logs and errors, e.g. `kind source: ConfigMap.v1`. */
  toString(): string;
}

/**
 * Feeds one source's events through its predicates (AND, short-circuit) into its handler. Catches and
 * logs what a predicate or handler throws, so one bad event never stops the source.
 */
export class EventDispatcher<T extends KubeObject> {
  constructor(
    private readonly handler: EventHandler<T>,
    private readonly predicates: readonly Predicate<T>[],
    private readonly queue: RequestQueue,
    private readonly log: Logger,
  ) {}

  create(e: CreateEvent<T>): void {
    this.#guard('create', () => this.predicates.every((p) => p.create(e)) && this.handler.create(e, this.queue));
  }

  update(e: UpdateEvent<T>): void {
    this.#guard('update', () => this.predicates.every((p) => p.update(e)) && this.handler.update(e, this.queue));
  }

  delete(e: DeleteEvent<T>): void {
    this.#guard('delete', () => this.predicates.every((p) => p.delete(e)) && this.handler.delete(e, this.queue));
  }

  generic(e: GenericEvent<T>): void {
    this.#guard('generic', () => this.predicates.every((p) => p.generic(e)) && this.handler.generic(e, this.queue));
  }

  #guard(event: string, fn: () => unknown): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err, event }, 'event handler or predicate failed; event dropped');
    }
  }
}
