// Test support for operator authors: the in-process API server environment and polling assertions.
export { eventually, EventuallyTimeoutError } from './eventually.js';
export type { EventuallyOptions } from './eventually.js';
export { TestEnv, loadCrds } from './test-env.js';
export type { TestEnvOptions, CrdSource, CustomResourceDefinition } from './test-env.js';
export { CrdNotServedError } from './errors.js';
