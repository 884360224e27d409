import { RESOURCES, type ResourceRef } from '../kube/resources';
import { PADDOCK, type ClassField, type KubeObject, type Namespace, type ResourceQuota, type Tenant } from '../kube/types';
import type { InformerRequest, SharedInformerFactory } from './factory';
import type { SharedInformer } from './informer';
import { namespaceMeta } from './records';
import { NAMESPACE_INDEX, type Indexers } from './store';
import { namespaceSummary, tenantSummary, type KeptAnnotations, type NamespaceNames } from './summaries';

/** Index names of the Paddock cache. */
export const INDEX = {
  /** Namespace, or an object kept once per tenant → the value of its `paddock.dev/tenant` label. */
  tenant: 'tenant',
  /** Tenant → owner subject keys (`User:alice`, `Group:gas-devs`, `ServiceAccount:ci/deployer`). */
  owner: 'owner',
  namespace: NAMESPACE_INDEX,
} as const;

/** The value of an object's `paddock.dev/tenant` label, as an index value (INDEX.tenant). */
export const byTenantLabel = (o: KubeObject): readonly string[] => {
  const t = o.metadata.labels?.[PADDOCK.tenantLabel];
  return t ? [t] : [];
};

/** What a kind's informer may share with the cached Namespaces. */
export interface CachedNamespaces {
  /** The Namespaces' informer: one whose summaries read it lists once it has synced (`listsAfter`). */
  readonly informer: SharedInformer<Namespace>;
  /** The cached Namespace's instance of a namespace name, or the name itself when it is not cached. */
  readonly name: NamespaceNames;
}

/** A kind of object Paddock keeps for tenants (a guardrail): its resource and how it is cached. */
export interface CachedKind {
  readonly resource: ResourceRef;
  /** How its informer lists, stores (transform) and indexes it. */
  informer(namespaces: CachedNamespaces): InformerRequest<KubeObject>;
}

/** One cluster-scoped object Paddock keeps, known by name: watched with a `metadata.name` field selector. */
export interface NamedObject {
  readonly resource: ResourceRef;
  readonly name: string;
}

/**
 * What the cache is told of the objects Paddock owns (see tenancy/cache-options.ts): the cache itself
 * knows the Kubernetes resources, not what Paddock makes of them.
 */
export interface PaddockCacheOptions {
  /** Tenant indexes (INDEX.owner). */
  readonly tenantIndexers: Indexers<Tenant>;
  /** The annotations of a namespace that are kept. */
  readonly namespaceAnnotations: KeptAnnotations;
  /** The guardrail kinds, in the order they are applied. */
  readonly guardrails: readonly CachedKind[];
  /** The admission policies and bindings, each watched by name (Paddock may read no other). */
  readonly admission: readonly NamedObject[];
  /** The object that records which tenant holds which hostname pattern. */
  readonly hostnameLedger: { readonly resource: ResourceRef; readonly namespace: string; readonly name: string };
}

/**
 * The informers both halves of Paddock read, made once from one factory so the reconciler and the API
 * server share every list and watch:
 * - all Tenants, indexed by owner subject;
 * - all Namespaces (a namespace that is not Paddock's must be seen to be refused), indexed by tenant;
 * - each guardrail kind, as its declaration says (Paddock's objects only: those in tenant namespaces
 *   indexed by namespace — nothing reads them by tenant, and such an index would cost a set of keys
 *   per tenant in each store — and those kept once per tenant by tenant);
 * - what tenants may use (classes, nodes) and the admission policies.
 */
export class PaddockCache {
  readonly tenants: SharedInformer<Tenant>;
  readonly namespaces: SharedInformer<Namespace>;
  /** What tenants may use (SPEC §9), cluster-wide: the sources of the views and of `status.allowed`. */
  readonly storageClasses: SharedInformer<KubeObject>;
  readonly ingressClasses: SharedInformer<KubeObject>;
  readonly priorityClasses: SharedInformer<KubeObject>;
  readonly runtimeClasses: SharedInformer<KubeObject>;
  readonly volumeAttributesClasses: SharedInformer<KubeObject>;
  readonly deviceClasses: SharedInformer<KubeObject>;
  /** Gateway API's, whose CRDs a cluster may not have: empty (and synced) while they are not served. */
  readonly gatewayClasses: SharedInformer<KubeObject>;
  readonly nodes: SharedInformer<KubeObject>;
  /** The hostname ledger (tenancy/hostnames/ledger.ts): one object, watched by name. */
  readonly hostnameLedger: SharedInformer<KubeObject>;
  /** Guardrail informers by `kind`, in the order given. */
  readonly #guardrails = new Map<string, SharedInformer<KubeObject>>();
  /** Admission policy and binding informers by `<kind>/<name>`. */
  readonly #admission = new Map<string, SharedInformer<KubeObject>>();

