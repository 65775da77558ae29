// Public face of the client layer: kubeconfig and auth, the HTTP transport, typed errors, resource
// operations, watch streams, patches, discovery and REST mapping.
export { createClient } from './rest-client.js';
export type { CreateClientOptions, RestClient } from './rest-client.js';
export {
  StatusError,
  NetworkError,
  KubeConfigError,
  WatchDecodeError,
  ListDecodeError,
  isNotFound,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isGone,
  isResourceExpired,
  isTooManyRequests,
  isForbidden,
  isUnauthorized,
  isServerTimeout,
  isTimeout,
  ignoreNotFound,
  ignoreAlreadyExists,
} from './errors.js';
export { createMergePatch } from './merge-patch.js';
export type { MergePatchOptions } from './merge-patch.js';
export { metadataOnly } from './metadata-only.js';
export type { MetadataOnlyResource } from './metadata-only.js';
export type { RestConfig, TlsConfig, AuthProvider, Credentials } from './rest-config.js';
export { loadKubeConfig, parseKubeConfig } from './kubeconfig.js';
export type { LoadKubeConfigOptions, ParseKubeConfigOptions } from './kubeconfig.js';
export { inClusterConfig, getConfig } from './in-cluster.js';
export type { InClusterConfigOptions, GetConfigOptions } from './in-cluster.js';
export { bearerTokenAuth } from './auth-providers.js';
export type {
  Client,
  PatchType,
  RequestOptions,
  WriteOptions,
  UpdateOptions,
  ListOptions,
  WatchOptions,
  WatchEvent,
  WatchStream,
  DeleteOptions,
  PatchOptions,
} from './types.js';
export { DiscoveryClient } from './discovery.js';
export type { DiscoveryClientOptions, APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions } from './discovery.js';
export { RestMapper } from './rest-mapper.js';
export type { RestMapping, KindQuery, ResourceQuery, RestMapperOptions } from './rest-mapper.js';
