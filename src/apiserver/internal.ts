// The API server's internal face: what the CLI, the manager, the webhook and the testing layers need
// beyond the public face (listening on a socket with the loopback serving certificate, in-process
// requests, kubeconfigs for a server, the CRD check, bootstrap RBAC). Not in package.json's exports:
// not part of Converge's API.
export { kubeconfigFor } from './start.js';
export { parseKubernetesVersion, SUPPORTED_MINORS } from './ground/index.js';
export { grantedToAuthenticatedUsers } from './authorization/index.js';
export type { ApiRequest } from './wire/index.js';
export type { ApiResponse } from './wire/index.js';
export { checkCustomResource } from './schema/index.js';
export type { CustomResourceCheck } from './schema/index.js';
export { listen } from './http/index.js';
export type { Listening } from './http/index.js';
export { servingMaterial } from './http/index.js';
export type { ServingMaterial } from './http/index.js';
export type { FieldCause } from './schema/index.js';
