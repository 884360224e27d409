import type { ListMeta, TenantNamespace } from '../../kube/types';
import type { IncludeObject, Negotiated } from '../negotiation';
import { cachedJson, encodeBody } from '../request/respond';
import { TENANT_NAMESPACES } from '../resource';
import { toObjectTable, toPartialObjectMetadata, toPartialObjectMetadataList, toTable } from '../table';

export interface RenderOptions {
  negotiated: Negotiated;
  includeObject: IncludeObject;
  pretty: boolean;
  now: Date;
}

function listObject(items: readonly TenantNamespace[], metadata: ListMeta) {
  return { apiVersion: TENANT_NAMESPACES.groupVersion, kind: TENANT_NAMESPACES.listKind, metadata, items };
}

/**
 * The body of a list in the negotiated form. The common case — a compact JSON TenantNamespaceList — is
 * assembled from each row's JSON, computed once per row version and shared by every response.
 */
export function renderList(items: readonly TenantNamespace[], metadata: ListMeta, o: RenderOptions): Buffer {
  const { negotiated } = o;
  switch (negotiated.target) {
    case 'Table':
      return encodeBody(toTable(items, metadata, { groupVersion: negotiated.groupVersion!, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty);
    case 'PartialObjectMetadataList':
      return encodeBody(toPartialObjectMetadataList(items, metadata, negotiated.groupVersion), negotiated.mediaType, o.pretty);
    default:
      if (negotiated.mediaType === 'application/json' && !o.pretty) {
        const head = JSON.stringify({ apiVersion: TENANT_NAMESPACES.groupVersion, kind: TENANT_NAMESPACES.listKind, metadata });
        return Buffer.from(`${head.slice(0, -1)},"items":[${items.map(cachedJson).join(',')}]}`);
      }
      return encodeBody(listObject(items, metadata), negotiated.mediaType, o.pretty);
  }
}

/** The body of one object in the negotiated form. */
export function renderObject(item: TenantNamespace, o: RenderOptions): Buffer {
  const { negotiated } = o;
  switch (negotiated.target) {
    case 'Table':
      return encodeBody(toObjectTable(item, { groupVersion: negotiated.groupVersion!, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty);
    case 'PartialObjectMetadata':
      return encodeBody(toPartialObjectMetadata(item, negotiated.groupVersion), negotiated.mediaType, o.pretty);
    default:
      if (negotiated.mediaType === 'application/json' && !o.pretty) return Buffer.from(cachedJson(item));
      return encodeBody(item, negotiated.mediaType, o.pretty);
  }
}
