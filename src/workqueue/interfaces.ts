/**
 * The workqueue contracts, from the narrowest (a de-duplicating queue) to the widest (a priority
 * queue), named after client-go's `TypedInterface` family. Controllers program against
 * `RateLimitingInterface` or `PriorityInterface`, so the client-go queue and controller-runtime's
 * priority queue are interchangeable (`withPriority` adapts the former to the latter).
 *
 * Invariant shared by every implementation: a key handed out by `get` is not handed out again until
 * the worker calls `done` with it.
 */
import type { Clock } from '../meta/index.js';
import type { KeyOf } from './key.js';
import type { WorkqueueMetricsProvider } from './metrics.js';
import type { RateLimiter } from './rate-limiter.js';

/** What `get` resolves to: an item to process, or the news that the queue shut down. */
export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

/** What `getWithPriority` resolves to. */
export type GetWithPriorityResult<T> = { item: T; priority: number; shutdown: false } | { item: undefined; priority: 0; shutdown: true };

/** Options every queue constructor takes. */
export interface QueueOptions<T> {
  /** The queue's name; metrics are recorded only for named queues (as in client-go). */
  name?: string | undefined;
  /** Time source for delays, rate limits and metrics. Default: `realClock`. */
  clock?: Clock | undefined;
  /** Receives the workqueue metrics. Default: the no-op provider (no metric state kept). */
  metricsProvider?: WorkqueueMetricsProvider | undefined;
  /** How items are compared. Default: `defaultKeyOf` (strings by value, requests by `namespace/name`). */
  keyOf?: KeyOf<T> | undefined;
}

/** Options of the rate-limiting and priority queues. */
export interface RateLimitingQueueOptions<T> extends QueueOptions<T> {
  /**
   * Spaces `addRateLimited` retries. Default: `defaultControllerRateLimiter()` for `RateLimitingQueue`,
   * `defaultPriorityQueueRateLimiter()` for `PriorityQueue`, both using the queue's `keyOf` (and the
   * bucket the queue's clock). A limiter passed here compares items with its own `keyOf` option.
   */
  rateLimiter?: RateLimiter<T>;
}

/** Options of the priority queue: the rate-limiting queue's, plus aging. */
export interface PriorityQueueOptions<T> extends RateLimitingQueueOptions<T> {
  /**
   * Aging: every `agingIntervalMs` a ready item has waited counts as one more level of priority, so a
   * low-priority item cannot be starved by a stream of more urgent adds. Default 600 (an initial-list
   * item, priority −100, outranks a fresh priority-0 add after 60 s). `Infinity` turns aging off:
   * controller-runtime's strict priority order. Must be > 0.
   */
  agingIntervalMs?: number;
}

/** client-go's `TypedInterface`: a fair, de-duplicating queue of work items. @extension */
export interface QueueInterface<T> {
  /** Marks the item as needing processing. A no-op once the queue is shutting down. */
  add(item: T): void;
  /** Items waiting to be handed out (not counting ones being processed). For information only. */
  len(): number;
  /** Resolves with the next item, waiting for one if needed, or with `shutdown: true`. */
  get(): Promise<GetResult<T>>;
  /** Tells the queue the worker finished the item handed out by `get`. Must be called exactly once per get. */
  done(item: T): void;
  /** Stops accepting adds and wakes every waiting `get`. */
  shutDown(): void;
  /** Like `shutDown`, then resolves once no item is being processed. */
  shutDownWithDrain(): Promise<void>;
  shuttingDown(): boolean;
}

/** client-go's `TypedDelayingInterface`. @extension */
export interface DelayingInterface<T> extends QueueInterface<T> {
  /** Adds the item once `delayMs` has passed; with `delayMs <= 0`, at once. Earliest requested time wins. */
  addAfter(item: T, delayMs: number): void;
}

/** client-go's `TypedRateLimitingInterface`. */
export interface RateLimitingInterface<T> extends DelayingInterface<T> {
  /** Adds the item after the delay the rate limiter decides (counting one failure for it). */
  addRateLimited(item: T): void;
  /** Clears the item's failure history in the rate limiter. Does not call `done`. */
  forget(item: T): void;
  /** How many times the item was rate-limited since it was last forgotten. */
  numRequeues(item: T): number;
}

/** controller-runtime's `AddOpts`. */
export interface AddOpts {
  /** Delay in milliseconds before the item becomes ready; 0 or absent means now. */
  after?: number;
  /** Also ask the rate limiter; with `after` too, the shorter delay wins. */
  rateLimited?: boolean;
  /** Higher is more urgent. Default 0. A key keeps the highest priority it was ever added with while queued. */
  priority?: number;
}

/** controller-runtime's `priorityqueue.PriorityQueue` surface. @extension */
export interface PriorityInterface<T> extends RateLimitingInterface<T> {
  addWithOpts(opts: AddOpts, ...items: T[]): void;
  getWithPriority(): Promise<GetWithPriorityResult<T>>;
}
