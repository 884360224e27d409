import type { KubeObject, ListMeta } from '../../kube/types';
import type { IncludeObject, Negotiated } from '../negotiation';
import { encodeBody } from '../request/respond';
import { toObjectTable, toPartialObjectMetadata, toPartialObjectMetadataList, toTable } from '../table';
import { objectJson, objectListJson, objectTableJson, partialObjectMetadataJson, partialObjectMetadataListJson, tableJson } from '../encoding/encodings';
import type { ServedResource } from '../registration/served-resource';

export interface RenderOptions {
  negotiated: Negotiated;
  includeObject: IncludeObject;
  pretty: boolean;
  now: Date;
}

/** A body in pieces, to be written in chunks (see sendStream): JSON text, or whole encoded bodies. */
export type Body = Iterable<string | Buffer>;

/** Compact JSON: what every cached encoding serves; pretty JSON and YAML are encoded whole. */
const compact = (o: RenderOptions) => o.negotiated.mediaType === 'application/json' && !o.pretty;

/**
 * The body of a list in the negotiated form. Compact JSON (a list, a Table, a PartialObjectMetadataList)
 * is a concatenation of each row's cached encodings (see encodings.ts), produced piece by piece as the
 * response is written; only AGE cells are computed per request.
 */
export function renderList<T extends KubeObject>(resource: ServedResource<T>, items: readonly T[], metadata: ListMeta, o: RenderOptions): Body {
  const { negotiated } = o;
  const { groupVersion, listKind } = resource.names;
  const gv = negotiated.groupVersion ?? 'meta.k8s.io/v1';
  switch (negotiated.target) {
    case 'Table':
      if (compact(o)) return tableJson(resource.table, items, metadata, { groupVersion: gv, includeObject: o.includeObject, now: o.now });
      return [encodeBody(toTable(resource.table, items, metadata, { groupVersion: gv, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty)];
    case 'PartialObjectMetadataList':
      if (compact(o)) return partialObjectMetadataListJson(items, metadata, gv);
      return [encodeBody(toPartialObjectMetadataList(items, metadata, negotiated.groupVersion), negotiated.mediaType, o.pretty)];
    default:
      if (compact(o)) return objectListJson(items, { apiVersion: groupVersion, kind: listKind, metadata });
      return [encodeBody({ apiVersion: groupVersion, kind: listKind, metadata, items }, negotiated.mediaType, o.pretty)];
  }
}

/** The body of one object in the negotiated form. */
export function renderObject<T extends KubeObject>(resource: ServedResource<T>, item: T, o: RenderOptions): Buffer {
  const { negotiated } = o;
  const gv = negotiated.groupVersion ?? 'meta.k8s.io/v1';
  switch (negotiated.target) {
    case 'Table':
      if (compact(o)) return objectTableJson(resource.table, item, { groupVersion: gv, includeObject: o.includeObject, now: o.now });
      return encodeBody(toObjectTable(resource.table, item, { groupVersion: gv, includeObject: o.includeObject, now: o.now }), negotiated.mediaType, o.pretty);
    case 'PartialObjectMetadata':
      if (compact(o)) return Buffer.from(partialObjectMetadataJson(item, gv));
      return encodeBody(toPartialObjectMetadata(item, negotiated.groupVersion), negotiated.mediaType, o.pretty);
    default:
      if (compact(o)) return Buffer.from(objectJson(item));
      return encodeBody(item, negotiated.mediaType, o.pretty);
  }
}
