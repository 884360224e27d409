/**
 * What the reconciler writes once drift is found, and what it deletes: objects are rewritten from the
 * desired state while keeping what others put on them, and objects Paddock made that the Tenant no
 * longer asks for are found by their labels.
 */
import { PADDOCK, type KubeObject, type OwnerReference } from '../kube/types';
import { labelledTenant } from './ownership';

/**
 * The object to write over `live` (same kind and name) so that it matches `desired`: the content
 * (spec, subjects, rules…) is the desired one; metadata is the live one — resourceVersion for
 * optimistic concurrency, annotations and labels of others — with Paddock's labels set and its
 * controller reference in place of any other controller reference. Namespaces use mergeNamespace.
 */
export function mergeObject<T extends KubeObject>(live: T, desired: T): T {
  const ours = desired.metadata.ownerReferences ?? [];
  const refs: OwnerReference[] = [
    ...(live.metadata.ownerReferences ?? []).filter((r) => (ours.length === 0 || !r.controller) && !ours.some((o) => o.uid === r.uid)),
    ...ours,
  ];
  const metadata = { ...live.metadata, labels: { ...live.metadata.labels, ...desired.metadata.labels } };
  if (refs.length > 0) metadata.ownerReferences = refs;
  return { ...desired, metadata };
}

/**
 * The objects of `kind` among `live` that Paddock made for `tenant` (both labels) and that are not in
 * `desired` — a quota removed from the spec, a role nobody holds any more, isolation turned off.
 * Live objects are matched by namespace and name only, since objects listed from kube-apiserver carry
 * no kind; `desired` may hold any kinds.
 */
export function staleObjects<T extends KubeObject>(kind: string, live: readonly T[], desired: readonly KubeObject[], tenant: string): T[] {
  const wanted = new Set(desired.filter((d) => d.kind === kind).map(namespacedName));
  return live.filter(
    (obj) => labelledTenant(obj) === tenant && obj.metadata.labels?.[PADDOCK.managedByLabel] === PADDOCK.managedByValue && !wanted.has(namespacedName(obj)),
  );
}

function namespacedName(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}
