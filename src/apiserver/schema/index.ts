// Structural schemas of custom resources as pure functions: structural checks, pruning, defaulting, validation
// (OpenAPI and CEL rules).
export { validateStructuralSchema } from './structural.js';
export { pruneUnknownFields, pruneBySchema } from './prune.js';
export type { PruneOptions } from './prune.js';
export { applyDefaults, pruneNonNullableNulls, setDefaults } from './defaults.js';
export { validateAgainstSchema } from './validate.js';
export { fieldCause, renderValue } from '../ground/index.js';
export type { FieldCause } from '../ground/index.js';
export { extensionsOf } from './extensions.js';
export type { SchemaExtensions } from './extensions.js';
export { validateCustomResource } from './validate-custom-resource.js';
export type { CustomResourceValidation } from './validate-custom-resource.js';
export { celSchemaErrors } from './cel-schema-check.js';
export { preexistingExpressions } from './cel-rules.js';
export type { RuleCompilation } from './cel-rules.js';
export { checkCustomResource } from './check-custom-resource.js';
export type { CustomResourceCheck } from './check-custom-resource.js';
