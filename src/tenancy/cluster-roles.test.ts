import { TENANT_NAMESPACES } from '../api/resources/tenantnamespaces/names';
import { VIEWS } from '../api/resources';
import { viewNames } from '../api/resources/projected/define';
import type { ClusterRole, PolicyRule } from '../kube/types';
import { clusterRoleBindings, clusterRoles } from './cluster-roles';
import { GUARDRAILS as REGISTERED } from './guardrails/registry';

const roles = clusterRoles();
const role = (name: string): ClusterRole => {
  const found = roles.find((r) => r.metadata.name === name);
  if (!found) throw new Error(`no ClusterRole ${name}`);
  return found;
};

/** Every (group, resource, verb, name) a set of rules allows, as strings. */
function grants(rules: PolicyRule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules)
    for (const g of r.apiGroups ?? [])
      for (const res of r.resources ?? [])
        for (const v of r.verbs) for (const n of r.resourceNames ?? ['']) out.add(`${g}|${res}|${v}|${n}`);
  return out;
}

function allows(rules: PolicyRule[], group: string, resource: string, verb: string, name = ''): boolean {
  return rules.some(
    (r) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb) && (!r.resourceNames || r.resourceNames.includes(name)),
  );
}

const WRITE_VERBS = ['create', 'update', 'patch', 'delete', 'deletecollection'];
/** What owners must not weaken: Namespaces, and every guardrail kind that does not let owners write it. */
const GUARDRAILS: [string, string][] = [
  ['', 'resourcequotas'],
  ['', 'limitranges'],
  ['', 'namespaces'],
  ['extensions', 'networkpolicies'],
  ...REGISTERED.filter((k) => !k.ownersMayWrite).map((k): [string, string] => [k.resource.group, k.resource.resource]),
];

