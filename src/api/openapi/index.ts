/** OpenAPI v2 and v3 documents of the tenancy.paddock.dev API, for kube-aggregator and kubectl explain. */
export * from './serve';
