// The built-in kinds' schemas, made from @kubernetes/client-node's models, loaded on first use.
export { builtinSchemas, BuiltinSchemas, refOf } from './catalogue.js';
export type { SchemaObject } from './catalogue.js';
export { inspectBody, dropFields } from './body-fields.js';
export type { BodyFields, UnknownField } from './body-fields.js';
