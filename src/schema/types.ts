/**
 * The input of `defineCustomResource`, as types: names, scope, and per version the TypeBox spec and
 * status with printer columns, subresources and selectable fields; and the CRD type `crd()` returns.
 */
import type { TSchema } from 'typebox';
import type { CustomResourceDefinitionResource, ObjectOf } from '../meta/index.js';

/** A printer column (`kubectl get` shows it): a JSONPath into the object and how to show it. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  /** 0 shows the column always, higher only with `-o wide`. */
  priority?: number;
}

/** The scale subresource: where replicas live in spec and status, and the selector for autoscalers. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One served version of the resource. */
export interface VersionDefinition<Spec extends TSchema = TSchema, St extends TSchema = TSchema> {
  spec: Spec;
  status?: St;
  served: boolean;
  storage: boolean;
  printerColumns?: readonly PrinterColumn[];
  subresources?: { status?: boolean; scale?: ScaleSubresource };
  /** JSONPaths (`.spec.color`) a field selector may name for this version. */
  selectableFields?: readonly string[];
  /** `true`, or the warning the API server returns to clients of this version. */
  deprecated?: boolean | string;
}

/** A CustomResourceDefinition as the runtime handles objects: with `metadata`. */
export type CustomResourceDefinition = ObjectOf<typeof CustomResourceDefinitionResource>;

/** The input of `defineCustomResource`. */
export interface CustomResourceInput<V extends Record<string, VersionDefinition> = Record<string, VersionDefinition>> {
  group: string;
  kind: string;
  /** Lower-case URL plural; derived from `kind` by English rules when left out (`Policy` → `policies`). */
  plural?: string;
  /** Lower-case singular; defaults to the lower-cased kind. */
  singular?: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  scope: 'Namespaced' | 'Cluster';
  versions: V;
}
