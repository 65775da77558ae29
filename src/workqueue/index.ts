// Public face of the workqueue layer: client-go's queues and rate limiters, controller-runtime's
// priority queue, the wrappers that adapt them (withPriority, queueWithAdds), and the metrics hooks
// they report through.
export { Queue } from './queue.js';
export { DelayingQueue } from './delaying-queue.js';
export { RateLimitingQueue } from './rate-limiting-queue.js';
export { PriorityQueue } from './priority-queue.js';
export { withPriority } from './with-priority.js';
export { queueWithAdds } from './with-adds.js';
export type { QueueAdds } from './with-adds.js';
export { defaultKeyOf } from './key.js';
export type { KeyOf } from './key.js';
export type { RateLimiter, ItemRateLimiterOptions } from './rate-limiter.js';
export { itemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
export type { ItemExponentialFailureRateLimiterOptions } from './item-exponential-failure-rate-limiter.js';
export { itemFastSlowRateLimiter } from './item-fast-slow-rate-limiter.js';
export type { ItemFastSlowRateLimiterOptions } from './item-fast-slow-rate-limiter.js';
export { maxOfRateLimiter } from './max-of-rate-limiter.js';
export { bucketRateLimiter } from './bucket-rate-limiter.js';
export type { BucketRateLimiterOptions } from './bucket-rate-limiter.js';
export { withMaxWaitRateLimiter } from './with-max-wait-rate-limiter.js';
export type { WithMaxWaitRateLimiterOptions } from './with-max-wait-rate-limiter.js';
export { defaultControllerRateLimiter, defaultItemBasedRateLimiter, defaultPriorityQueueRateLimiter } from './default-rate-limiters.js';
export type { DefaultRateLimiterOptions } from './default-rate-limiters.js';
export type { WorkqueueMetricsProvider, GaugeMetric, PriorityGaugeMetric } from './metrics.js';
export type {
  QueueInterface,
  DelayingInterface,
  RateLimitingInterface,
  PriorityInterface,
  AddOpts,
  GetResult,
  GetWithPriorityResult,
  QueueOptions,
  RateLimitingQueueOptions,
  PriorityQueueOptions,
} from './interfaces.js';
