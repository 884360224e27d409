import { ownerKey, ownerKeysOfTenant, subjectKeysOfUser } from './owner-keys';
import { tenant as tenantNamed } from '../testing/tenants';

describe('owner keys', () => {
  it('keys each owner kind so a caller finds the tenants it owns', () => {
    const tenant = tenantNamed('oil', { owners: [
      { kind: 'User', name: 'alice' }, { kind: 'Group', name: 'oil-devs', role: 'operator' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer' }, { kind: 'User', name: 'alice', role: 'viewer' },
    ] });
    expect(ownerKeysOfTenant(tenant)).toEqual(['User:alice', 'Group:oil-devs', 'ServiceAccount:ci/deployer']);
  });

  it('gives a ServiceAccount caller its user, groups and ServiceAccount keys', () => {
    const keys = subjectKeysOfUser({ name: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:authenticated'] });
    expect(keys).toContain(ownerKey({ kind: 'ServiceAccount', namespace: 'ci', name: 'deployer' }));
    expect(keys).toContain('Group:system:serviceaccounts');
  });

  it('does not mistake a user named like a group for the group', () => {
    expect(subjectKeysOfUser({ name: 'gas-devs', groups: [] })).not.toContain('Group:gas-devs');
  });
});
