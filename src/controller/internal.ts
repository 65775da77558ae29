// The controller layer's internal face: the hooks the manager feeds (reconcile writes, reconcile state).
// Not in package.json's exports: not part of Converge's API.
export { noteReconcileWrite } from './reconcile-writes.js';
export type { ReconcileState } from './reconcile-tracker.js';
export { BuilderSettings } from './builder-settings.js';
