import type { RoleBinding } from '../../kube/types';
import * as drift from '../drift';
import { defaultRoleRef, defaultSubject } from './role-binding';
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
