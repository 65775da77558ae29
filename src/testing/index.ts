// Test support for operator authors: the in-process API server environment and polling assertions.
export { eventually, EventuallyTimeoutError } from './eventually.js';
export type { EventuallyOptions } from './eventually.js';
