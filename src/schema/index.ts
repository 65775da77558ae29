// Schema-first custom resources: one TypeBox definition gives the object type, the resource
// descriptors and the structural CRD. Imports only `meta` and `typebox`.
export { defineCustomResource } from './define.js';
export type { CustomResource, VersionObject, StorageVersionOf } from './define.js';
export type { CustomResourceInput, CustomResourceDefinition, VersionDefinition, PrinterColumn, ScaleSubresource } from './types.js';
export type { ConversionDefinition, ConversionService, ConversionReviewVersion } from './types.js';
export { toStructural } from './structural.js';
export type { StructuralSchema } from './structural.js';
export { withValidations, listAtomic, listSet, listMap, mapType, embeddedResource, preserveUnknownFields } from './markers.js';
export type { ValidationRule } from './markers.js';
export { Conditions, ObjectReference, Quantity, Duration, IntOrString, LabelSelector } from './shapes.js';
export { SchemaNotStructuralError } from './errors.js';
