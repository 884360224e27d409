/**
 * A guardrail kind: one kind of object Paddock keeps in each namespace of a tenant (what its admission
 * policies read, quotas, limits, network policies, the owners' role bindings). Each kind declares in its own module all that the rest of Paddock needs of it: its
 * resource, how it is cached, the objects a tenant wants, how drift is judged, its names and the RBAC
 * Paddock needs for it. The cache, the reconciler, the writer, drift detection and the generated RBAC
 * read the registry (registry.ts) and name no kind themselves.
 */
import type { CachedKind } from '../../cache/paddock-cache';
import { apiVersionOf, type ResourceRef } from '../../kube/resources';
import type { KubeObject, ObjectMeta, PolicyRule, Tenant } from '../../kube/types';
import type { FieldDiff } from '../json';
import { controllerRef, tenantLabels } from '../ownership';
import type { QuantityEqual } from '../quantity-equal';

/** What Paddock's own ClusterRole must allow for a kind (apiservice/rbac.yaml is generated from it). */
export interface RbacNeed {
  readonly rules: readonly PolicyRule[];
  /** Why, when it needs saying: the comment above the rules in the manifest. */
  readonly why?: string;
}

/** A kind kept in every namespace of a tenant. */
export interface GuardrailKind<T extends KubeObject = KubeObject> extends CachedKind {
  readonly resource: ResourceRef;
  /**
   * The objects of this kind that `tenant` wants in its namespace `namespace`, in a fixed order, each
   * labelled for the tenant with the Tenant as its controller ({@link guardrailMeta}); fresh objects
   * that share nothing with the Tenant. Pure.
   */
  desired(tenant: Tenant, namespace: string): T[];
  /**
   * The fields of `live`'s content (spec, subjects…) that differ from `desired`'s, with the defaults
   * kube-apiserver fills in applied to both, so that an object as stored reads as converged. Metadata —
   * Paddock's labels and controller reference — is compared for every kind by drift.ts. `live` may be
   * the object the cache keeps (see `informer`): what the content comparison reads must survive it.
   */
  diff(live: T, desired: T, eq: QuantityEqual): FieldDiff[];
  /** True when `live` cannot be updated into `desired` (an immutable field differs): it is deleted and created again. */
  requiresRecreate?(live: T, desired: T): boolean;
  /**
   * Whether the shipped tenant roles may let owners write objects of this kind. False for what owners
   * must not weaken (cluster-roles.test.ts checks every such kind); true for RoleBindings, which an
   * admin owner writes to share access.
   */
  readonly ownersMayWrite: boolean;
  /**
   * Objects of this kind give access to the namespace. When a namespace is released, every one of them
   * in it — Paddock's or not, listed live — is deleted before anything else (see controller/release.ts).
   */
  readonly grantsAccess?: boolean;
  /**
   * kube-apiserver refuses creates in a tenant-labelled namespace without an object of this kind (the
   * admission policies' parameter): when a namespace is released, its objects go only once the
   * namespace has lost its tenant label (see controller/release.ts).
   */
  readonly outlivesTenantLabel?: boolean;
  readonly rbac: RbacNeed;
}

/** Every object Paddock keeps for a tenant is of a guardrail kind; each kind's module has its own type. */
export type Guardrail = KubeObject;

/** The metadata of a guardrail of `tenant` in `namespace`: the tenant's labels, and the Tenant as its controller. */
export function guardrailMeta(tenant: Tenant, namespace: string, name: string): ObjectMeta {
  return { name, namespace, labels: tenantLabels(tenant.metadata.name), ownerReferences: [controllerRef(tenant)] };
}

/** `apiVersion` and `kind` of the objects of `resource`. */
export function typeMeta(resource: ResourceRef): { apiVersion: string; kind: string } {
  return { apiVersion: apiVersionOf(resource), kind: resource.kind };
}

const MANAGE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** All Paddock does with a guardrail kind: read and watch it, create, repair and delete its objects. */
export function manages(resource: ResourceRef, why?: string): RbacNeed {
  const rule: PolicyRule = { apiGroups: [resource.group], resources: [resource.resource], verbs: [...MANAGE] };
  return why === undefined ? { rules: [rule] } : { rules: [rule], why };
}
