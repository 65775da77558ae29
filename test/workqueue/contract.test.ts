// Runs the RateLimitingInterface contract against every queue that claims it.
import { RateLimitingQueue, PriorityQueue, queueWithAdds, withPriority } from 'kube-converge/workqueue';
import { rateLimitingContract } from './rate-limiting-contract.js';

rateLimitingContract('RateLimitingQueue', (o) => new RateLimitingQueue<string>(o));
rateLimitingContract('PriorityQueue', (o) => new PriorityQueue<string>(o));
rateLimitingContract('withPriority(RateLimitingQueue)', (o) => withPriority(new RateLimitingQueue<string>(o)));
rateLimitingContract('queueWithAdds(PriorityQueue) passing its adds through', (o) => {
  const q = new PriorityQueue<string>(o);
  return queueWithAdds(q, {
    add: (item) => q.add(item),
    addAfter: (item, delayMs) => q.addAfter(item, delayMs),
    addRateLimited: (item) => q.addRateLimited(item),
    addWithOpts: (opts, ...items) => q.addWithOpts(opts, ...items),
  });
});
