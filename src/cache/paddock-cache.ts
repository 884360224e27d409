import { RESOURCES } from '../kube/resources';
import { PADDOCK, type ClassField, type KubeObject, type LimitRange, type Namespace, type NetworkPolicy, type ResourceQuota, type RoleBinding, type Tenant } from '../kube/types';
import { DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME } from '../tenancy/admission-policies';
import { ownerKeysOfTenant } from '../tenancy/owner-keys';
import type { SharedInformerFactory } from './factory';
import type { SharedInformer } from './informer';
import { NAMESPACE_INDEX, namespaceIndexFunc } from './store';
import { guardrailSummary, namespaceSummary, tenantSummary } from './summaries';
import { namespaceMeta } from './records';

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
 *   (the reconciler reads a namespace's guardrails; nothing reads them by tenant, so there is no such
 *   index: it would cost a set of keys per tenant in each of the four stores).
 */
export class PaddockCache {
  readonly tenants: SharedInformer<Tenant>;
  readonly namespaces: SharedInformer<Namespace>;
  readonly resourceQuotas: SharedInformer<ResourceQuota>;
  readonly limitRanges: SharedInformer<LimitRange>;
  readonly networkPolicies: SharedInformer<NetworkPolicy>;
  readonly roleBindings: SharedInformer<RoleBinding>;
  /** What tenants may use (SPEC §9), cluster-wide: the sources of the views and of `status.allowed`. */
  readonly storageClasses: SharedInformer<KubeObject>;
  readonly ingressClasses: SharedInformer<KubeObject>;
  readonly priorityClasses: SharedInformer<KubeObject>;
  readonly runtimeClasses: SharedInformer<KubeObject>;
  readonly nodes: SharedInformer<KubeObject>;
  /**
   * The admission policies Paddock keeps (SPEC §9), each watched by name (Paddock may read no other),
   * and the bindings it made for tenants, indexed by tenant.
   */
  readonly restrictionsPolicy: SharedInformer<KubeObject>;
  readonly defaultsPolicy: SharedInformer<KubeObject>;
  readonly restrictionsBindings: SharedInformer<KubeObject>;
  readonly defaultsBindings: SharedInformer<KubeObject>;

  constructor(readonly factory: SharedInformerFactory) {
    // Namespaces and guardrails, one or more per tenant namespace, are cached as summaries (see summaries.ts).
    this.namespaces = factory.informerFor<Namespace>(RESOURCES.namespaces, { indexers: { [INDEX.tenant]: tenantLabelOf }, transform: namespaceSummary });
    // Tenants are cached whole, sharing their namespaces' names and uids with the Namespaces cache
    // (summaries.ts): listed once the Namespaces are.
    this.tenants = factory.informerFor<Tenant>(RESOURCES.tenants, {
      transform: (t) => tenantSummary(t, undefined, (name) => this.namespaces.store.get(name)),
      listsAfter: this.namespaces,
      indexers: {
        [INDEX.owner]: (t) => ownerKeysOfTenant(t),
        // The cached Namespace's instance of the name, when there is one: not a copy per Tenant.
        [INDEX.declared]: (t) => (t.spec?.namespaces ?? []).map((n) => this.#namespaceName(`${t.metadata.name}-${n}`)),
      },
    });
    // A guardrail's namespace name is the cached Namespace's string (one copy per namespace, not one per
    // object, and the key its store groups it under): listed once the Namespaces are.
    const names = (namespace: string): string => this.#namespaceName(namespace);
    const guardrail = {
      labelSelector: MANAGED,
      indexers: { [INDEX.namespace]: namespaceIndexFunc },
      transform: <T extends KubeObject>(o: T) => guardrailSummary(o, undefined, names),
      listsAfter: this.namespaces,
    };
    this.resourceQuotas = factory.informerFor<ResourceQuota>(RESOURCES.resourceQuotas, guardrail);
    this.limitRanges = factory.informerFor<LimitRange>(RESOURCES.limitRanges, guardrail);
    this.networkPolicies = factory.informerFor<NetworkPolicy>(RESOURCES.networkPolicies, guardrail);
    this.roleBindings = factory.informerFor<RoleBinding>(RESOURCES.roleBindings, guardrail);
    this.storageClasses = factory.informerFor<KubeObject>(RESOURCES.storageClasses);
    this.ingressClasses = factory.informerFor<KubeObject>(RESOURCES.ingressClasses);
    this.priorityClasses = factory.informerFor<KubeObject>(RESOURCES.priorityClasses);
    this.runtimeClasses = factory.informerFor<KubeObject>(RESOURCES.runtimeClasses);
    this.nodes = factory.informerFor<KubeObject>(RESOURCES.nodes, { transform: nodeSummary });
    const named = (name: string) => ({ fieldSelector: `metadata.name=${name}` });
    this.restrictionsPolicy = factory.informerFor<KubeObject>(RESOURCES.validatingAdmissionPolicies, named(RESTRICTIONS_POLICY_NAME));
    this.defaultsPolicy = factory.informerFor<KubeObject>(RESOURCES.mutatingAdmissionPolicies, named(DEFAULTS_POLICY_NAME));
    const binding = { labelSelector: MANAGED, indexers: { [INDEX.tenant]: tenantLabelOf } };
    this.restrictionsBindings = factory.informerFor<KubeObject>(RESOURCES.validatingAdmissionPolicyBindings, binding);
    this.defaultsBindings = factory.informerFor<KubeObject>(RESOURCES.mutatingAdmissionPolicyBindings, binding);
  }

  /**
   * The cached Namespace's instance of `name`, or `name` itself when it is not cached. Read off the
   * record (see records.ts): its `metadata` would be built for the one field — once per guardrail listed.
   */
  #namespaceName(name: string): string {
    const ns = this.namespaces.store.get(name);
    return ns ? namespaceMeta(ns).name : name;
  }

  /** The class informer of a Tenant spec field. */
  classes(field: ClassField): SharedInformer<KubeObject> {
    switch (field) {
      case 'storageClasses': return this.storageClasses;
      case 'ingressClasses': return this.ingressClasses;
      case 'priorityClasses': return this.priorityClasses;
      case 'runtimeClasses': return this.runtimeClasses;
    }
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

/**
 * A Node as the views need it (kube's Node table columns): metadata, taints and schedulability, and of
 * its status the conditions (without heartbeat times, which change every few seconds and show nowhere),
 * addresses, capacity and nodeInfo. Images and volumes, most of a node's size, are dropped.
 */
export function nodeSummary(node: KubeObject): KubeObject {
  const n = node as KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };
  const spec = n.spec ? { unschedulable: n.spec.unschedulable, taints: n.spec.taints, podCIDR: n.spec.podCIDR } : undefined;
  const conditions = Array.isArray(n.status?.conditions)
    ? (n.status.conditions as Record<string, unknown>[]).map(({ lastHeartbeatTime: _beat, ...c }) => c)
    : undefined;
  const status = n.status ? { conditions, addresses: n.status.addresses, nodeInfo: n.status.nodeInfo, capacity: n.status.capacity, allocatable: n.status.allocatable } : undefined;
  return JSON.parse(JSON.stringify({ ...n, spec, status })) as KubeObject;
}
