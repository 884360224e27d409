/** meta.k8s.io renderings of served objects: Table (kubectl get) and PartialObjectMetadata(List). */
export * from './table';
export * from './partial';
export { AGE_COLUMN, column, NAME_COLUMN, type TableColumnDefinition } from './columns';

/** What the built-in printers show for a value that is not there. */
export const NONE = '<none>';
export { crdTable, type CrdPrinterColumn } from './crd-columns';
export { humanDuration, humanDurationSpan, translateTimestampSince } from './duration';
