import type { KubeObject } from '../kube/types';

/** The cache key of an object: `namespace/name`, or `name` for cluster-scoped objects (client-go's MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/** Inverse of objectKey. */
export function splitKey(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  return slash === -1 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
