// Runs the RateLimitingInterface contract against every queue that claims it.
import { RateLimitingQueue, PriorityQueue, withPriority } from 'kube-converge/workqueue';
import { rateLimitingContract } from './rate-limiting-contract.js';

rateLimitingContract('RateLimitingQueue', (o) => new RateLimitingQueue<string>(o));
rateLimitingContract('PriorityQueue', (o) => new PriorityQueue<string>(o));
rateLimitingContract('withPriority(RateLimitingQueue)', (o) => withPriority(new RateLimitingQueue<string>(o)));
