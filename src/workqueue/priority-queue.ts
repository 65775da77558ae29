/**
 * PriorityQueue: controller-runtime's priority queue, the default queue of controllers, with aging.
 * Every key has at most one entry, which is either waiting (has a ready time), ready, or parked
 * (ready, but its key is being processed). Ready entries come out highest priority first and, within
 * a priority, in the order they became ready — where a ready entry's priority grows by one level for
 * every `agingIntervalMs` it has waited.
 *
 *     addWithOpts ──▶ waiting (min-heap by readyAt) ──one timer──▶ ready (heap by priority, then age)
 *                                                                     │ get
 *            add while the key is processing ──▶ parked ──done──▶ ready ▼
 *                                                                 processing (locked)
 *
 * Invariants: a key in `locked` has no entry in the ready heap (so no key is ever handed to two
 * workers); `get` waiters exist only while the ready heap is empty; the one clock timer is due at
 * the earliest waiting entry's ready time.
 *
 * Why aging keeps a heap valid: every ready entry ages at the same rate, so entry a outranks b at
 * time t when `a.priority + (t − a.readySince)/I > b.priority + (t − b.readySince)/I`, and t cancels:
 * the order is `priority·I − readySince`, fixed once the entry is ready. Nothing is re-sorted as time
 * passes. The bound it buys: an entry of priority p is handed out before every entry that becomes
 * ready more than `(q − p)·I` after it with priority q, so (docs/workqueue.md) with the queue holding
 * at most Q items and adds arriving at r times the rate w the workers take items, it waits at most
 * `Q/w + r·(q − p)·I`.
 */
import assert from 'node:assert';
import { InvalidOptionError, realClock } from '../meta/index.js';
import type { Clock } from '../meta/index.js';
import { defaultPriorityQueueRateLimiter } from './default-rate-limiters.js';
import { Fifo } from './fifo.js';
import { HeadTimer } from './head-timer.js';
import { Heap } from './heap.js';
import { defaultKeyOf } from './key.js';
import type { KeyOf } from './key.js';
import { QueueMetrics } from './metrics.js';
import type { AddOpts, GetResult, GetWithPriorityResult, PriorityInterface, PriorityQueueOptions } from './interfaces.js';
import type { RateLimiter } from './rate-limiter.js';

interface Entry<T> {
  key: string;
  item: T;
  priority: number;
  /** When the entry became ready (or was raised in priority); breaks ties of the aged order. */
  addedCounter: number;
  /** Wall-clock ms when the entry became ready (or was raised in priority); its age counts from here. */
  readySince: number;
  /** Set while waiting; undefined once ready. */
  readyAt: number | undefined;
  heapIndex: number;
}

const SHUTDOWN: GetWithPriorityResult<never> = Object.freeze({ item: undefined, priority: 0, shutdown: true });
const GET_SHUTDOWN: GetResult<never> = Object.freeze({ item: undefined, shutdown: true });

/** The default aging: one level of priority per 600 ms waited (−100 → 0 in a minute). */
export const DEFAULT_AGING_INTERVAL_MS = 600;

const strictFirst = <T>(a: Entry<T>, b: Entry<T>): boolean =>
  a.priority > b.priority || (a.priority === b.priority && a.addedCounter < b.addedCounter);

/** The aged order (see the file comment): `priority·I − readySince`, higher first, then FIFO. */
const agedFirst =
  (intervalMs: number) =>
  <T>(a: Entry<T>, b: Entry<T>): boolean => {
    const sa = a.priority * intervalMs - a.readySince;
    const sb = b.priority * intervalMs - b.readySince;
    return sa > sb || (sa === sb && a.addedCounter < b.addedCounter);
  };

const dueFirst = <T>(a: Entry<T>, b: Entry<T>): boolean => a.readyAt! < b.readyAt! || (a.readyAt === b.readyAt && strictFirst(a, b));

/**
 * controller-runtime's `priorityqueue.New`: a rate-limiting queue with priorities.
 *
 * Merge rules when a key that is already queued is added again:
 * - **ready time**: a ready entry stays ready (a later `after` is ignored); an immediate add makes a
 *   waiting entry ready now; between two ready times the earlier wins;
 * - **priority**: the higher of the old and the new one. A raise moves the entry to the end of its
 *   new priority level; an equal or lower priority keeps its place.
 *
 * A waiting entry that becomes ready goes to the end of its priority level (items are ordered by
 * when they became ready, not when they were first added). A key added while it is being processed
 * gets a new entry that is handed out only after `done`.
 *
 * Differences from controller-runtime, on purpose:
 * - aging (`agingIntervalMs`, default 600; `Infinity` for controller-runtime's strict order): a ready
 *   item gains one level of priority per interval waited, so no priority starves another;
 * - adds take effect synchronously (controller-runtime buffers them for a background goroutine), so
 *   `len()` and the next `get()` see them at once;
 * - `shutDownWithDrain()` really waits for in-flight items (controller-runtime's is `shutDown()`).
 *
 * As in controller-runtime, `get()` reports shutdown as soon as the queue is shut down, even if
 * items are still queued, and the default rate limiter is per-item exponential backoff from 5 ms to
 * 1000 s with no token bucket.
 *
 * @example A worker loop
 * ```ts
 * const queue = new PriorityQueue<NamespacedName>({ name: 'webapp', clock });
 * queue.addWithOpts({ priority: -100 }, { namespace: 'default', name: 'shop' }); // initial list: low priority
 * for (;;) {
 *   const { item, priority, shutdown } = await queue.getWithPriority();
 *   if (shutdown) break;
 *   try {
 *     await reconcile(item);
 *     queue.forget(item);                                   // success resets the backoff
 *   } catch {
 *     queue.addWithOpts({ rateLimited: true, priority }, item); // retry, keeping its urgency
 *   } finally {
 *     queue.done(item);
 *   }
 * }
 * ```
 */
