/**
 * Builds the `apiextensions.k8s.io/v1` CustomResourceDefinition of a definition: names, scope, per
 * version the structural schema (root `apiVersion`/`kind`/`metadata` as every CRD has them, `spec`
 * required because the object type says it is there), printer columns, subresources and selectable
 * fields, and the conversion. Invariant: the same definition always gives the same object, key for
 * key, so generated files are stable.
 */
import type { CustomResourceDefinitionVersion, JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import type { CustomResourceDefinition, CustomResourceInput, VersionDefinition } from './types.js';
import { SchemaNotStructuralError } from './errors.js';
import { toStructural } from './structural.js';
import { buildConversion } from './conversion.js';

type Definition = Readonly<CustomResourceInput> & { readonly plural: string; readonly singular: string };

export function buildCrd(def: Definition): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${def.plural}.${def.group}`,
      ...(def.crdAnnotations !== undefined && Object.keys(def.crdAnnotations).length > 0 ? { annotations: { ...def.crdAnnotations } } : {}),
    },
    spec: {
      group: def.group,
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        ...(def.shortNames !== undefined && def.shortNames.length > 0 ? { shortNames: [...def.shortNames] } : {}),
        ...(def.categories !== undefined && def.categories.length > 0 ? { categories: [...def.categories] } : {}),
      },
      scope: def.scope,
      versions: Object.entries(def.versions).map(([name, v]) => buildVersion(name, v, def.description)),
      ...(def.conversion !== undefined ? { conversion: buildConversion(def.conversion) } : {}),
    },
  };
}

function buildVersion(name: string, v: VersionDefinition, description: string | undefined): CustomResourceDefinitionVersion {
  const out: CustomResourceDefinitionVersion = { name, served: v.served, storage: v.storage };
  if (v.deprecated !== undefined && v.deprecated !== false) {
    out.deprecated = true;
    if (typeof v.deprecated === 'string') out.deprecationWarning = v.deprecated;
  }
  out.schema = { openAPIV3Schema: rootSchema(name, v, description) };
  const subresources = buildSubresources(v);
  if (subresources !== undefined) out.subresources = subresources;
  if (v.printerColumns !== undefined && v.printerColumns.length > 0) {
    out.additionalPrinterColumns = v.printerColumns.map((c) => ({ ...c }));
  }
  if (v.selectableFields !== undefined && v.selectableFields.length > 0) {
    out.selectableFields = v.selectableFields.map((jsonPath) => ({ jsonPath }));
  }
  return out;
}

function rootSchema(version: string, v: VersionDefinition, description: string | undefined): JSONSchemaProps {
  const spec = toStructural(v.spec, `versions.${version}.spec`);
  if (spec.type !== 'object') throw new SchemaNotStructuralError(`versions.${version}.spec`, 'must be an object schema (Type.Object)');
  const properties: Record<string, JSONSchemaProps> = {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec,
  };
  if (v.status !== undefined) {
    const status = toStructural(v.status, `versions.${version}.status`);
    if (status.type !== 'object')
      throw new SchemaNotStructuralError(`versions.${version}.status`, 'must be an object schema (Type.Object)');
    properties['status'] = status;
  }
  return { ...(description !== undefined ? { description } : {}), type: 'object', properties, required: ['spec'] };
}

function buildSubresources(v: VersionDefinition): CustomResourceDefinitionVersion['subresources'] {
  const { status, scale } = v.subresources ?? {};
  if (status !== true && scale === undefined) return undefined;
  return { ...(status === true ? { status: {} } : {}), ...(scale !== undefined ? { scale: { ...scale } } : {}) };
}
