/**
 * `defineCustomResource`: one definition of a custom resource (names, scope, and per version a
 * TypeBox spec and status, printer columns, subresources, selectable fields) from which come the
 * TypeScript object type, the resource descriptors the runtime uses, and the CRD. The value returned
 * *is* the storage version's descriptor, so it goes straight into `client.get`, `for(...)` and
 * `ObjectOf<>`. Invariant: exactly one version is the storage version (checked by the type and at
 * run time), and the names, the conversion and the CRD's annotations are checked once, here, not
 * when the CRD is first generated.
 */
import type { Static, TSchema } from 'typebox';
import { defineResource, type Resource, type ResourceDescriptor } from '../meta/index.js';
import { buildCrd } from './crd.js';
import type { CustomResourceDefinition, CustomResourceInput, VersionDefinition } from './types.js';
import { SchemaNotStructuralError } from './errors.js';
import { checkConversion } from './conversion.js';

/** The object type of one version: `spec` and `status` are the `Static` types of its schemas. */
export type VersionObject<V> = V extends { spec: infer Spec extends TSchema; status?: infer St }
  ? Resource<Static<Spec>, St extends TSchema ? Static<St> : never>
  : never;

/** The name of the version whose `storage` is `true`. */
export type StorageVersionOf<V> = { [K in keyof V]: V[K] extends { storage: true } ? K : never }[keyof V];

/** What `defineCustomResource` returns: the storage version's descriptor plus everything else. */
export interface CustomResource<V extends Record<string, VersionDefinition> = Record<string, VersionDefinition>> extends ResourceDescriptor<
  VersionObject<V[StorageVersionOf<V>]>
> {
  /** The definition as given, with `plural` and `singular` filled in. */
  readonly definition: Readonly<CustomResourceInput<V>> & { readonly plural: string; readonly singular: string };
  /** One descriptor per version, each typed with that version's object. */
  readonly versions: { readonly [K in keyof V]: ResourceDescriptor<VersionObject<V[K]>> };
  /** The structural CustomResourceDefinition; throws `SchemaNotStructuralError` naming the path when a schema has no structural form. */
  crd(): CustomResourceDefinition;
}

/** Tells a custom resource definition apart from any other exported value (used by `converge generate`). */
export function isCustomResource(value: unknown): value is CustomResource {
  return typeof value === 'object' && value !== null && (value as { [CUSTOM_RESOURCE]?: unknown })[CUSTOM_RESOURCE] === true;
}
const CUSTOM_RESOURCE = Symbol.for('converge.customResource');

/**
 * Defines a custom resource from TypeBox schemas. The object type of the storage version is
 * `ObjectOf<typeof MyKind>` (from `kube-converge/meta`); other versions' are `ObjectOf<typeof MyKind.versions.v1beta1>`.
 */
export function defineCustomResource<const V extends Record<string, VersionDefinition>>(input: CustomResourceInput<V>): CustomResource<V> {
  const plural = input.plural ?? pluralize(input.kind);
  const singular = input.singular ?? input.kind.toLowerCase();
  checkNames(input, plural, singular);
  const names = Object.keys(input.versions);
  const storage = names.filter((n) => input.versions[n]?.storage === true);
  if (storage.length !== 1) {
    throw new SchemaNotStructuralError(
      'versions',
      `exactly one version must be the storage version, got ${storage.length} (${storage.join(', ')})`,
    );
  }
  for (const n of names) {
    if (!/^v\d+((alpha|beta)\d+)?$/.test(n))
      throw new SchemaNotStructuralError(`versions.${n}`, 'a version name must look like v1, v1beta1 or v2alpha1');
  }
  if (input.conversion !== undefined) checkConversion(input.conversion);
  checkAnnotations(input.crdAnnotations ?? {});
  const namespaced = input.scope === 'Namespaced';
  const descriptor = (version: string) => defineResource({ group: input.group, version, kind: input.kind, plural, namespaced });
  const definition = Object.freeze({ ...input, plural, singular });
  const versions = Object.freeze(Object.fromEntries(names.map((n) => [n, descriptor(n)])));
  return Object.freeze({
    ...descriptor(storage[0] as string),
    definition,
    versions,
    crd: () => buildCrd(definition),
    [CUSTOM_RESOURCE]: true,
  }) as unknown as CustomResource<V>;
}

function checkNames(input: CustomResourceInput, plural: string, singular: string): void {
  const dns = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;
  if (!dns.test(input.group))
    throw new SchemaNotStructuralError('group', `must be a DNS subdomain with at least one dot, got ${JSON.stringify(input.group)}`);
  if (!/^[A-Z][A-Za-z0-9]*$/.test(input.kind))
    throw new SchemaNotStructuralError('kind', `must be UpperCamelCase, got ${JSON.stringify(input.kind)}`);
  for (const [path, name] of [
    ['plural', plural],
    ['singular', singular],
    ...(input.shortNames ?? []).map((n, i) => [`shortNames[${i}]`, n]),
  ] as const) {
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(name))
      throw new SchemaNotStructuralError(path, `must be a lower-case DNS label, got ${JSON.stringify(name)}`);
  }
  if (input.scope !== 'Namespaced' && input.scope !== 'Cluster')
    throw new SchemaNotStructuralError('scope', 'must be Namespaced or Cluster');
}

/** Annotation keys as the API server takes them: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
function checkAnnotations(annotations: Readonly<Record<string, string>>): void {
  const name = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
  const prefix = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  for (const [key, value] of Object.entries(annotations)) {
    const slash = key.lastIndexOf('/');
    const [p, n] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
    if (!name.test(n) || n.length > 63 || (p !== undefined && (!prefix.test(p) || p.length > 253))) {
      throw new SchemaNotStructuralError(
        `crdAnnotations.${key}`,
        'an annotation key is a name of at most 63 characters, optionally behind a DNS-subdomain prefix and /',
      );
    }
    if (typeof value !== 'string') throw new SchemaNotStructuralError(`crdAnnotations.${key}`, 'an annotation value must be a string');
  }
}

/** English plural of a kind, lower-cased: `Policy` → `policies`, `Ingress` → `ingresses`, `WebApp` → `webapps`. */
export function pluralize(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}
