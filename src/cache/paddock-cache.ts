import { RESOURCES } from '../kube/resources';
import { PADDOCK, type KubeObject, type LimitRange, type Namespace, type NetworkPolicy, type ResourceQuota, type RoleBinding, type Tenant } from '../kube/types';
import { ownerKeysOfTenant } from '../tenancy/owner-keys';
import type { SharedInformerFactory } from './factory';
import type { SharedInformer } from './informer';
import { NAMESPACE_INDEX, namespaceIndexFunc } from './store';

/** Index names of the Paddock cache. */
export const INDEX = {
  /** Namespace → the value of its `paddock.dev/tenant` label. */
  tenant: 'tenant',
  /** Tenant → `<tenant>-<name>` for each declared namespace (to find who declared a namespace name). */
  declared: 'declared',
  /** Tenant → owner subject keys (see {@link ownerKeysOfTenant}). */
  owner: 'owner',
  namespace: NAMESPACE_INDEX,
} as const;

const MANAGED = `${PADDOCK.managedByLabel}=${PADDOCK.managedByValue}`;

const tenantLabelOf = (o: KubeObject): readonly string[] => {
  const t = o.metadata.labels?.[PADDOCK.tenantLabel];
  return t ? [t] : [];
};

/**
 * The informers both halves of Paddock read, made once from one factory so the reconciler and the API
 * server share every list and watch:
 * - all Tenants, indexed by owner subject and by declared namespace name;
 * - all Namespaces (a namespace that is not Paddock's must be seen to be refused), indexed by tenant;
 * - the guardrails Paddock manages (label `app.kubernetes.io/managed-by=paddock`), indexed by namespace
 *   and by tenant.
 */
export class PaddockCache {
  readonly tenants: SharedInformer<Tenant>;
  readonly namespaces: SharedInformer<Namespace>;
  readonly resourceQuotas: SharedInformer<ResourceQuota>;
  readonly limitRanges: SharedInformer<LimitRange>;
  readonly networkPolicies: SharedInformer<NetworkPolicy>;
  readonly roleBindings: SharedInformer<RoleBinding>;

  constructor(readonly factory: SharedInformerFactory) {
    this.tenants = factory.informerFor<Tenant>(RESOURCES.tenants, {
      indexers: {
        [INDEX.owner]: (t) => ownerKeysOfTenant(t),
        [INDEX.declared]: (t) => (t.spec?.namespaces ?? []).map((n) => `${t.metadata.name}-${n}`),
      },
    });
    this.namespaces = factory.informerFor<Namespace>(RESOURCES.namespaces, { indexers: { [INDEX.tenant]: tenantLabelOf } });
    const guardrail = { labelSelector: MANAGED, indexers: { [INDEX.namespace]: namespaceIndexFunc, [INDEX.tenant]: tenantLabelOf } };
    this.resourceQuotas = factory.informerFor<ResourceQuota>(RESOURCES.resourceQuotas, guardrail);
    this.limitRanges = factory.informerFor<LimitRange>(RESOURCES.limitRanges, guardrail);
    this.networkPolicies = factory.informerFor<NetworkPolicy>(RESOURCES.networkPolicies, guardrail);
    this.roleBindings = factory.informerFor<RoleBinding>(RESOURCES.roleBindings, guardrail);
  }

  /** The guardrail informers, in the order the reconciler applies them. */
  get guardrails(): readonly SharedInformer<KubeObject>[] {
    return [this.resourceQuotas, this.limitRanges, this.networkPolicies, this.roleBindings] as unknown as SharedInformer<KubeObject>[];
  }

  namespacesOf(tenant: string): Namespace[] {
    return this.namespaces.store.byIndex(INDEX.tenant, tenant);
  }

  quotasIn(namespace: string): ResourceQuota[] {
    return this.resourceQuotas.store.byIndex(INDEX.namespace, namespace);
  }
}