export class PriorityQueue<T> implements PriorityInterface<T> {
  readonly #clock: Clock;
  readonly #keyOf: KeyOf<T>;
  readonly #limiter: RateLimiter<T>;
  readonly #metrics: QueueMetrics | undefined;
  /** Every entry not handed out yet: waiting, ready or parked. */
  readonly #items = new Map<string, Entry<T>>();
  readonly #ready: Heap<Entry<T>>;
  readonly #waiting = new Heap<Entry<T>>(dueFirst);
  /** Ready entries whose key is locked; they join the ready heap on `done`. */
  readonly #parked = new Map<string, Entry<T>>();
  /** Keys handed out by `get` and not yet `done`. */
  readonly #locked = new Set<string>();
  readonly #waiters = new Fifo<(r: GetWithPriorityResult<T>) => void>();
  #drainWaiters: (() => void)[] = [];
  #addedCounter = 0;
  #shuttingDown = false;
  readonly #timer: HeadTimer;

  constructor(options: PriorityQueueOptions<T> = {}) {
    const aging = options.agingIntervalMs ?? DEFAULT_AGING_INTERVAL_MS;
    if (!(aging > 0)) throw new InvalidOptionError('agingIntervalMs', `must be > 0 (Infinity: no aging), got ${aging}`);
    this.#ready = new Heap<Entry<T>>(Number.isFinite(aging) ? agedFirst(aging) : strictFirst);
    this.#clock = options.clock ?? realClock;
    this.#keyOf = options.keyOf ?? (defaultKeyOf as KeyOf<T>);
    this.#limiter = options.rateLimiter ?? defaultPriorityQueueRateLimiter<T>({ keyOf: this.#keyOf });
    this.#metrics = QueueMetrics.create({
      name: options.name,
      provider: options.metricsProvider,
      clock: this.#clock,
      withPriority: true,
    });
    this.#timer = new HeadTimer({ clock: this.#clock, onDue: () => this.#promote() });
  }

  /**
   * Adds `items` with the given options (all optional):
   * - `after`: milliseconds until the items become ready (≤ 0: now); counts a retry when > 0;
   * - `rateLimited`: ask the rate limiter too (counting one failure per item); the shorter of its
   *   delay and `after` wins;
   * - `priority`: higher is more urgent; default 0.
   * Ignored once the queue is shutting down.
   */
  addWithOpts(opts: AddOpts, ...items: T[]): void {
    const after = opts.after ?? 0;
    if (!Number.isFinite(after)) throw new InvalidOptionError('after', `must be a finite number of milliseconds, got ${after}`);
    const priority = opts.priority ?? 0;
    if (!Number.isFinite(priority)) throw new InvalidOptionError('priority', `must be a finite number, got ${priority}`);
    if (this.#shuttingDown || items.length === 0) return;
    for (const item of items) this.#addOne(item, after, opts.rateLimited ?? false, priority);
    this.#armTimer();
    this.#dispatch();
  }

  /** Adds `item` now with priority 0 (keeping a higher priority it is already queued with). */
  add(item: T): void {
    this.addWithOpts({}, item);
  }

  /** Adds `item` after `delayMs`; the earlier ready time wins if it is already waiting. */
  addAfter(item: T, delayMs: number): void {
    this.addWithOpts({ after: delayMs }, item);
  }

  /** Adds `item` after the rate limiter's delay for it (counting one failure). */
  addRateLimited(item: T): void {
    this.addWithOpts({ rateLimited: true }, item);
  }

  /** Clears `item`'s failure history in the rate limiter. Does not call `done`. */
  forget(item: T): void {
    this.#limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.#limiter.numRequeues(item);
  }

  /** Ready items, including ones parked behind an in-flight item of the same key; waiting items are not counted. */
  len(): number {
    return this.#ready.size + this.#parked.size;
  }

  /** Like `getWithPriority`, without the priority. */
  async get(): Promise<GetResult<T>> {
    const r = await this.getWithPriority();
    return r.shutdown ? GET_SHUTDOWN : { item: r.item, shutdown: false };
  }

  /**
   * Resolves with the most urgent ready item whose key is not being processed, and that item's
   * priority (requeue it with the same priority to keep its urgency), waiting if none is ready.
   * Resolves with `shutdown: true` once the queue is shut down, even if items are queued.
   */
  getWithPriority(): Promise<GetWithPriorityResult<T>> {
    if (this.#shuttingDown) return Promise.resolve(SHUTDOWN);
    const e = this.#ready.pop();
    if (e) return Promise.resolve(this.#claim(e));
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Ends the processing of an item handed out by `get`; a re-add made meanwhile becomes available. */
  done(item: T): void {
    const key = this.#keyOf(item);
    assert(this.#locked.delete(key), `workqueue: done(${key}) for an item that is not being processed`);
    this.#metrics?.done(key);
    const parked = this.#parked.get(key);
    if (parked) {
      this.#parked.delete(key);
      this.#ready.push(parked);
      this.#dispatch();
    }
    if (this.#locked.size === 0) this.#releaseDrain();
  }

  /** Stops adds, drops the delay timer and answers every waiting and future `get` with shutdown. */
  shutDown(): void {
    this.#beginShutdown();
    this.#releaseDrain();
  }

  /** Like `shutDown`, then resolves once no item is being processed (a later `shutDown` releases it). */
  shutDownWithDrain(): Promise<void> {
    this.#beginShutdown();
    if (this.#locked.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  #addOne(item: T, afterOpt: number, rateLimited: boolean, priority: number): void {
    const key = this.#keyOf(item);
    let after = afterOpt;
    if (rateLimited) {
      const rl = this.#limiter.when(item);
      if (after <= 0 || rl < after) after = rl;
    }
    let readyAt: number | undefined;
    if (after > 0) {
      readyAt = this.#clock.now() + after;
      this.#metrics?.retry();
    }

    const e = this.#items.get(key);
    if (!e) {
      const entry: Entry<T> = { key, item, priority, addedCounter: this.#addedCounter++, readySince: 0, readyAt, heapIndex: -1 };
      this.#items.set(key, entry);
      if (readyAt === undefined) this.#makeReady(entry);
      else this.#waiting.push(entry);
      return;
    }

    if (e.readyAt !== undefined) {
      if (readyAt === undefined) {
        this.#waiting.remove(e);
        e.readyAt = undefined;
        this.#makeReady(e);
      } else if (readyAt < e.readyAt) {
        e.readyAt = readyAt;
        this.#waiting.update(e);
      }
    }

    if (priority > e.priority) {
      const wasReady = e.readyAt === undefined;
      if (wasReady) this.#metrics?.movePriority(e.priority, priority);
      e.priority = priority;
      e.addedCounter = this.#addedCounter++;
      e.readySince = this.#clock.now();
      if (e.heapIndex >= 0) (wasReady ? this.#ready : this.#waiting).update(e);
    }
  }

  /** Counts `e` as added, starts its age, and puts it where `get` can find it (parked if its key is in flight). */
  #makeReady(e: Entry<T>): void {
    e.readySince = this.#clock.now();
    this.#metrics?.add(e.key, e.priority);
    if (this.#locked.has(e.key)) this.#parked.set(e.key, e);
    else this.#ready.push(e);
  }

  #claim(e: Entry<T>): GetWithPriorityResult<T> {
    this.#items.delete(e.key);
    this.#locked.add(e.key);
    this.#metrics?.get(e.key, e.priority);
    return { item: e.item, priority: e.priority, shutdown: false };
  }

  /** Hands ready entries to waiting `get` callers, oldest caller first. */
  #dispatch(): void {
    while (this.#waiters.length > 0 && this.#ready.size > 0) {
      this.#waiters.shift()!(this.#claim(this.#ready.pop()!));
    }
  }

  #armTimer(): void {
    this.#timer.arm(this.#waiting.peek()?.readyAt ?? Infinity);
  }

  /** Moves every due waiting entry to ready, each to the end of its priority level. */
  #promote(): void {
    const now = this.#clock.now();
    for (let head = this.#waiting.peek(); head && head.readyAt! <= now; head = this.#waiting.peek()) {
      this.#waiting.pop();
      head.readyAt = undefined;
      head.addedCounter = this.#addedCounter++;
      this.#makeReady(head);
    }
    this.#armTimer();
    this.#dispatch();
  }

  #beginShutdown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    this.#timer.cancel();
    this.#metrics?.stop();
    // `get` answers shutdown from now on, so what is ready (or parked behind an item in flight) is never
    // handed out: it leaves `workqueue_depth`, or a queue started again under the same name would
    // count it forever on top of its own.
    for (const e of this.#items.values()) if (e.readyAt === undefined) this.#metrics?.abandon(e.key, e.priority);
    for (let w = this.#waiters.shift(); w; w = this.#waiters.shift()) w(SHUTDOWN);
  }

  #releaseDrain(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
