// The client layer's internal face: URL and query building and request metrics, shared with the cache,
// the manager and the testing layer. Not in package.json's exports: not part of Converge's API.
export type { RequestMetric } from './transport.js';
export { resourcePath } from './resource-path.js';
export { queryString } from './resource-path.js';
export { listQuery } from './resource-path.js';
export { writeQuery } from './resource-path.js';
export type { PathParts } from './resource-path.js';
export type { QueryParams } from './resource-path.js';
export { SERVICE_ACCOUNT_DIR } from './in-cluster.js';
export { isMetadataOnly } from './metadata-only.js';
