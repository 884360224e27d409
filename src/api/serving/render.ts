import type { KubeObject, ListMeta } from '../../kube/types';
import type { IncludeObject, Negotiated } from '../negotiation';
import { cachedJson, encodeBody } from '../request/respond';
import { toObjectTable, toPartialObjectMetadata, toPartialObjectMetadataList, toTable } from '../table';
import type { ServedResource } from './resource';

export interface RenderOptions {
  negotiated: Negotiated;
  includeObject: IncludeObject;
  pretty: boolean;
  now: Date;
}

/**
 * The body of a list in the negotiated form. The common case — a compact JSON list — is assembled from
 * each row's JSON, computed once per row version and shared by every response.
 */
export function renderList<T extends KubeObject>(resource: ServedResource<T>, items: readonly T[], metadata: ListMeta, o: RenderOptions): Buffer {
  const { negotiated } = o;
  const { groupVersion, listKind } = resource.names;
  switch (negotiated.target) {
    case 'Table':
      return encodeBody(toTable(resource.table, items, metadata, { groupVersion: negotiated.groupVersion!, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty);
    case 'PartialObjectMetadataList':
      return encodeBody(toPartialObjectMetadataList(items, metadata, negotiated.groupVersion), negotiated.mediaType, o.pretty);
    default:
      if (negotiated.mediaType === 'application/json' && !o.pretty) {
        const head = JSON.stringify({ apiVersion: groupVersion, kind: listKind, metadata });
        return Buffer.from(`${head.slice(0, -1)},"items":[${items.map(cachedJson).join(',')}]}`);
      }
      return encodeBody({ apiVersion: groupVersion, kind: listKind, metadata, items }, negotiated.mediaType, o.pretty);
  }
}

/** The body of one object in the negotiated form. */
export function renderObject<T extends KubeObject>(resource: ServedResource<T>, item: T, o: RenderOptions): Buffer {
  const { negotiated } = o;
  switch (negotiated.target) {
    case 'Table':
      return encodeBody(toObjectTable(resource.table, item, { groupVersion: negotiated.groupVersion!, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty);
    case 'PartialObjectMetadata':
      return encodeBody(toPartialObjectMetadata(item, negotiated.groupVersion), negotiated.mediaType, o.pretty);
    default:
      if (negotiated.mediaType === 'application/json' && !o.pretty) return Buffer.from(cachedJson(item));
      return encodeBody(item, negotiated.mediaType, o.pretty);
  }
}
