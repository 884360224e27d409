import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import type { PolicyRule } from '../kube/types';
import { GUARDRAILS } from '../tenancy';
import { MANIFESTS } from './manifests';
import { parseOptions } from '../config/options';
import { paddockRbac, paddockRules, type RoleRule } from './paddock-rbac';

const ROOT = join(__dirname, '..', '..');
const withoutWhy = ({ why: _why, ...rule }: RoleRule): PolicyRule => rule;

describe.each(MANIFESTS.map((m) => [m.path, m] as const))('%s', (path, manifest) => {
  it('is what the code generates (regenerate with npm run gen:manifests)', () => {
    expect(readFileSync(join(ROOT, path), 'utf8')).toBe(manifest.text());
  });
});

describe('apiservice/rbac.yaml', () => {
  const installed = loadAll(MANIFESTS.find((m) => m.path === 'apiservice/rbac.yaml')!.text()) as { kind: string; rules?: PolicyRule[] }[];

  it('reads back as the objects of the code, each rule as it is declared', () => {
    const expected = paddockRbac().map(({ object }) => (object.rules ? { ...object, rules: object.rules.map(withoutWhy) } : object));
    expect(installed).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('grants Paddock all each guardrail kind asks for', () => {
    for (const need of GUARDRAILS.flatMap((kind) => kind.rbac.rules)) {
      expect(installed[0]!.rules).toContainEqual({ apiGroups: need.apiGroups, resources: expect.arrayContaining(need.resources ?? []), verbs: need.verbs });
    }
  });

  it('lets Paddock bind exactly the cluster roles --bindable-cluster-roles lists by default, in a ClusterRole of that one rule', () => {
    const flag = parseOptions(['--mode=controller'], {})!.bindableClusterRoles;
    const bindable = installed.find((o) => o.kind === 'ClusterRole' && (o as { metadata?: { name?: string } }).metadata?.name === 'paddock:bindable-cluster-roles');
    expect(bindable?.rules).toEqual([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: flag, verbs: ['bind'] }]);
    expect(installed).toContainEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'paddock:bindable-cluster-roles' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'paddock:bindable-cluster-roles' },
      subjects: [{ kind: 'ServiceAccount', name: 'paddock', namespace: 'paddock-system' }],
    });
  });

  it('lets Paddock bind no other cluster role than those and its own', () => {
    const bound = installed.flatMap((o) => o.rules ?? []).filter((r) => r.verbs.includes('bind') || r.verbs.includes('escalate'));
    const names = new Set(bound.flatMap((r) => r.resourceNames ?? ['(any)']));
    expect([...names].sort()).toEqual(['paddock:tenant-admin', 'paddock:tenant-operator', 'paddock:tenant-viewer', 'paddock:tenantnamespaces-user', 'view']);
  });

  it('uses no wildcard in any group, resource, name or verb', () => {
    for (const r of paddockRules()) {
      for (const value of [...(r.apiGroups ?? []), ...(r.resources ?? []), ...(r.resourceNames ?? []), ...r.verbs]) expect(value).not.toContain('*');
      expect(r.nonResourceURLs).toBeUndefined();
    }
  });
});
