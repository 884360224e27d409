/**
 * Wire shapes of the Kubernetes objects Paddock reads and writes, as plain JSON (timestamps are RFC 3339
 * strings, quantities are strings). Only the fields Paddock uses are spelled out; everything else is kept
 * as it came. Objects held by the cache are frozen: never mutate one, build a new object instead.
 */

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Labels;
  annotations?: Labels;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** metav1.Condition */
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** metav1.Status */
export interface Status {
  apiVersion: 'v1';
  kind: 'Status';
  metadata: ListMeta;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: { reason?: string; message?: string; field?: string }[]; retryAfterSeconds?: number };
  code: number;
}

// ---- paddock.dev/v1alpha1 Tenant (SPEC §2) ----

export type OwnerKind = 'User' | 'Group' | 'ServiceAccount';
export type OwnerRole = 'admin' | 'operator' | 'viewer';

/** Who a Tenant grants something: a user, a group, or a ServiceAccount of a namespace. */
export interface TenantSubject {
  kind: OwnerKind;
  name: string;
  /** Only for kind ServiceAccount. */
  namespace?: string;
}

export interface TenantOwner extends TenantSubject {
  /** Defaults to admin. */
  role?: OwnerRole;
}

/** One more RoleBinding in every tenant namespace (SPEC §10): a cluster role the installation lets Paddock bind, and who gets it. */
export interface AdditionalRoleBinding {
  clusterRoleName: string;
  subjects: TenantSubject[];
}

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

export interface TenantSpec {
  owners: TenantOwner[];
  namespaces?: string[];
  namespaceQuota?: number;
  namespaceMetadata?: { labels?: Labels; annotations?: Labels };
  resourceQuotas?: ResourceQuotaSpec[];
  limitRanges?: LimitRangeSpec[];
  networkIsolation?: boolean;
  networkPolicies?: Record<string, unknown>[];
  additionalRoleBindings?: AdditionalRoleBinding[];
  nodeSelector?: Labels;
  podSecurity?: { enforce?: PodSecurityLevel; version?: string };
  deletionPolicy?: 'Retain' | 'Delete';
  /** Nothing may be created or changed in the tenant's namespaces (SPEC §10). */
  cordoned?: boolean;
  /** kube-apiserver refuses to delete the Tenant (SPEC §10). */
  preventDeletion?: boolean;
  storageClasses?: ClassPolicy;
  ingressClasses?: ClassPolicy;
  priorityClasses?: ClassPolicy;
  runtimeClasses?: ClassPolicy;
  volumeAttributesClasses?: ClassPolicy;
  deviceClasses?: ClassPolicy;
  gatewayClasses?: ClassPolicy;
  hostnames?: HostnamePolicy;
  containerRegistries?: { allowed?: string[] };
  imagePullPolicies?: ('Always' | 'IfNotPresent' | 'Never')[];
  services?: ServicePolicy;
  /** What the tenant's own NetworkPolicies may admit ingress from besides the tenant (SPEC §10). */
  networkPolicyIngressFrom?: { namespaces?: { allowed?: string[] }; ipBlocks?: { allowed?: string[] } };
  /** One budget for all of the tenant's namespaces, split into a share per namespace (SPEC §11). */
  quota?: { hard?: Record<string, string | number> };
}

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';

/** Which Services a tenant may make (SPEC §10); absent externalIPs allow none. */
export interface ServicePolicy {
  types?: { allowed?: ServiceType[] };
  /** CIDRs. */
  externalIPs?: { allowed?: string[] };
  loadBalancerClasses?: { allowed?: string[] };
}

/**
 * Which hostnames a tenant's Ingresses, Gateways and routes may name (SPEC §10): exact names and `*.`
 * wildcards, each allocated to one tenant only (src/tenancy/hostnames/).
 */
export interface HostnamePolicy {
  allowed?: string[];
}

/** Which classes of one kind a tenant may use (SPEC §9): listed by name, or matching the selector. */
export interface ClassPolicy {
  allowed?: string[];
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  default?: string;
}

/** The class kinds a Tenant restricts, by their spec/status field. */
export type ClassField = 'storageClasses' | 'ingressClasses' | 'priorityClasses' | 'runtimeClasses' | 'volumeAttributesClasses' | 'deviceClasses' | 'gatewayClasses';

export type TenantPhase = 'Pending' | 'Active' | 'Degraded' | 'Terminating';

