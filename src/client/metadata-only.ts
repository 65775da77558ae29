/**
 * Metadata-only reads, the TypeScript form of controller-runtime's `PartialObjectMetadata` with a
 * GVK set: `metadataOnly(ConfigMapResource)` is a descriptor of the same collection whose objects are
 * `PartialObjectMetadata`, so `client.get/list/watch` on it are typed by the descriptor, as every read
 * is, and wrappers of `Client` carry it through unchanged. The client asks the server for
 * `PartialObjectMetadata(List)`, with a plain `application/json` fallback as client-go's metadata
 * client sends, and projects a fallback answer (whole objects) to the same shape.
 * Invariant: a read through a metadata-only descriptor hands out nothing but `metadata` under
 * `apiVersion: meta.k8s.io/v1`, `kind: PartialObjectMetadata`, whichever form the server chose.
 */
import type { KubeList, KubeObject, PartialObjectMetadata, ResourceDescriptor } from '../meta/index.js';

/** A descriptor whose reads return `PartialObjectMetadata`; `group`/`version`/`kind` are the real kind's. */
export interface MetadataOnlyResource extends ResourceDescriptor<PartialObjectMetadata> {
  readonly metadataOnly: true;
}

/** The metadata-only view of a collection. Writes through it other than patch and delete are refused. */
export function metadataOnly(r: ResourceDescriptor<KubeObject>): MetadataOnlyResource {
  if (isMetadataOnly(r)) return r;
  return Object.freeze({
    group: r.group,
    version: r.version,
    kind: r.kind,
    plural: r.plural,
    namespaced: r.namespaced,
    apiVersion: r.apiVersion,
    metadataOnly: true,
  });
}

/** True when `r` is a descriptor made by `metadataOnly`, whose reads return `PartialObjectMetadata`. */
export function isMetadataOnly(r: ResourceDescriptor<KubeObject>): r is MetadataOnlyResource {
  return (r as Partial<MetadataOnlyResource>).metadataOnly === true;
}

export const PARTIAL_OBJECT_METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
export const PARTIAL_OBJECT_METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/** The object as `PartialObjectMetadata`; one already in that form is returned as is. */
export function toPartialObjectMetadata(obj: KubeObject): PartialObjectMetadata {
  if (obj.kind === 'PartialObjectMetadata') return obj as PartialObjectMetadata;
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: obj.metadata };
}

/** The list as `PartialObjectMetadataList`, its items projected. */
export function toPartialObjectMetadataList(list: KubeList<KubeObject>): KubeList<PartialObjectMetadata> {
  if (list.kind === 'PartialObjectMetadataList') return list as KubeList<PartialObjectMetadata>;
  return {
    apiVersion: 'meta.k8s.io/v1',
    kind: 'PartialObjectMetadataList',
    metadata: list.metadata,
    items: list.items.map(toPartialObjectMetadata),
  };
}
