/**
 * Reconcile tracing with `@opentelemetry/api`: a short span per watch event a source dispatches, and
 * one span per reconcile, linked to the event spans that enqueued its request (with the time each
 * waited in the queue) and made the active context while the reconciler runs, so the client's request
 * spans become its children. The API is a no-op until the application registers an SDK; then a
 * context manager (e.g. `AsyncLocalStorageContextManager`) is what carries the reconcile span into
 * the reconciler's requests.
 *
 * Invariants: with no SDK registered nothing is recorded, no context is switched and no link is
 * kept (each hook costs one no-op span); links wait per request key, at most `MAX_LINKS_PER_KEY`
 * per key and `MAX_PENDING_KEYS` keys, and are handed to the first reconcile of their key; tracing
 * never changes what the queue or the reconciler do.
 */
import { SpanKind, SpanStatusCode, context, trace, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import type { Clock, KubeObject } from '../meta/index.js';
import { defaultKeyOf, queueWithAdds } from '../workqueue/index.js';
import type { RequestQueue } from './handler.js';
import type { Request, Result } from './reconciler.js';
import { isTerminalError } from './terminal-error.js';

const tracer = trace.getTracer('kube-converge/controller');

/** A burst of events for one key collapses into one reconcile; its first links say enough. */
export const MAX_LINKS_PER_KEY = 16;
/** Keys enqueued but never reconciled (dropped by the host's gate) must not grow without bound. */
export const MAX_PENDING_KEYS = 10_000;

/** The watch event a source is dispatching now: handlers are synchronous, so one slot is enough. */
let dispatching: SpanContext | undefined;

/** The event names of a source's dispatch, as the watch spelled them. */
export type TracedEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'GENERIC';

/**
 * Runs `dispatch` (predicates, then the handler) inside a span for one event of `kind` on `object`;
 * requests the handler enqueues meanwhile are linked to it.
 */
export function traceEvent(kind: string, type: TracedEventType, object: KubeObject, dispatch: () => void): void {
  const span = tracer.startSpan(`${kind} ${type}`, { kind: SpanKind.CONSUMER, root: true });
  if (!span.isRecording()) return dispatch();
  const m = object.metadata;
  span.setAttributes({
    'converge.event.kind': kind,
    'converge.event.type': type,
    'converge.object.namespace': m.namespace ?? '',
    'converge.object.name': m.name ?? '',
    'converge.object.resource_version': m.resourceVersion ?? '',
  });
  const outer = dispatching;
  dispatching = span.spanContext();
  try {
    dispatch();
  } finally {
    dispatching = outer;
    span.end();
  }
}

interface PendingLink {
  context: SpanContext;
  enqueuedAt: number;
}

/** How a reconcile ended, as the controller knows it when its bookkeeping is done. */
export type TracedOutcome = { ok: true; result: Result } | { ok: false; err: unknown };

/** One reconcile's span: `run` makes it active around the reconciler, `end` records the outcome. */
export interface ReconcileSpan {
  run<R>(fn: () => R): R;
  end(outcome: TracedOutcome): void;
}

const untraced: ReconcileSpan = Object.freeze({ run: <R>(fn: () => R): R => fn(), end: () => {} });

/** One controller's tracing: the links waiting for their reconcile, and the spans of its reconciles. */
export class ReconcileTracing {
  readonly #controller: string;
  readonly #clock: Clock;
  readonly #pending = new Map<string, PendingLink[]>();

  constructor(options: { controller: string; clock: Clock }) {
    this.#controller = options.controller;
    this.#clock = options.clock;
  }

  /** `queue` as the sources see it: an add made while an event is dispatched keeps a link to that event. */
  tapQueue(queue: RequestQueue): RequestQueue {
    const note = (items: readonly Request[]): void => {
      const event = dispatching;
      if (event === undefined || queue.shuttingDown()) return;
      for (const item of items) this.#note(defaultKeyOf(item), event);
    };
    return queueWithAdds(queue, {
      add: (item) => {
        queue.add(item);
        note([item]);
      },
      addAfter: (item, delayMs) => {
        queue.addAfter(item, delayMs);
        note([item]);
      },
      addRateLimited: (item) => {
        queue.addRateLimited(item);
        note([item]);
      },
      addWithOpts: (opts, ...items) => {
        queue.addWithOpts(opts, ...items);
        note(items);
      },
    });
  }

  #note(key: string, event: SpanContext): void {
    const links = this.#pending.get(key);
    const link = { context: event, enqueuedAt: this.#clock.now() };
    if (links) {
      if (links.length < MAX_LINKS_PER_KEY) links.push(link);
      return;
    }
    if (this.#pending.size >= MAX_PENDING_KEYS) this.#pending.delete(this.#pending.keys().next().value!);
    this.#pending.set(key, [link]);
  }

  /** Starts the span of one reconcile of `req`, taking the links its key collected since the last one. */
  start(req: Request, reconcileID: string): ReconcileSpan {
    const key = defaultKeyOf(req);
    const waiting = this.#pending.get(key);
    this.#pending.delete(key);
    const now = this.#clock.now();
    const links: Link[] = (waiting ?? []).map((l) => ({
      context: l.context,
      attributes: { 'converge.queue.wait_ms': now - l.enqueuedAt },
    }));
    const span = tracer.startSpan(`reconcile ${this.#controller}`, { kind: SpanKind.INTERNAL, links, root: true });
    if (!span.isRecording()) return untraced;
    span.setAttributes({
      'converge.controller': this.#controller,
      'converge.request.namespace': req.namespace ?? '',
      'converge.request.name': req.name,
      'converge.reconcile_id': reconcileID,
      'converge.reconcile.triggers': links.length,
    });
    if (waiting?.[0]) span.setAttribute('converge.queue.wait_ms', now - waiting[0].enqueuedAt);
    return reconcileSpan(span);
  }
}

function reconcileSpan(span: Span): ReconcileSpan {
  const active = trace.setSpan(context.active(), span);
  return {
    run: (fn) => context.with(active, fn),
    end: (outcome) => {
      if (outcome.ok) {
        const after = outcome.result.requeueAfter;
        const requeued = after !== undefined && after > 0;
        span.setAttribute('converge.reconcile.result', requeued ? 'requeue_after' : 'success');
        if (requeued) span.setAttribute('converge.reconcile.requeue_after_ms', after);
      } else {
        const terminal = isTerminalError(outcome.err);
        span.setAttribute('converge.reconcile.result', terminal ? 'terminal' : 'error');
        span.setAttribute('converge.reconcile.requeue', !terminal);
        if (outcome.err instanceof Error) span.recordException(outcome.err);
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.err instanceof Error ? outcome.err.message : String(outcome.err) });
      }
      span.end();
    },
  };
}
