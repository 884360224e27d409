/** The TenantNamespace read model: joined from cache objects, selectable by fields. */
export * from './read-model';
export * from './fields';
export { mergeQuotas } from './quota';
export { deriveResourceVersion } from './derived-version';
