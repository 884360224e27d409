/** OpenAPI v2 and v3 documents of the tenancy.paddock.dev API, for kube-aggregator and kubectl explain. */
export * from './serve';
export { openAPIV2, openAPIV3GroupVersion, openAPIV3Index, V3_GROUP_VERSION_PATH } from './documents';