/**
 * Paddock's record that a namespace name was taken for a tenant (see src/tenancy/claims.ts): the proof
 * that a namespace is the tenant's. Written only by Paddock, with optimistic concurrency.
 */
export interface NamespaceClaim {
  name: string;
  origin: 'Declared' | 'SelfService';
  /** The namespace's UID, once known. */
  uid?: string;
  /** sha256 (base64url) of the token on the namespace Paddock created for this claim. */
  proof?: string;
  /** RFC 3339, when the claim (or its latest proof) was written. */
  claimedAt?: string;
}

export interface TenantStatus {
  phase?: TenantPhase;
  namespaces?: string[];
  /** The classes the tenant may use, resolved from spec and the cluster's classes. */
  allowed?: Partial<Record<ClassField, string[]>>;
  /** The namespaces Paddock provisioned for the tenant, by UID; absent before the first pass. */
  claims?: NamespaceClaim[];
  size?: number;
  ownerSummary?: string;
  observedGeneration?: number;
  conditions?: Condition[];
  /** The tenant-wide quota (SPEC §11): written by Paddock's quota controller alone. */
  quota?: TenantQuotaStatus;
}

/** `status.quota`: the budget, its use summed over the namespaces, and the ledger of allocations. */
export interface TenantQuotaStatus {
  hard?: Record<string, string>;
  used?: Record<string, string>;
  /** Per namespace, the most its share may be (tenancy/quota/ledger.ts). */
  allocations?: Record<string, Record<string, string>>;
  /** Counts the ledger's writes: every write changes the Tenant, so it moves its resourceVersion. */
  ledgerWrites?: number;
}

export interface Tenant extends KubeObject {
  spec: TenantSpec;
  status?: TenantStatus;
}

// ---- core/v1 and friends, as far as Paddock uses them ----

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: 'Active' | 'Terminating'; conditions?: unknown[] };
}

export interface ResourceQuotaSpec {
  hard?: Record<string, string | number>;
  scopes?: string[];
  scopeSelector?: Record<string, unknown>;
}

export interface ResourceQuota extends KubeObject {
  spec?: ResourceQuotaSpec;
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

export interface LimitRangeSpec {
  limits: Record<string, unknown>[];
}

export interface LimitRange extends KubeObject {
  spec: LimitRangeSpec;
}

export interface NetworkPolicy extends KubeObject {
  spec: Record<string, unknown>;
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: { apiGroup: string; kind: 'ClusterRole' | 'Role'; name: string };
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ClusterRole extends KubeObject {
  rules?: PolicyRule[];
  aggregationRule?: unknown;
}

// ---- tenancy.paddock.dev/v1alpha1 TenantNamespace (SPEC §4) ----

export interface TenantNamespaceOwner {
  kind: OwnerKind;
  name: string;
  namespace?: string;
  role: OwnerRole;
}

/**
 * The share of a tenant-wide quota one namespace holds (its ResourceQuota `paddock-tenant-quota`): `share`
 * is what quota admission enforces (`status.hard`), `used` what it counted, `pending` the amounts Paddock
 * has written that kube-controller-manager has not put in force yet.
 */
export interface TenantNamespaceShare {
  share: Record<string, string>;
  used: Record<string, string>;
  pending?: Record<string, string>;
}

export interface TenantNamespace extends KubeObject {
  spec: { tenant: string };
  status?: {
    phase?: 'Active' | 'Terminating';
    owners?: TenantNamespaceOwner[];
    quota?: { hard?: Record<string, string>; used?: Record<string, string> };
    /** The namespace's share of its Tenant's `spec.quota` (SPEC §11); only while the Tenant has one. */
    tenantQuota?: TenantNamespaceShare;
    /** The labels every pod of the namespace must run on (the Tenant's nodeSelector). */
    nodeSelector?: Record<string, string>;
    conditions?: Condition[];
  };
}

/** Names fixed by the product contract (SPEC §1). */
export const PADDOCK = {
  tenantGroup: 'paddock.dev',
  tenantVersion: 'v1alpha1',
  tenantLabel: 'paddock.dev/tenant',
  managedByLabel: 'app.kubernetes.io/managed-by',
  managedByValue: 'paddock',
  finalizer: 'paddock.dev/cleanup',
  apiGroup: 'tenancy.paddock.dev',
  apiVersion: 'v1alpha1',
  leaseName: 'paddock-controller',
  systemNamespace: 'paddock-system',
  serviceName: 'paddock-apiserver',
} as const;
