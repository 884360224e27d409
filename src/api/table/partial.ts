import type { KubeObject, ListMeta, ObjectMeta } from '../../kube/types';
import type { MetaGroupVersion } from '../negotiation';

/** meta.k8s.io PartialObjectMetadata: only the metadata of an object. */
export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: MetaGroupVersion;
  metadata: ObjectMeta;
}

/** meta.k8s.io PartialObjectMetadataList */
export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: MetaGroupVersion;
  metadata: ListMeta;
  items: PartialObjectMetadata[];
}

/**
 * The metadata of an object as kube-apiserver returns it for `as=PartialObjectMetadata` (and in Table
 * rows with includeObject=Metadata): all of metadata, nothing else. The garbage collector and the quota
 * controller of kube-controller-manager list and watch every resource this way.
 */
export function toPartialObjectMetadata(obj: KubeObject, groupVersion: MetaGroupVersion = 'meta.k8s.io/v1'): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion: groupVersion, metadata: obj.metadata };
}

/**
 * A list as `as=PartialObjectMetadataList`: every item a PartialObjectMetadata with its own kind and
 * apiVersion, the list's resourceVersion, continue and remainingItemCount kept, `items: []` when empty.
 */
export function toPartialObjectMetadataList(
  items: readonly KubeObject[],
  listMeta: ListMeta,
  groupVersion: MetaGroupVersion = 'meta.k8s.io/v1',
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: groupVersion,
    metadata: listMetadata(listMeta),
    items: items.map((item) => toPartialObjectMetadata(item, groupVersion)),
  };
}

/** ListMeta with empty fields left out, as Go's omitempty does. */
export function listMetadata(meta: ListMeta): ListMeta {
  const out: ListMeta = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (meta.remainingItemCount !== undefined && meta.remainingItemCount !== null) out.remainingItemCount = meta.remainingItemCount;
  return out;
}
