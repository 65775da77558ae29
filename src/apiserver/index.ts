// Public face of the apiserver layer: the local Kubernetes-compatible API server.
export { startApiServer, kubeconfigFor } from './start.js';
export type { StartApiServerOptions, RunningApiServer, Kubeconfig } from './start.js';
export { createApiServer } from './api-server.js';
export type { ApiServer, ApiServerOptions, ServiceAccountTokenOptions } from './api-server.js';
export type { RecordedRequest } from './authorization/request-recorder.js';
export { grantedToAuthenticatedUsers } from './authorization/bootstrap-policy.js';
export type { IssuedToken } from './authentication/service-account-tokens.js';
export type { UserInfo } from './ground/user.js';
export type { AdmissionAuditEvent } from './registry/context.js';
export { listen } from './http/http-adapter.js';
export type { Listening } from './http/http-adapter.js';
export type { ApiRequest, ApiResponse } from './wire/request.js';
export type { ServedResource } from './served-resource.js';
export { servingMaterial } from './http/tls/certificates.js';
export type { ServingMaterial } from './http/tls/certificates.js';
export { checkCustomResource } from './schema/index.js';
export type { CustomResourceCheck, FieldCause } from './schema/index.js';
