// Patch algorithms of the API server as pure functions: JSON patch, merge patch, strategic merge patch.
export { applyJsonPatch, parseJsonPointer, MAX_JSON_PATCH_OPERATIONS } from './json-patch.js';
export type { JsonPatchOperation } from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { applyStrategicMergePatch } from './strategic-merge-patch.js';
export { supportsStrategicMerge, strategyFor, objectMetaStrategy } from './merge-strategy.js';
export type { FieldStrategy, ListType } from './merge-strategy.js';
export { PatchError } from './patch-error.js';
export type { PatchErrorHttpCode } from './patch-error.js';
