/**
 * How guardrail kinds are cached: only Paddock's objects (selected by its managed-by label), indexed as
 * the reconciler reads them: by namespace.
 */
import type { InformerRequest } from '../../cache/factory';
import { INDEX, type CachedNamespaces } from '../../cache/paddock-cache';
import { namespaceIndexFunc } from '../../cache/store';
import { guardrailSummary } from '../../cache/summaries';
import { PADDOCK, type KubeObject } from '../../kube/types';

const MANAGED = `${PADDOCK.managedByLabel}=${PADDOCK.managedByValue}`;

/**
 * A kind kept in tenant namespaces, one or more per namespace: stored as summaries (cache/summaries.ts)
 * whose namespace name is the cached Namespace's, indexed by namespace (INDEX.namespace), listed once
 * the Namespaces have synced.
 */
export function inTenantNamespaces(namespaces: CachedNamespaces): InformerRequest<KubeObject> {
  return {
    labelSelector: MANAGED,
    indexers: { [INDEX.namespace]: namespaceIndexFunc },
    transform: (o) => guardrailSummary(o, undefined, namespaces.name),
    listsAfter: namespaces.informer,
  };
}
