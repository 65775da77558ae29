// The built-in kinds' schemas from Kubernetes' published OpenAPI v3 documents, loaded on first use.
export { builtinSchemas, BuiltinSchemas, refOf } from './catalogue.js';
export type { SchemaObject } from './catalogue.js';
export { dropUnknownFields } from './unknown-fields.js';
export { builtinListShapes } from './list-shapes.js';
export type { ListShapes, ShapeNode } from './list-shapes.js';
