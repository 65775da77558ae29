// Public face of the controller layer: events, sources, handlers, predicates, the reconciler
// contract, the controller and its builder, and the ControllerHost contract a manager implements.
export type { Admission, ControllerHost, Runnable, ControllerMetrics } from './host.js';
export type { CreateEvent, UpdateEvent, DeleteEvent, GenericEvent } from './events.js';
export { requestFor } from './reconciler.js';
export type { Request, Result, Reconciler, ReconcileContext } from './reconciler.js';
export { TerminalError, isTerminalError } from './terminal-error.js';
export { CacheSyncTimeoutError, AlreadyStartedError } from './errors.js';
export {
  predicateFuncs,
  newPredicateFuncs,
  resourceVersionChangedPredicate,
  generationChangedPredicate,
  labelChangedPredicate,
  annotationChangedPredicate,
  labelSelectorPredicate,
  and,
  or,
  not,
} from './predicate.js';
export type { Predicate } from './predicate.js';
export { LOW_PRIORITY, funcs } from './handler.js';
export type { EventHandler, HandlerFuncs, RequestQueue } from './handler.js';
export { enqueueRequestForObject } from './enqueue-request-for-object.js';
export { enqueueRequestForOwner } from './enqueue-request-for-owner.js';
export type { EnqueueRequestForOwnerOptions } from './enqueue-request-for-owner.js';
export { enqueueRequestsFromMapFunc } from './enqueue-requests-from-map-func.js';
export type { MapFunc, MapFuncHandlerOptions } from './enqueue-requests-from-map-func.js';
export type { Source, SourceContext } from './source.js';
export { kindSource } from './kind-source.js';
export { channelSource } from './channel-source.js';
export { EventChannel } from './event-channel.js';
export type { ControllerOptions } from './options.js';
export { Controller, newUnmanagedController } from './controller.js';
export { controllerManagedBy, Builder } from './builder.js';
export type { ForOptions, OwnsOptions, WatchesOptions } from './builder.js';