describe('clusterRoles', () => {
  it('ships exactly the four roles of the product contract, labelled as Paddock\'s', () => {
    expect(roles.map((r) => r.metadata.name)).toEqual(['paddock:tenant-admin', 'paddock:tenant-operator', 'paddock:tenant-viewer', 'paddock:tenantnamespaces-user']);
    for (const r of roles) {
      expect(r.apiVersion).toBe('rbac.authorization.k8s.io/v1');
      expect(r.kind).toBe('ClusterRole');
      expect(r.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'paddock' });
      expect(r.aggregationRule).toBeUndefined();
    }
  });

  it('uses no wildcard in any group, resource or verb', () => {
    for (const r of roles.flatMap((x) => x.rules ?? [])) {
      for (const value of [...(r.apiGroups ?? []), ...(r.resources ?? []), ...r.verbs]) expect(value).not.toContain('*');
      expect(r.nonResourceURLs).toBeUndefined();
    }
  });

  it('lets nobody write ResourceQuotas, LimitRanges or Namespaces, nor their subresources', () => {
    for (const r of roles) {
      for (const rule of r.rules ?? []) {
        for (const [group, resource] of GUARDRAILS) {
          const touches = rule.apiGroups?.includes(group) && rule.resources?.some((res) => res === resource || res.startsWith(`${resource}/`));
          if (touches) expect({ role: r.metadata.name, verbs: rule.verbs.filter((v) => WRITE_VERBS.includes(v)) }).toEqual({ role: r.metadata.name, verbs: [] });
        }
      }
    }
  });

  it("lets admins alone write NetworkPolicies (networking.k8s.io): their ingress is held to the tenant by the restrictions policy, Paddock's own by the managed-objects fence", () => {
    const rulesOf = (name: string) => roles.find((r) => r.metadata.name === name)!.rules ?? [];
    for (const verb of WRITE_VERBS) {
      expect(allows(rulesOf('paddock:tenant-admin'), 'networking.k8s.io', 'networkpolicies', verb)).toBe(true);
      expect(allows(rulesOf('paddock:tenant-operator'), 'networking.k8s.io', 'networkpolicies', verb)).toBe(false);
      expect(allows(rulesOf('paddock:tenant-viewer'), 'networking.k8s.io', 'networkpolicies', verb)).toBe(false);
    }
  });

  it('grants no escalate or impersonate, and bind only on the three tenant roles', () => {
    for (const rule of roles.flatMap((r) => r.rules ?? [])) {
      expect(rule.verbs).not.toContain('escalate');
      expect(rule.verbs).not.toContain('impersonate');
      if (rule.verbs.includes('bind')) {
        expect(rule).toEqual({
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['paddock:tenant-admin', 'paddock:tenant-operator', 'paddock:tenant-viewer'],
        });
      }
    }
  });

  it('nests the tenant roles: admin holds everything operator does, operator everything viewer does', () => {
    const admin = grants(role('paddock:tenant-admin').rules!);
    const operator = grants(role('paddock:tenant-operator').rules!);
    const viewer = grants(role('paddock:tenant-viewer').rules!);
    expect([...operator].filter((g) => !admin.has(g))).toEqual([]);
    expect([...viewer].filter((g) => !operator.has(g))).toEqual([]);
  });

  it('lets an admin owner manage Roles and RoleBindings and bind the tenant roles', () => {
    const rules = role('paddock:tenant-admin').rules!;
    for (const verb of ['create', 'update', 'delete', 'get']) {
      expect(allows(rules, 'rbac.authorization.k8s.io', 'rolebindings', verb)).toBe(true);
      expect(allows(rules, 'rbac.authorization.k8s.io', 'roles', verb)).toBe(true);
    }
    for (const name of ['paddock:tenant-admin', 'paddock:tenant-operator', 'paddock:tenant-viewer']) {
      expect(allows(rules, 'rbac.authorization.k8s.io', 'clusterroles', 'bind', name)).toBe(true);
    }
    expect(allows(rules, 'rbac.authorization.k8s.io', 'clusterroles', 'bind', 'cluster-admin')).toBe(false);
    expect(allows(rules, 'rbac.authorization.k8s.io', 'clusterroles', 'bind', 'admin')).toBe(false);
  });

  it('lets an operator run workloads but not touch RBAC', () => {
    const rules = role('paddock:tenant-operator').rules!;
    for (const [group, resource] of [
      ['', 'pods'],
      ['', 'services'],
      ['', 'configmaps'],
      ['', 'secrets'],
      ['apps', 'deployments'],
      ['apps', 'statefulsets'],
      ['batch', 'jobs'],
      ['batch', 'cronjobs'],
      ['networking.k8s.io', 'ingresses'],
    ] as const) {
      expect(allows(rules, group, resource, 'create')).toBe(true);
    }
    expect(allows(rules, '', 'pods/exec', 'create')).toBe(true);
    expect(rules.some((r) => r.apiGroups?.includes('rbac.authorization.k8s.io'))).toBe(false);
  });

  it('lets a viewer only read, and not read secrets', () => {
    const rules = role('paddock:tenant-viewer').rules!;
    for (const r of rules) expect(r.verbs).toEqual(['get', 'list', 'watch']);
    expect(allows(rules, '', 'pods', 'list')).toBe(true);
    expect(allows(rules, '', 'resourcequotas', 'get')).toBe(true);
    expect(allows(rules, '', 'secrets', 'get')).toBe(false);
    expect(allows(rules, '', 'pods/exec', 'get')).toBe(false);
  });

  it('grants every served resource exactly the verbs the aggregated API serves for it', () => {
    const granted = new Map<string, string[]>();
    for (const r of role('paddock:tenantnamespaces-user').rules!) {
      expect(r.apiGroups).toEqual(['tenancy.paddock.dev']);
      for (const res of r.resources!) granted.set(res, [...r.verbs].sort());
    }
    const served = new Map<string, string[]>([TENANT_NAMESPACES, ...VIEWS.map(viewNames)].map((n) => [n.resource, [...n.verbs].sort()]));
    expect(Object.fromEntries(granted)).toEqual(Object.fromEntries(served));
  });

  it('returns fresh objects, so a caller cannot change the shipped rules', () => {
    clusterRoles()[0]!.rules![0]!.verbs.push('delete');
    expect(clusterRoles()[0]!.rules![0]!.verbs).toEqual(['get', 'list', 'watch']);
  });
});

describe('clusterRoleBindings', () => {
  it('binds only the TenantNamespaces role cluster-wide, to every authenticated user', () => {
    expect(clusterRoleBindings()).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'paddock:tenantnamespaces-user', labels: { 'app.kubernetes.io/managed-by': 'paddock' } },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'paddock:tenantnamespaces-user' },
        subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
      },
    ]);
  });
});
