import type { RoleBinding, Tenant } from '../../kube/types';
import * as drift from '../drift';
import { defaultRoleRef, defaultSubject, roleBindings } from './role-binding';
import { alsoAsCached, asStored, desiredNamed, guardrailsOf, tenantWith } from '../testing/guardrails';

const diff = alsoAsCached(drift.diff);
const requiresRecreate = alsoAsCached(drift.requiresRecreate);

describe('RBAC defaulting', () => {
  it('puts users and groups in rbac.authorization.k8s.io', () => {
    expect(defaultSubject({ kind: 'User', name: 'alice' })).toEqual({ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' });
    expect(defaultSubject({ kind: 'Group', name: 'devs' }).apiGroup).toBe('rbac.authorization.k8s.io');
  });

  it('puts service accounts in the core group', () => {
    expect(defaultSubject({ kind: 'ServiceAccount', name: 'd', namespace: 'ci', apiGroup: '' })).toEqual({ kind: 'ServiceAccount', name: 'd', namespace: 'ci' });
  });

  it('defaults the roleRef group', () => {
    expect(defaultRoleRef({ apiGroup: '', kind: 'ClusterRole', name: 'x' })?.apiGroup).toBe('rbac.authorization.k8s.io');
  });
});

describe('RoleBinding guardrails', () => {
  const tenant = tenantWith({
    owners: [
      { kind: 'User', name: 'alice' },
      { kind: 'Group', name: 'oil-devs', role: 'operator' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'operator' },
    ],
  });
  const admins = desiredNamed<RoleBinding>(tenant, 'paddock:tenant-admin');
  const operators = desiredNamed<RoleBinding>(tenant, 'paddock:tenant-operator');

  it('binds all owners of one role in one RoleBinding to paddock:tenant-<role>', () => {
    expect(operators.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'paddock:tenant-operator' });
    expect(operators.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'oil-devs' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer' },
    ]);
    expect(admins.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }]);
  });

  it('creates no RoleBinding for a role nobody holds', () => {
    expect(guardrailsOf(tenant).map((g) => g.metadata.name)).not.toContain('paddock:tenant-viewer');
  });

  it('sees no drift in a RoleBinding whose subjects were defaulted and reordered', () => {
    const live = asStored(operators, (o) => {
      o.subjects = [
        { kind: 'ServiceAccount', name: 'deployer', namespace: 'ci', apiGroup: '' },
        { kind: 'Group', name: 'oil-devs' },
      ];
    });
    expect(diff(live, operators)).toEqual([]);
  });

  it('reports a subject added to a RoleBinding', () => {
    const live = asStored(admins, (o) => {
      o.subjects = [...o.subjects!, { kind: 'User', name: 'mallory', apiGroup: 'rbac.authorization.k8s.io' }];
    });
    expect(diff(live, admins).map((d) => d.path)).toEqual(['subjects']);
    expect(requiresRecreate(live, admins)).toBe(false);
  });

  it('asks to recreate a RoleBinding whose immutable roleRef was changed', () => {
    const live = asStored(admins, (o) => {
      o.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' };
    });
    expect(requiresRecreate(live, admins)).toBe(true);
  });
});

describe('additional RoleBindings (spec.additionalRoleBindings)', () => {
  const tenant = tenantWith({
    owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'oil-devs', role: 'viewer' }],
    additionalRoleBindings: [
      { clusterRoleName: 'view', subjects: [{ kind: 'Group', name: 'oil-auditors' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'scanner' }] },
      { clusterRoleName: 'system:aggregate-to-view', subjects: [{ kind: 'User', name: 'carol' }] },
    ],
  });
  // The kind binds what it is given; which roles are bindable is decided before (bindable.test.ts).
  const bindings = (t: Tenant) => roleBindings.desired(t, 'oil-p');
  const named = (t: Tenant, name: string) => bindings(t).find((b) => b.metadata.name === name)!;

  it('binds each item\'s cluster role to its subjects in one RoleBinding named after the role', () => {
    const view = named(tenant, 'paddock:additional:view');
    expect(view.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
    expect(view.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'oil-auditors' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'scanner' },
    ]);
    expect(named(tenant, 'paddock:additional:system:aggregate-to-view').roleRef.name).toBe('system:aggregate-to-view');
  });

  it('keeps them apart from the owners\' bindings, which come first', () => {
    expect(bindings(tenant).map((b) => b.metadata.name)).toEqual(['paddock:tenant-admin', 'paddock:tenant-viewer', 'paddock:additional:view', 'paddock:additional:system:aggregate-to-view']);
  });

  it('names a binding after its role, not its place: removing or reordering items leaves the others as they are', () => {
    const [view, aggregate] = tenant.spec.additionalRoleBindings!;
    const reordered = bindings(tenantWith({ ...tenant.spec, additionalRoleBindings: [aggregate!, view!] }));
    const fewer = bindings(tenantWith({ ...tenant.spec, additionalRoleBindings: [aggregate!] }));
    const wanted = named(tenant, 'paddock:additional:system:aggregate-to-view');
    for (const guardrails of [reordered, fewer]) {
      const found = guardrails.find((g) => g.metadata.name === wanted.metadata.name)!;
      expect(diff(asStored(found), wanted)).toEqual([]);
      expect(requiresRecreate(asStored(found), wanted)).toBe(false);
    }
  });

  it('sees a subject added to an additional binding, and asks to recreate one bound to another role', () => {
    const view = named(tenant, 'paddock:additional:view');
    const widened = asStored(view, (o) => {
      o.subjects = [...o.subjects!, { kind: 'Group', name: 'system:authenticated', apiGroup: 'rbac.authorization.k8s.io' }];
    });
    expect(diff(widened, view).map((d) => d.path)).toEqual(['subjects']);
    const escalated = asStored(view, (o) => {
      o.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' };
    });
    expect(requiresRecreate(escalated, view)).toBe(true);
  });

  it('wants none when the Tenant lists none', () => {
    expect(bindings(tenantWith({ owners: tenant.spec.owners })).map((g) => g.metadata.name).filter((n) => n.startsWith('paddock:additional:'))).toEqual([]);
  });
});
