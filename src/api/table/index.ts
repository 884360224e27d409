/** meta.k8s.io renderings of TenantNamespaces: Table (kubectl get) and PartialObjectMetadata(List). */
export * from './table';
export * from './partial';
export { TENANT_NAMESPACE_COLUMNS, type TableColumnDefinition } from './columns';
export { tenantNamespaceCells, NONE } from './cells';
export { humanDuration, translateTimestampSince } from './duration';
