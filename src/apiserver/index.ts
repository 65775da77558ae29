// Public face of the apiserver layer: the local Kubernetes-compatible API server.
export { startApiServer } from './start.js';
export type { StartApiServerOptions, RunningApiServer, Kubeconfig } from './start.js';
export { createApiServer } from './api-server.js';
export type { ApiServer, ApiServerOptions, ServiceAccountTokenOptions } from './api-server.js';
export type { RecordedRequest } from './authorization/index.js';
export type { IssuedToken } from './authentication/index.js';
export type { UserInfo } from './ground/index.js';
export type { AdmissionAuditEvent } from './registry/index.js';
export type { ServedResource } from './served-resource.js';
