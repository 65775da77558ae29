/**
 * ProcessorListener: one event handler's private, ordered, unbounded buffer of notifications and the
 * loop that drains it (client-go's `processorListener`). The informer pushes; the listener delivers.
 *
 * Delivery runs in its own microtask, a time slice (5 ms) at a time, then yields to the event loop
 * with `setImmediate`, so a slow handler delays only itself: other handlers, the FIFO and socket reads
 * keep their turns while its buffer grows. A handler that returns a promise is awaited before its next
 * notification (order holds for async handlers too). A handler that throws or rejects is logged and
 * counted, and delivery continues with the next notification.
 *
 * Invariants: each handler sees its notifications exactly once, in push order, one at a time; after
 * `stop()` it sees nothing more; `initialPending` counts pushed initial-list adds not yet handled.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers';
import type { KubeObject, Logger } from '../meta/index.js';
import type { GaugeMetric } from './metrics.js';
import type { DeletedFinalStateUnknown, ResourceEventHandler } from './types.js';

export type Notification<T extends KubeObject> =
  | { readonly kind: 'add'; readonly obj: T; readonly isInInitialList: boolean }
  | { readonly kind: 'update'; readonly old: T; readonly obj: T }
  | { readonly kind: 'delete'; readonly obj: T | DeletedFinalStateUnknown<T> };

const SLICE_MS = 5;
/** Look at the time only every this many calls: `performance.now()` is cheap, not free. */
const CLOCK_CHECK_EVERY = 32;
const COMPACT_AFTER = 1024;

export interface ProcessorListenerOptions<T extends KubeObject> {
  handler: ResourceEventHandler<T>;
  name: string;
  logger: Logger;
  /** Pending-notifications gauge; absent when metrics are off (saves two calls per drain). */
  pending?: GaugeMetric | undefined;
  /** The resync period the handler asked for, the effective one (0 = none), and when the first is due (clock ms). */
  requestedResyncMs: number;
  resyncMs: number;
  nextResyncAtMs: number;
}

export class ProcessorListener<T extends KubeObject> {
  readonly name: string;
  readonly requestedResyncMs: number;
  resyncMs: number;
  nextResyncAtMs: number;

  readonly #handler: ResourceEventHandler<T>;
  readonly #log: Logger;
  readonly #pendingGauge: GaugeMetric | undefined;
  #buffer: (Notification<T> | undefined)[] = [];
  #head = 0;
  #scheduled = false;
  #awaiting = false;
  #stopped = false;
  #initialPending = 0;
  #errors = 0;

  constructor(o: ProcessorListenerOptions<T>) {
    this.name = o.name;
    this.#handler = o.handler;
    this.#log = o.logger;
    this.#pendingGauge = o.pending;
    this.requestedResyncMs = o.requestedResyncMs;
    this.resyncMs = o.resyncMs;
    this.nextResyncAtMs = o.nextResyncAtMs;
  }

  get pending(): number {
    return this.#buffer.length - this.#head;
  }

  get initialPending(): number {
    return this.#initialPending;
  }

  get errors(): number {
    return this.#errors;
  }

  push(n: Notification<T>): void {
    if (this.#stopped) return;
    this.#buffer.push(n);
    if (n.kind === 'add' && n.isInInitialList) this.#initialPending++;
    if (!this.#scheduled && !this.#awaiting) {
      this.#scheduled = true;
      queueMicrotask(this.#drain);
    }
  }

  /** Drops everything queued; no call happens after this returns (an in-flight async call may still settle). */
  stop(): void {
    this.#stopped = true;
    this.#buffer = [];
    this.#head = 0;
    this.#pendingGauge?.set(0);
  }

  readonly #drain = (): void => {
    this.#scheduled = false;
    if (this.#stopped) return;
    this.#pendingGauge?.set(this.pending);
    // The time slice starts at the first clock check, so a short drain never reads the clock.
    let deadline = 0;
    let calls = 0;
    while (this.#head < this.#buffer.length) {
      const n = this.#buffer[this.#head]!;
      this.#buffer[this.#head++] = undefined;
      let result: unknown;
      try {
        result = this.#call(n);
      } catch (error) {
        this.#failed(error, n);
      }
      if (typeof (result as PromiseLike<void> | undefined)?.then === 'function') {
        this.#awaiting = true;
        (result as PromiseLike<void>).then(
          () => this.#resume(n),
          (error: unknown) => {
            this.#failed(error, n);
            this.#resume(n);
          },
        );
        return;
      }
      this.#handled(n);
      if (this.#stopped) return;
      if (++calls % CLOCK_CHECK_EVERY === 0 && this.#head < this.#buffer.length) {
        const now = performance.now();
        if (deadline === 0) deadline = now + SLICE_MS;
        else if (now > deadline) {
          this.#compact();
          this.#scheduled = true;
          yieldToEventLoop(this.#drain);
          return;
        }
      }
    }
    this.#buffer = [];
    this.#head = 0;
    this.#pendingGauge?.set(0);
  };

  #call(n: Notification<T>): unknown {
    const h = this.#handler;
    switch (n.kind) {
      case 'add':
        return h.onAdd?.(n.obj, n.isInInitialList);
      case 'update':
        return h.onUpdate?.(n.old, n.obj);
      case 'delete':
        return h.onDelete?.(n.obj);
    }
  }

  #resume(n: Notification<T>): void {
    this.#awaiting = false;
    this.#handled(n);
    if (this.#stopped || this.#head >= this.#buffer.length) return;
    this.#scheduled = true;
    queueMicrotask(this.#drain);
  }

  #handled(n: Notification<T>): void {
    if (n.kind === 'add' && n.isInInitialList) this.#initialPending--;
  }

  #failed(error: unknown, n: Notification<T>): void {
    this.#errors++;
    this.#log.error(
      { handler: this.name, notification: n.kind, error, errors: this.#errors },
      'event handler failed; notification skipped',
    );
  }

  #compact(): void {
    if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#buffer.length) {
      this.#buffer = this.#buffer.slice(this.#head);
      this.#head = 0;
    }
  }
}
