// The face of the registry: the strategy of every kind the server serves (defaulting, validation,
// generation and status rules, printer columns) and the registry that finds them by group, version and
// resource, with the server context and a request's scope that handlers, admission and controllers
// receive. The context lives here because it names the registry and the registry's review kinds use it.
export { defaultUid, metaOf, present, storageKey } from './context.js';
export type { AdmissionAuditEvent, Scope, ServerContext, TableConverter } from './context.js';
export { localApiServices } from './apiservice.js';
export { BUILTIN_KINDS } from './builtins.js';
export type { BuiltinKind } from './builtin-kind.js';
export { ReviewStrategy } from './review.js';
export { Registry } from './registry.js';
export { readPath, writePath } from './strategy.js';
export type { Strategy, WriteContext } from './strategy.js';
export { CRD_FINALIZER, crdOf } from './crd.js';
export { CustomResourceStrategy } from './custom-resource.js';
export { validateObjectMeta } from './object-meta-validation.js';
