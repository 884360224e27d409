import type { Tenant, TenantSpec, TenantStatus } from '../kube/types';
import { desiredState } from './desired';
import { objectRef, ownerSummary, statusEqual, tenantStatus, type ObservedState } from './status';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-02T00:00:00Z';

function tenant(spec: Partial<TenantSpec> = {}, status?: TenantStatus): Tenant {
  const t: Tenant = {
    metadata: { name: 'oil', uid: 'u1', generation: 3 },
    spec: { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['production', 'staging'], ...spec },
  };
  if (status) t.status = status;
  return t;
}

const synced: ObservedState = { namespaces: ['oil-staging', 'oil-production'], conflicts: [], missing: [], drifted: [] };
const statusOf = (t: Tenant, observed: ObservedState = synced, now: Date | string = T1) => tenantStatus(t, desiredState(t, []), observed, now);
const ready = (s: TenantStatus) => s.conditions?.find((c) => c.type === 'Ready');

describe('tenantStatus', () => {
  it('reports a converged tenant as Active and Ready', () => {
    const s = statusOf(tenant());
    expect(s).toEqual({
      phase: 'Active',
      namespaces: ['oil-production', 'oil-staging'],
      size: 2,
      ownerSummary: 'User/alice:admin',
      observedGeneration: 3,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled', message: '2 namespaces in sync', observedGeneration: 3, lastTransitionTime: T1 }],
    });
  });

  it('reports the resolved classes in status.allowed, keeping the last ones when none are given', () => {
    const allowed = { storageClasses: ['gold-ssd', 'standard'] };
    const s = statusOf(tenant({ storageClasses: { allowed: ['standard'] } }), { ...synced, allowed });
    expect(s.allowed).toEqual(allowed);
    expect(statusOf(tenant({}, s)).allowed).toEqual(allowed);
    expect(statusEqual(s, statusOf(tenant({}, s), { ...synced, allowed: { storageClasses: ['standard'] } }))).toBe(false);
  });

  it('reports what the tenant names that does not exist as ResolvedRefs False, apart from Ready', () => {
    const missing = ['PriorityClass tenant-low (priorityClasses.allowed, priorityClasses.default)', 'no Node has the labels of nodeSelector pool=oil'];
    const s = statusOf(tenant(), { ...synced, unresolved: missing }, T0);
    expect(ready(s)).toMatchObject({ status: 'True', reason: 'Reconciled' });
    expect(s.conditions?.find((c) => c.type === 'ResolvedRefs')).toEqual({
      type: 'ResolvedRefs', status: 'False', reason: 'NotFound', observedGeneration: 3, lastTransitionTime: T0,
      message: `not found: ${missing.join('; ')}`,
    });
    // Once it exists: True, with a new transition time; the same answer again keeps it.
    const resolved = statusOf(tenant({}, s), { ...synced, unresolved: [] }, T1);
    expect(resolved.conditions?.find((c) => c.type === 'ResolvedRefs')).toMatchObject({ status: 'True', reason: 'ResolvedRefs', lastTransitionTime: T1 });
    expect(statusOf(tenant({}, resolved), { ...synced, unresolved: [] }, '2026-01-03T00:00:00Z')).toEqual(resolved);
    // Not given (a refused spec): kept as it was.
    expect(statusOf(tenant({}, resolved), synced, '2026-01-03T00:00:00Z').conditions).toEqual(resolved.conditions);
    expect(statusEqual(s, resolved)).toBe(false);
  });

  it('summarizes owners as kind/name:role in spec order', () => {
    expect(
      ownerSummary([
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'oil-devs', role: 'operator' },
        { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'viewer' },
      ]),
    ).toBe('User/alice:admin,Group/oil-devs:operator,ServiceAccount/ci/deployer:viewer');
  });

  it('names the conflicting namespace', () => {
    const s = statusOf(tenant(), { ...synced, namespaces: ['oil-production'], conflicts: ['oil-staging'] });
    expect(s.phase).toBe('Degraded');
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'NamespaceConflict', message: 'namespaces exist that Paddock did not provision for this tenant: oil-staging' });
  });

  it('names the namespaces left out by namespaceQuota', () => {
    const s = statusOf(tenant({ namespaceQuota: 1 }), { ...synced, namespaces: ['oil-production'], overQuota: ['oil-staging'] });
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'NamespaceQuotaExceeded', message: 'over namespaceQuota 1, not provisioned: oil-staging' });
    expect(s.size).toBe(1);
  });

  it('reports namespaces kept over a lowered quota, naming them', () => {
    const s = statusOf(tenant({ namespaceQuota: 1 }), { ...synced, keptOverQuota: ['oil-staging'] });
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'NamespaceQuotaExceeded' });
    expect(ready(s)!.message).toContain('kept and furnished');
    expect(ready(s)!.message).toContain('oil-staging');
  });

  it('refuses a tenant whose name would take namespaces of another tenant, counting them without naming them', () => {
    const s = statusOf(tenant(), { ...synced, namespaces: [], takenFromOthers: ['oil-production-x'] });
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'TenantNameConflict' });
    expect(ready(s)!.message).toContain('would take 1 namespace');
    expect(ready(s)!.message).not.toContain('oil-production-x');
  });

  it("refuses a tenant whose hostnames overlap another tenant's, naming its own patterns and field, never the holder", () => {
    const s = statusOf(tenant(), { ...synced, namespaces: [], hostnameConflicts: ['*.oil.example.com'] });
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'HostnameConflict' });
    expect(ready(s)!.message).toContain('spec.hostnames.allowed');
    expect(ready(s)!.message).toContain('*.oil.example.com');
    expect(s.phase).toBe('Pending');
  });

  it('records the claims it is given, and keeps the tenant\'s own otherwise', () => {
    const claims = [{ name: 'oil-production', origin: 'Declared' as const, uid: 'u-p' }];
    expect(statusOf(tenant(), { ...synced, claims }).claims).toEqual(claims);
    expect(statusOf(tenant({}, { claims })).claims).toEqual(claims);
    expect(statusOf(tenant()).claims).toBeUndefined();
  });

  it('names the field of an invalid spec', () => {
    const s = statusOf(tenant({ podSecurity: { version: 'v2' } }), { ...synced, namespaces: [] });
    expect(s.phase).toBe('Pending');
    expect(ready(s)?.reason).toBe('InvalidSpec');
    expect(ready(s)?.message).toMatch(/^invalid spec: spec\.podSecurity\.version: /);
  });

  it('names the field and the role of an additional role binding left unbound, and what is bindable', () => {
    const t = tenant({ additionalRoleBindings: [{ clusterRoleName: 'view', subjects: [{ kind: 'Group', name: 'a' }] }, { clusterRoleName: 'cluster-admin', subjects: [{ kind: 'Group', name: 'a' }] }] });
    const s = tenantStatus(t, desiredState(t, [], { listed: ['view'] }), synced, T1);
    expect(s.phase).toBe('Degraded');
    expect(ready(s)).toMatchObject({
      status: 'False',
      reason: 'ClusterRoleNotBindable',
      message: 'not bound: spec.additionalRoleBindings[1].clusterRoleName: ClusterRole cluster-admin is not one this installation lets Paddock bind (bindable: view)',
    });
    expect(ready(statusOf(t))?.reason).toBe('ClusterRoleNotBindable');
    const fixed = tenant({ additionalRoleBindings: t.spec.additionalRoleBindings!.slice(0, 1) });
    expect(ready(statusOf(fixed))?.reason).toBe('Reconciled');
  });

  it('names what is missing or drifted', () => {
    const s = statusOf(tenant(), { ...synced, missing: ['ResourceQuota oil-staging/paddock-quota-0'], drifted: ['Namespace oil-production'] });
    expect(ready(s)).toMatchObject({
      reason: 'Drifted',
      message: 'not in sync: ResourceQuota oil-staging/paddock-quota-0 (missing), Namespace oil-production (drifted)',
    });
  });

  it('reports the most severe reason and every finding in the message', () => {
    const s = statusOf(tenant({ namespaceQuota: 1 }), { ...synced, conflicts: ['oil-production'], missing: ['Namespace oil-production'], overQuota: ['oil-staging'] });
    expect(ready(s)?.reason).toBe('NamespaceConflict');
    expect(ready(s)?.message).toContain('namespaceQuota');
    expect(ready(s)?.message).toContain('(missing)');
  });

  it('is Pending until a first namespace exists', () => {
    expect(statusOf(tenant(), { ...synced, namespaces: [], missing: ['Namespace oil-production', 'Namespace oil-staging'] }).phase).toBe('Pending');
  });

  it('is Terminating once deletion started, saying what happens to the namespaces', () => {
    const t = tenant({ deletionPolicy: 'Delete' });
    t.metadata.deletionTimestamp = T1;
    const s = statusOf(t);
    expect(s.phase).toBe('Terminating');
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'Terminating', message: "deletionPolicy Delete: deleting the tenant's namespaces" });
  });

  it('bounds long lists in the message', () => {
    const many = Array.from({ length: 25 }, (_, i) => `Namespace oil-n${String(i).padStart(2, '0')}`);
    const message = ready(statusOf(tenant(), { ...synced, missing: many }))!.message!;
    expect(message).toContain('oil-n09 (missing) and 15 more');
    expect(message).not.toContain('oil-n10');
  });

  it('keeps lastTransitionTime while Ready keeps its status, even when the reason changes', () => {
    const before = statusOf(tenant(), { ...synced, conflicts: ['oil-staging'] }, T0);
    const after = statusOf(tenant({}, before), { ...synced, missing: ['Namespace oil-staging'] }, T1);
    expect(ready(after)).toMatchObject({ reason: 'Drifted', lastTransitionTime: T0 });
  });

  it('moves lastTransitionTime when Ready changes status', () => {
    const before = statusOf(tenant(), { ...synced, conflicts: ['oil-staging'] }, T0);
    expect(ready(statusOf(tenant({}, before), synced, T1))?.lastTransitionTime).toBe(T1);
  });

  it('keeps conditions of other types', () => {
    const other = { type: 'Archived', status: 'False' as const, reason: 'No' };
    const s = statusOf(tenant({}, { conditions: [other] }));
    expect(s.conditions?.map((c) => c.type)).toEqual(['Archived', 'Ready']);
  });

  it('describes objects for messages', () => {
    expect(objectRef({ kind: 'ResourceQuota', metadata: { name: 'paddock-quota-0', namespace: 'oil-p' } })).toBe('ResourceQuota oil-p/paddock-quota-0');
    expect(objectRef({ kind: 'Namespace', metadata: { name: 'oil-p' } })).toBe('Namespace oil-p');
  });
});

