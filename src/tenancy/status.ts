/**
 * The Tenant's status, computed from what the reconciler wanted and what it found. Pure, so the
 * reconciler writes status only when {@link statusEqual} says it changed — a converged Tenant gets no
 * status writes either.
 */
import type { Condition, KubeObject, NamespaceClaim, Tenant, TenantOwner, TenantPhase, TenantStatus } from '../kube/types';
import type { DesiredState } from './desired';
import { metaTime } from '../kube/time';
import { jsonEqual } from './json';

export const READY = 'Ready';

/**
 * Whether every class and node the Tenant names exists (references.ts). Apart from Ready: a tenant
 * naming what is not there yet is still provisioned; this says why its pods would be refused or Pending.
 */
export const RESOLVED_REFS = 'ResolvedRefs';
export const ResolvedRefsReason = { ResolvedRefs: 'ResolvedRefs', NotFound: 'NotFound' } as const;

/** Reasons of the Ready condition, most severe first: when several apply, the first one is reported. */
export const ReadyReason = {
  Terminating: 'Terminating',
  InvalidSpec: 'InvalidSpec',
  TenantNameConflict: 'TenantNameConflict',
  HostnameConflict: 'HostnameConflict',
  ClusterRoleNotBindable: 'ClusterRoleNotBindable',
  NamespaceConflict: 'NamespaceConflict',
  NamespaceQuotaExceeded: 'NamespaceQuotaExceeded',
  Drifted: 'Drifted',
  Reconciled: 'Reconciled',
} as const;
export type ReadyReason = (typeof ReadyReason)[keyof typeof ReadyReason];

/** What one reconcile pass found, after it applied what it could. */
export interface ObservedState {
  /** Namespaces that exist and are proven this tenant's (claims.ts). */
  namespaces: readonly string[];
  /**
   * Namespaces this tenant wants, or that carry its label, that Paddock cannot prove it provisioned
   * for it; never adopted or changed.
   */
  conflicts: readonly string[];
  /** Declared namespaces not provisioned because of namespaceQuota, in spec order. */
  overQuota?: readonly string[];
  /** Namespaces claimed beyond a since-lowered namespaceQuota: kept and furnished, and reported. */
  keptOverQuota?: readonly string[];
  /** Namespaces of other tenants this Tenant's name would take: the Tenant is refused (claims.ts). */
  takenFromOthers?: readonly string[];
  /** Patterns of spec.hostnames that overlap patterns another tenant holds: the Tenant is refused. */
  hostnameConflicts?: readonly string[];
  /** The claims to record; absent keeps the Tenant's own. */
  claims?: readonly NamespaceClaim[];
  /** The class names the tenant may use (status.allowed); absent keeps the Tenant's own. */
  allowed?: TenantStatus['allowed'];
  /** What the Tenant names that does not exist (references.ts); absent keeps the ResolvedRefs condition as it is. */
  unresolved?: readonly string[];
  /** Desired objects still absent after this pass (see {@link objectRef}). */
  missing: readonly string[];
  /** Desired objects still differing from the desired state after this pass. */
  drifted: readonly string[];
}

/** How an object is named in messages: `ResourceQuota oil-dev/paddock-quota-0`, `Namespace oil-dev`. */
export function objectRef(obj: KubeObject): string {
  const name = obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name;
  return obj.kind ? `${obj.kind} ${name}` : name;
}

/** `User/alice:admin,Group/oil-devs:operator,ServiceAccount/ci/deployer:operator`, in spec order. */
export function ownerSummary(owners: readonly TenantOwner[]): string {
  return owners
    .map((o) => `${o.kind}/${o.kind === 'ServiceAccount' && o.namespace ? `${o.namespace}/` : ''}${o.name}:${o.role ?? 'admin'}`)
    .join(',');
}

/** Lists in messages stop after this many names, so a message stays readable and bounded. */
const MAX_LISTED = 10;

/**
 * The status `tenant` should have. `now` is used only when a condition (Ready, or ResolvedRefs when
 * `observed.unresolved` is given) changes status, written as metav1.Time (whole seconds); otherwise its
 * lastTransitionTime is kept. Conditions of other types are kept as they are.
 */
export function tenantStatus(tenant: Tenant, desired: DesiredState, observed: ObservedState, now: Date | string): TenantStatus {
  const namespaces = [...new Set(observed.namespaces)].sort();
  const { reason, message } = readiness(tenant, desired, observed, namespaces.length);
  const ready = reason === ReadyReason.Reconciled;
  const phase: TenantPhase = tenant.metadata.deletionTimestamp ? 'Terminating' : ready ? 'Active' : namespaces.length === 0 ? 'Pending' : 'Degraded';
  const condition: Condition = { type: READY, status: ready ? 'True' : 'False', reason, message };
  let conditions = withCondition(tenant.status?.conditions ?? [], condition, tenant.metadata.generation, now);
  if (observed.unresolved) conditions = withCondition(conditions, resolvedRefs(observed.unresolved), tenant.metadata.generation, now);
  const generation = tenant.metadata.generation;
  const out: TenantStatus = {
    phase,
    namespaces,
    size: namespaces.length,
    ownerSummary: ownerSummary(Array.isArray(tenant.spec?.owners) ? tenant.spec.owners : []),
    conditions,
  };
  const allowed = observed.allowed ?? tenant.status?.allowed;
  if (allowed !== undefined) out.allowed = structuredClone(allowed);
  const claims = observed.claims ?? tenant.status?.claims;
  if (claims !== undefined) out.claims = claims.map((c) => ({ ...c }));
  // The quota controller's (controller/tenant-quota/): kept as read, so a write from this copy is a
  // write over the ledger it was read with (the resourceVersion precondition makes it so).
  if (tenant.status?.quota !== undefined) out.quota = structuredClone(tenant.status.quota);
  if (generation !== undefined) out.observedGeneration = generation;
  return out;
}

