import type { KubeObject, ListMeta } from '../../kube/types';
import type { TableConvertor } from '../registration/served-resource';
import type { IncludeObject, MetaGroupVersion } from '../negotiation';
import type { TableColumnDefinition } from './columns';
import { listMetadata, toPartialObjectMetadata, type PartialObjectMetadata } from './partial';

/** metav1.TableRow. `object` is null with includeObject=None, as kube-apiserver encodes an empty RawExtension. */
export interface TableRow {
  cells: unknown[];
  object: KubeObject | PartialObjectMetadata | null;
}

/** meta.k8s.io Table (v1 and v1beta1 have the same shape). */
export interface Table {
  kind: 'Table';
  apiVersion: MetaGroupVersion;
  metadata: ListMeta;
  /** null when headers are left out (every event of a Table watch after the first). */
  columnDefinitions: readonly TableColumnDefinition[] | null;
  rows: TableRow[];
}

export interface TableOptions {
  /** meta.k8s.io/v1 or meta.k8s.io/v1beta1, as negotiated. */
  groupVersion: MetaGroupVersion;
  /** What `rows[].object` carries; see parseIncludeObject. */
  includeObject: IncludeObject;
  /** The clock for AGE. */
  now: Date;
  /** Leave out columnDefinitions, as kube-apiserver does after the first event of a Table watch. */
  noHeaders?: boolean;
}

/** The annotation of the BOOKMARK that ends the initial events of a watch list. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * A Table for `kubectl get` (list): one row per item in the given order, cells by `convertor`,
 * the list's resourceVersion, continue and remainingItemCount in metadata, `rows: []` when empty.
 */
export function toTable<T extends KubeObject>(convertor: TableConvertor<T>, items: readonly T[], listMeta: ListMeta, options: TableOptions): Table {
  return {
    kind: 'Table',
    apiVersion: options.groupVersion,
    metadata: listMetadata(listMeta),
    columnDefinitions: options.noHeaders ? null : convertor.columns,
    rows: items.map((item) => tableRow(convertor, item, options)),
  };
}

/**
 * A one-row Table of a single object (`kubectl get tns x`, and each event of a Table watch);
 * metadata.resourceVersion is the object's.
 */
export function toObjectTable<T extends KubeObject>(convertor: TableConvertor<T>, item: T, options: TableOptions): Table {
  return toTable(convertor, [item], { resourceVersion: item.metadata.resourceVersion }, options);
}

/**
 * One row: the cells, and the object as includeObject asks — None: null; Metadata (default): a
 * PartialObjectMetadata of the Table's group version; Object: the object itself. With None, the
 * bookmark that ends a watch's initial events still keeps its metadata, so that its annotation reaches
 * the client (as kube-apiserver does).
 */
export function tableRow<T extends KubeObject>(convertor: TableConvertor<T>, item: T, options: Pick<TableOptions, 'groupVersion' | 'includeObject' | 'now'>): TableRow {
  const keepsMetadata = item.metadata.annotations?.[INITIAL_EVENTS_END] === 'true';
  let object: TableRow['object'];
  if (options.includeObject === 'Object') object = item;
  else if (options.includeObject === 'Metadata' || keepsMetadata) object = toPartialObjectMetadata(item, options.groupVersion);
  else object = null;
  return { cells: convertor.cells(item, options.now), object };
}
