// Field ownership: the shape of each kind's fields (how lists merge), the managed-fields record of
// who set what, and server-side apply's merge and conflict rules over both. The write handlers use
// only this face; nothing here reads storage or knows about HTTP.
export { shapeOf } from './field-shape.js';
export type { Shape } from './field-shape.js';
export { recordManagedFields, fieldSetOf, admissionOnlyFields, union as unionFieldSets } from './managed-fields.js';
export type { FieldSet } from './managed-fields.js';
export { serverSideApply, merge as mergeApplyConfiguration } from './server-side-apply.js';