describe('statusEqual', () => {
  it('finds a recomputed status of a converged tenant equal, so nothing is written', () => {
    const first = statusOf(tenant(), synced, T0);
    const second = statusOf(tenant({}, first), synced, T1);
    expect(statusEqual(first, second)).toBe(true);
  });

  it('sees a change in size, phase or condition', () => {
    const base = statusOf(tenant(), synced, T0);
    expect(statusEqual(base, { ...base, size: 1 })).toBe(false);
    expect(statusEqual(base, { ...base, phase: 'Degraded' })).toBe(false);
    expect(statusEqual(base, statusOf(tenant({}, base), { ...synced, drifted: ['Namespace oil-staging'] }, T0))).toBe(false);
  });

  it('ignores the order of conditions', () => {
    const a = { type: 'A', status: 'True' as const };
    const b = { type: 'B', status: 'False' as const };
    expect(statusEqual({ conditions: [a, b] }, { conditions: [b, a] })).toBe(true);
  });

  it('treats no status like an empty one, and differs from a filled one', () => {
    expect(statusEqual(undefined, {})).toBe(true);
    expect(statusEqual(undefined, statusOf(tenant()))).toBe(false);
  });
});

describe('tenantStatus timestamps', () => {
  it('writes lastTransitionTime as metav1.Time: RFC 3339 with whole seconds, whatever precision the clock has', () => {
    expect(ready(statusOf(tenant(), synced, new Date('2026-11-22T10:00:00.456Z')))?.lastTransitionTime).toBe('2026-11-22T10:00:00Z');
    expect(ready(statusOf(tenant(), synced, '2026-11-22T10:00:00.456Z'))?.lastTransitionTime).toBe('2026-11-22T10:00:00Z');
  });
});