/**
 * `conditions` with `condition` in place of the one of its type (appended when there is none); its
 * lastTransitionTime is kept while its status stays the same, else `now`.
 */
function withCondition(conditions: readonly Condition[], condition: Condition, generation: number | undefined, now: Date | string): Condition[] {
  const before = conditions.find((c) => c.type === condition.type);
  const full: Condition = {
    ...condition,
    lastTransitionTime: before?.status === condition.status && before.lastTransitionTime ? before.lastTransitionTime : metaTime(now),
  };
  if (generation !== undefined) full.observedGeneration = generation;
  return before ? conditions.map((c) => (c.type === condition.type ? full : c)) : [...conditions, full];
}

function resolvedRefs(unresolved: readonly string[]): Condition {
  if (unresolved.length === 0) return { type: RESOLVED_REFS, status: 'True', reason: ResolvedRefsReason.ResolvedRefs, message: 'every class and node selector the tenant names exists' };
  return { type: RESOLVED_REFS, status: 'False', reason: ResolvedRefsReason.NotFound, message: list('not found', unresolved, '; ') };
}

function readiness(tenant: Tenant, desired: DesiredState, observed: ObservedState, size: number): { reason: ReadyReason; message: string } {
  if (tenant.metadata.deletionTimestamp) {
    const policy = tenant.spec?.deletionPolicy ?? 'Retain';
    return { reason: ReadyReason.Terminating, message: `deletionPolicy ${policy}: ${policy === 'Delete' ? 'deleting' : 'releasing'} the tenant's namespaces` };
  }
  const findings: [ReadyReason, string][] = [];
  if (!desired.valid) {
    findings.push([ReadyReason.InvalidSpec, list('invalid spec', desired.problems.map((p) => `${p.field}: ${p.message}`), '; ')]);
  }
  if (observed.takenFromOthers?.length) {
    const name = tenant.metadata.name;
    // Counted, not named: the names are another tenant's, and this Tenant's owners read its status.
    const n = observed.takenFromOthers.length;
    findings.push([ReadyReason.TenantNameConflict, `tenant name "${name}" would take ${n} ${n === 1 ? 'namespace' : 'namespaces'} named "${name}-…" that another tenant owns (a name belongs to the longest <tenant>- prefix); rename the tenant`]);
  }
  if (observed.hostnameConflicts?.length) {
    // The patterns are this Tenant's own; whose they overlap is not told (another tenant's owners).
    findings.push([ReadyReason.HostnameConflict, list('spec.hostnames.allowed overlaps hostnames another tenant holds (a hostname belongs to the first tenant that holds it); nothing is provisioned until they are changed', observed.hostnameConflicts)]);
  }
  if (desired.valid && desired.unbindable.length > 0) {
    findings.push([ReadyReason.ClusterRoleNotBindable, list('not bound', desired.unbindable.map((p) => `${p.field}: ${p.message}`), '; ')]);
  }
  if (observed.conflicts.length > 0) {
    findings.push([ReadyReason.NamespaceConflict, list("namespaces exist that Paddock did not provision for this tenant", [...new Set(observed.conflicts)].sort())]);
  }
  if (observed.overQuota?.length) {
    findings.push([ReadyReason.NamespaceQuotaExceeded, list(`over namespaceQuota ${tenant.spec.namespaceQuota}, not provisioned`, observed.overQuota)]);
  }
  if (observed.keptOverQuota?.length) {
    findings.push([ReadyReason.NamespaceQuotaExceeded, list(`over namespaceQuota ${tenant.spec.namespaceQuota}, kept and furnished (lowering a quota never deletes)`, observed.keptOverQuota)]);
  }
  const unsynced = [...[...observed.missing].sort().map((o) => `${o} (missing)`), ...[...observed.drifted].sort().map((o) => `${o} (drifted)`)];
  if (unsynced.length > 0) findings.push([ReadyReason.Drifted, list('not in sync', unsynced)]);
  if (findings.length === 0) return { reason: ReadyReason.Reconciled, message: `${size} ${size === 1 ? 'namespace' : 'namespaces'} in sync` };
  return { reason: findings[0]![0], message: findings.map(([, m]) => m).join('; ') };
}

function list(title: string, items: readonly string[], separator = ', '): string {
  const shown = items.slice(0, MAX_LISTED).join(separator);
  const more = items.length > MAX_LISTED ? ` and ${items.length - MAX_LISTED} more` : '';
  return `${title}: ${shown}${more}`;
}

/**
 * True when writing `b` over `a` would change nothing anyone can see: same phase, namespaces, size,
 * owners, generation and conditions (compared by type, in any order; empty equals absent).
 */
export function statusEqual(a: TenantStatus | undefined, b: TenantStatus | undefined): boolean {
  const byType = (s: TenantStatus | undefined) => [...(s?.conditions ?? [])].sort((x, y) => (x.type < y.type ? -1 : x.type > y.type ? 1 : 0));
  return jsonEqual({ ...a, conditions: byType(a) }, { ...b, conditions: byType(b) });
}
