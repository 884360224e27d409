/** Discovery: /apis (legacy and aggregated v2), /apis/<group>, /apis/<group>/<version>. */
export * from './serve';
export * from './documents';