  constructor(readonly factory: SharedInformerFactory, options: PaddockCacheOptions) {
    // Namespaces and guardrails, one or more per tenant namespace, are cached as summaries (see summaries.ts).
    const namespaceTransform = (ns: Namespace) => namespaceSummary(ns, undefined, options.namespaceAnnotations);
    this.namespaces = factory.informerFor<Namespace>(RESOURCES.namespaces, { indexers: { [INDEX.tenant]: byTenantLabel }, transform: namespaceTransform });
    // Tenants are cached whole, sharing their namespaces' names and uids with the Namespaces cache
    // (summaries.ts): listed once the Namespaces are. So are the summaries of guardrails, whose namespace
    // name is the cached Namespace's string (one copy per namespace, not one per object, and the key its
    // store groups it under).
    const name: NamespaceNames = (namespace) => this.#namespaceName(namespace);
    this.tenants = factory.informerFor<Tenant>(RESOURCES.tenants, {
      transform: (t) => tenantSummary(t, undefined, (n) => this.namespaces.store.get(n)),
      listsAfter: this.namespaces,
      indexers: options.tenantIndexers,
    });
    for (const kind of options.guardrails) this.#guardrails.set(kind.resource.kind, factory.informerFor(kind.resource, kind.informer({ informer: this.namespaces, name })));
    this.storageClasses = factory.informerFor<KubeObject>(RESOURCES.storageClasses);
    this.ingressClasses = factory.informerFor<KubeObject>(RESOURCES.ingressClasses);
    this.priorityClasses = factory.informerFor<KubeObject>(RESOURCES.priorityClasses);
    this.runtimeClasses = factory.informerFor<KubeObject>(RESOURCES.runtimeClasses);
    this.volumeAttributesClasses = factory.informerFor<KubeObject>(RESOURCES.volumeAttributesClasses);
    this.deviceClasses = factory.informerFor<KubeObject>(RESOURCES.deviceClasses);
    this.gatewayClasses = factory.informerFor<KubeObject>(RESOURCES.gatewayClasses, { mayBeAbsent: true });
    this.nodes = factory.informerFor<KubeObject>(RESOURCES.nodes, { transform: nodeSummary });
    const ledger = options.hostnameLedger;
    this.hostnameLedger = factory.informerFor<KubeObject>(ledger.resource, { namespace: ledger.namespace, fieldSelector: `metadata.name=${ledger.name}` });
    for (const o of options.admission) {
      this.#admission.set(`${o.resource.kind}/${o.name}`, factory.informerFor<KubeObject>(o.resource, { fieldSelector: `metadata.name=${o.name}` }));
    }
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
      case 'volumeAttributesClasses': return this.volumeAttributesClasses;
      case 'deviceClasses': return this.deviceClasses;
      case 'gatewayClasses': return this.gatewayClasses;
    }
  }

  /** The informer of the guardrail kind `kind` (`ResourceQuota`); throws for a kind that is not one. */
  guardrail(kind: string): SharedInformer<KubeObject> {
    const informer = this.#guardrails.get(kind);
    if (!informer) throw new Error(`not a guardrail kind: ${kind}`);
    return informer;
  }

  /** Every guardrail informer, in the order the kinds are applied. */
  get guardrails(): readonly SharedInformer<KubeObject>[] {
    return [...this.#guardrails.values()];
  }

  /** The informer of the admission policy or binding `name` of `kind`; throws for one that is not Paddock's. */
  admissionObject(kind: string, name: string): SharedInformer<KubeObject> {
    const informer = this.#admission.get(`${kind}/${name}`);
    if (!informer) throw new Error(`not an admission object of Paddock's: ${kind} ${name}`);
    return informer;
  }

  /** Every admission policy and binding informer. */
  get admissionInformers(): readonly SharedInformer<KubeObject>[] {
    return [...this.#admission.values()];
  }

  /** The ResourceQuotas Paddock keeps: the TenantNamespace view shows them. */
  get resourceQuotas(): SharedInformer<ResourceQuota> {
    return this.guardrail('ResourceQuota') as unknown as SharedInformer<ResourceQuota>;
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
