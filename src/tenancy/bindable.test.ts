import type { AdditionalRoleBinding } from '../kube/types';
import { bindableOnly, DEFAULT_BINDABLE_CLUSTER_ROLES, unbindable } from './bindable';
import { desiredState } from './desired';
import { tenantWith } from './testing/guardrails';

const item = (clusterRoleName: string): AdditionalRoleBinding => ({ clusterRoleName, subjects: [{ kind: 'Group', name: 'oil-auditors' }] });
const tenant = tenantWith({ additionalRoleBindings: [item('view'), item('cluster-admin'), item('edit')] });
const roles = (t = tenant) => (t.spec.additionalRoleBindings ?? []).map((i) => i.clusterRoleName);

describe('which additional role bindings Paddock binds', () => {
  it('binds only view unless the installation says otherwise', () => {
    expect(DEFAULT_BINDABLE_CLUSTER_ROLES).toEqual(['view']);
    expect(roles(bindableOnly(tenant, { listed: DEFAULT_BINDABLE_CLUSTER_ROLES }))).toEqual(['view']);
  });

  it('refuses each role the installation does not list, naming the field, the role and what is bindable', () => {
    expect(unbindable(tenant, { listed: ['view', 'edit'] })).toEqual([{
      field: 'spec.additionalRoleBindings[1].clusterRoleName',
      reason: 'FieldValueNotSupported',
      message: 'ClusterRole cluster-admin is not one this installation lets Paddock bind (bindable: view, edit)',
    }]);
    expect(roles(bindableOnly(tenant, { listed: ['view', 'edit'] }))).toEqual(['view', 'edit']);
  });

  it('says so when the installation lets Paddock bind nothing', () => {
    expect(unbindable(tenant, { listed: [] }).map((p) => p.message)).toEqual([
      'ClusterRole view is not one this installation lets Paddock bind (it lets Paddock bind none)',
      'ClusterRole cluster-admin is not one this installation lets Paddock bind (it lets Paddock bind none)',
      'ClusterRole edit is not one this installation lets Paddock bind (it lets Paddock bind none)',
    ]);
    expect(roles(bindableOnly(tenant, { listed: [] }))).toEqual([]);
  });

  it('refuses a listed role that Paddock\'s RBAC does not let it bind, saying which ClusterRole to fix', () => {
    const bindable = { listed: ['view', 'edit'], denied: new Set(['edit']) };
    expect(unbindable(tenant, bindable)[1]).toEqual({
      field: 'spec.additionalRoleBindings[2].clusterRoleName',
      reason: 'FieldValueForbidden',
      message: 'ClusterRole edit is listed in --bindable-cluster-roles, but Paddock\'s RBAC does not let it bind it (ClusterRole paddock:bindable-cluster-roles)',
    });
    expect(roles(bindableOnly(tenant, bindable))).toEqual(['view']);
  });

  it('leaves a Tenant whose items are all bindable as it is', () => {
    const fine = tenantWith({ additionalRoleBindings: [item('view')] });
    expect(bindableOnly(fine, { listed: ['view'] })).toBe(fine);
    expect(unbindable(fine, { listed: ['view'] })).toEqual([]);
  });
});

describe('the desired state of a Tenant with a role that is not bindable', () => {
  const state = desiredState(tenant, [{ name: 'oil-p', origin: 'Declared' }], { listed: ['view'] });
  const bindings = () => (state.valid ? state.namespaces[0]!.guardrails.filter((g) => g.kind === 'RoleBinding').map((g) => g.metadata.name) : []);

  it('is still valid: the rest of the Tenant is applied', () => {
    expect(state.valid).toBe(true);
    expect(bindings()).toEqual(['paddock:tenant-admin', 'paddock:additional:view']);
  });

  it('reports each role left unbound', () => {
    expect(state.valid && state.unbindable.map((p) => p.field)).toEqual(['spec.additionalRoleBindings[1].clusterRoleName', 'spec.additionalRoleBindings[2].clusterRoleName']);
  });
});
