/**
 * Queue: client-go's plain workqueue. Fair (FIFO), stingy (repeated adds of a pending key collapse
 * into one; a key is never handed to two workers at once) and safe for many producers and many
 * concurrent `get()` callers.
 *
 * State, all keyed by item key:
 *
 *     add ──▶ dirty ──(not processing)──▶ queue ──get──▶ processing ──done──▶ gone
 *               ▲                                           │
 *               └──────── add while processing ─────────────┘ done() re-queues a dirty key
 *
 * Invariants: every key in `queue` is in `dirty` and not in `processing`; `get` waiters exist only
 * while `queue` is empty, and each added key wakes exactly one of them (the key is moved to
 * `processing` before the waiter resumes, so no other caller can take it).
 */
import assert from 'node:assert';
import { realClock } from '../meta/index.js';
import type { Clock } from '../meta/index.js';
import { Fifo } from './fifo.js';
import { defaultKeyOf } from './key.js';
import type { KeyOf } from './key.js';
import { QueueMetrics } from './metrics.js';
import type { GetResult, QueueInterface, QueueOptions } from './interfaces.js';

const SHUTDOWN: GetResult<never> = Object.freeze({ item: undefined, shutdown: true });

/**
 * client-go's `Type` (`workqueue.New`): a de-duplicating FIFO of work items.
 *
 * - `add` of a key that is already waiting does nothing; of a key being processed, marks it dirty so
 *   that `done` puts it back exactly once, however many adds came in meanwhile.
 * - `shutDown` stops adds; items already queued are still handed out by `get`, which reports
 *   shutdown once the queue is empty.
 * - `shutDownWithDrain` also resolves only when no item is being processed (a later `shutDown`
 *   releases it early). It does not wait for queued items nobody claimed.
 */
export class Queue<T> implements QueueInterface<T> {
  protected readonly clock: Clock;
  protected readonly keyOf: KeyOf<T>;
  protected readonly metrics: QueueMetrics | undefined;
  readonly #queue = new Fifo<string>();
  /** Items needing processing, by key; the first item added for a key is the one handed out. */
  readonly #dirty = new Map<string, T>();
  readonly #processing = new Set<string>();
  readonly #waiters = new Fifo<(r: GetResult<T>) => void>();
  #shuttingDown = false;
  /** Resolvers of `shutDownWithDrain` calls still waiting for processing to empty. */
  #drainWaiters: (() => void)[] = [];

  constructor(options: QueueOptions<T> = {}) {
    this.clock = options.clock ?? realClock;
    this.keyOf = options.keyOf ?? (defaultKeyOf as KeyOf<T>);
    this.metrics = QueueMetrics.create({ name: options.name, provider: options.metricsProvider, clock: this.clock });
  }

  add(item: T): void {
    if (this.#shuttingDown) return;
    const key = this.keyOf(item);
    if (this.#dirty.has(key)) return;
    this.metrics?.add(key);
    this.#dirty.set(key, item);
    if (this.#processing.has(key)) return; // done() re-queues it
    this.#enqueue(key);
  }

  len(): number {
    return this.#queue.length;
  }

  get(): Promise<GetResult<T>> {
    const key = this.#queue.shift();
    if (key !== undefined) return Promise.resolve(this.#claim(key));
    if (this.#shuttingDown) return Promise.resolve(SHUTDOWN);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  done(item: T): void {
    const key = this.keyOf(item);
    assert(this.#processing.delete(key), `workqueue: done(${key}) for an item that is not being processed`);
    this.metrics?.done(key);
    if (this.#dirty.has(key)) this.#enqueue(key);
    if (this.#processing.size === 0) this.#releaseDrain();
  }

  shutDown(): void {
    this.#beginShutdown();
    this.#releaseDrain();
  }

  shutDownWithDrain(): Promise<void> {
    this.#beginShutdown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  #enqueue(key: string): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(this.#claim(key));
    else this.#queue.push(key);
  }

  /** Moves a queued key to processing and builds the `get` result for it. */
  #claim(key: string): GetResult<T> {
    const item = this.#dirty.get(key) as T;
    this.#dirty.delete(key);
    this.#processing.add(key);
    this.metrics?.get(key);
    return { item, shutdown: false };
  }

  #beginShutdown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.metrics?.stop();
    // Waiters exist only while the queue is empty, so every one of them learns of the shutdown now.
    for (let w = this.#waiters.shift(); w; w = this.#waiters.shift()) w(SHUTDOWN);
  }

  #releaseDrain(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
