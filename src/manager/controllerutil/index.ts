// controller-runtime's controllerutil: owner and controller references, create-or-update and
// create-or-patch, and finalizers.
export { setControllerReference, setOwnerReference, removeOwnerReference, removeControllerReference } from './owner-references.js';
export type { OwnerReferenceOptions, ControllerReferenceOptions } from './owner-references.js';
export { createOrUpdate, createOrPatch } from './create-or-update.js';
export type { OperationResult, MutateFn, CreateOrUpdateOutcome } from './create-or-update.js';
export { addFinalizer, removeFinalizer, containsFinalizer, Finalizers } from './finalizers.js';
export type { Finalizer, FinalizerResult, FinalizeOutcome } from './finalizers.js';
export { AlreadyOwnedError } from './errors.js';
