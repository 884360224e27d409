import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { auditWrites, kubectl, kubectlJson, applyObject, PADDOCK_USER, uniqueName, waitFor, type KubectlResult } from './env';
import { resyncRounds } from './paddock-env';
import { tenant } from '../../src/testing/tenants';
import type { AdditionalRoleBinding, TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * spec.additionalRoleBindings against the real kube-apiserver: what a binding grants is shown by what
 * kube-apiserver's authorizer then allows an identity in that group (impersonated by admin), in every
 * namespace of the tenant and in no other; a cluster role the installation does not let Paddock bind
 * (the test bed runs the shipped RBAC and the default flag: only `view`) is refused by Paddock with the
 * reason, and would be refused to Paddock by kube-apiserver anyway.
 */

const REPO = join(__dirname, '..', '..');
const auditors = uniqueName('auditors');
/** Arguments that make admin act as a member of the group `auditors` and nothing else. */
const AUDITOR = ['--as', `member-of-${auditors}`, '--as-group', auditors];
const asAuditor = (args: string[]): Promise<KubectlResult> => kubectl('admin', [...AUDITOR, ...args]);
const auditorCan = async (verb: string, resource: string, ns: string): Promise<string> => (await asAuditor(['auth', 'can-i', verb, resource, '-n', ns])).stdout.trim();

const viewFor = (group: string): AdditionalRoleBinding => ({ clusterRoleName: 'view', subjects: [{ kind: 'Group', name: group }] });

const ready = (t: any) => t.status?.conditions?.find((c: any) => c.type === 'Ready');

/** Applies a Tenant and waits until Paddock has reconciled this generation to Ready `status` (and `reason`). */
async function provision(name: string, spec: Partial<TenantSpec>, status = 'True', reason?: string): Promise<any> {
  await applyObject(tenant(name, spec));
  let last: any;
  await waitFor(`tenant ${name} Ready=${status}${reason ? ` ${reason}` : ''}`, async () => {
    last = await kubectlJson('admin', ['get', 'tenant', name]);
    const r = ready(last);
    return r?.status === status && (!reason || r.reason === reason) && last.status?.observedGeneration === last.metadata.generation;
  }, 60_000, 250).catch((err) => {
    throw new Error(`${(err as Error).message}; last status: ${JSON.stringify(last?.status)}`);
  });
  return last;
}

/** Waits until kube-apiserver's authorizer (which reads RoleBindings from its own informer) answers `answer`. */
async function authorizerSays(answer: 'yes' | 'no', verb: string, resource: string, ns: string): Promise<void> {
  await waitFor(`kube-apiserver answering ${answer} to the auditors' ${verb} ${resource} in ${ns}`, async () => (await auditorCan(verb, resource, ns)) === answer, 30_000, 250);
}

const rolebinding = (name: string, ns: string): Promise<KubectlResult> => kubectl('admin', ['get', 'rolebinding', name, '-n', ns, '-o', 'json']);

const created: string[] = [];
afterAll(async () => {
  for (const name of created) await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
});

describe('a Group given view by additionalRoleBindings', () => {
  const name = uniqueName('arb');
  const other = uniqueName('arb-other');
  const namespaces = [`${name}-a`, `${name}-b`];

  beforeAll(async () => {
    created.push(name, other);
    await provision(other, { namespaces: ['a'] });
    await provision(name, { namespaces: ['a', 'b'], additionalRoleBindings: [viewFor(auditors)] });
  });

  it('is bound to view in every namespace of the tenant, by Paddock', async () => {
    for (const ns of namespaces) {
      const binding = JSON.parse((await rolebinding('paddock:additional:view', ns)).stdout);
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
      expect(binding.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: auditors }]);
      expect(binding.metadata.labels).toMatchObject({ 'paddock.dev/tenant': name, 'app.kubernetes.io/managed-by': 'paddock' });
      expect(binding.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Tenant', name, controller: true })]);
    }
  });

  it('lets a member of the group read in every namespace of the tenant, and only read', async () => {
    for (const ns of namespaces) {
      await authorizerSays('yes', 'list', 'pods', ns);
      const pods = await asAuditor(['get', 'pods', '-n', ns]);
      expect(pods.code).toBe(0);
      expect(pods.stderr).toMatch(/No resources found/);
      expect(await auditorCan('create', 'pods', ns)).toBe('no');
      expect(await auditorCan('get', 'secrets', ns)).toBe('no');
    }
  });

  it('gives the group nothing in a namespace of another tenant', async () => {
    // The other tenant is Ready: every binding Paddock would make there exists, and the auditors' own
    // namespaces answer yes (the test above), so a no here is not an authorizer that has yet to catch up.
    await authorizerSays('yes', 'list', 'pods', namespaces[0]!);
    const ns = `${other}-a`;
    expect(await auditorCan('list', 'pods', ns)).toBe('no');
    const res = await asAuditor(['get', 'pods', '-n', ns]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/forbidden/);
    const bindings = await kubectlJson('admin', ['get', 'rolebindings', '-n', ns]);
    expect(bindings.items.flatMap((b: any) => b.subjects ?? []).filter((s: any) => s.name === auditors)).toEqual([]);
  });

  it('is put back when a subject is added to its binding, and when its binding is deleted', async () => {
    const ns = namespaces[1]!;
    const widened = await kubectl('admin', ['patch', 'rolebinding', 'paddock:additional:view', '-n', ns, '--type=json',
      '-p', JSON.stringify([{ op: 'add', path: '/subjects/-', value: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:authenticated' } }])]);
    expect(widened.code).toBe(0);
    await waitFor('the added subject removed', async () => {
      const b = JSON.parse((await rolebinding('paddock:additional:view', ns)).stdout);
      return b.subjects.length === 1 && b.subjects[0].name === auditors;
    }, 30_000, 100);

    const uid = JSON.parse((await rolebinding('paddock:additional:view', ns)).stdout).metadata.uid;
    expect((await kubectl('admin', ['delete', 'rolebinding', 'paddock:additional:view', '-n', ns])).code).toBe(0);
    await waitFor('the deleted binding created again', async () => {
      const res = await rolebinding('paddock:additional:view', ns);
      return res.code === 0 && JSON.parse(res.stdout).metadata.uid !== uid;
    }, 30_000, 100);
    await authorizerSays('yes', 'list', 'pods', ns);
  });

  it('costs no writes once converged', async () => {
    await provision(name, { namespaces: ['a', 'b'], additionalRoleBindings: [viewFor(auditors)] });
    const since = new Date();
    await resyncRounds(2);
    const writes = auditWrites(since).filter((e) => e.user.username === PADDOCK_USER && namespaces.includes(e.objectRef?.namespace ?? '') && e.objectRef?.resource === 'rolebindings');
    expect(writes).toEqual([]);
  });
});

describe('removing an item of additionalRoleBindings', () => {
  it('revokes what it gave in every namespace of the tenant', async () => {
    const name = uniqueName('arb-rm');
    const group = `${auditors}-rm`;
    const namespaces = [`${name}-a`, `${name}-b`];
    created.push(name);
    const auditor = ['--as', `member-of-${group}`, '--as-group', group];
    const can = async (ns: string) => (await kubectl('admin', [...auditor, 'auth', 'can-i', 'list', 'pods', '-n', ns])).stdout.trim();
    await provision(name, { namespaces: ['a', 'b'], additionalRoleBindings: [viewFor(group)] });
    for (const ns of namespaces) await waitFor(`the group allowed in ${ns}`, async () => (await can(ns)) === 'yes', 30_000, 250);

    await provision(name, { namespaces: ['a', 'b'] });
    for (const ns of namespaces) {
      expect((await rolebinding('paddock:additional:view', ns)).stderr).toMatch(/NotFound/);
      await waitFor(`the group refused in ${ns}`, async () => (await can(ns)) === 'no', 30_000, 250);
      const res = await kubectl('admin', [...auditor, 'get', 'pods', '-n', ns]);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toMatch(/forbidden/);
    }
    // The owner's binding is untouched.
    expect((await rolebinding('paddock:tenant-admin', namespaces[0]!)).code).toBe(0);
  });
});

describe('a cluster role the installation does not let Paddock bind', () => {
  const name = uniqueName('arb-no');
  const ns = `${name}-a`;
  let status: any;

  beforeAll(async () => {
    created.push(name);
    status = await provision(name, {
      namespaces: ['a'],
      additionalRoleBindings: [viewFor(auditors), { clusterRoleName: 'cluster-admin', subjects: [{ kind: 'Group', name: auditors }] }],
    }, 'False', 'ClusterRoleNotBindable');
    // Until the namespace's guardrails are all in place, the message says what is missing as well.
    await waitFor(`tenant ${name} reporting only the refusal`, async () => {
      status = await kubectlJson('admin', ['get', 'tenant', name]);
      return status.status?.phase === 'Degraded' && ready(status)?.reason === 'ClusterRoleNotBindable' && !ready(status).message.includes('not in sync');
    }, 60_000, 250);
  });

  it('is refused on the Tenant, naming the field, the role and what may be bound', () => {
    expect(ready(status)).toMatchObject({
      status: 'False',
      reason: 'ClusterRoleNotBindable',
      message: 'not bound: spec.additionalRoleBindings[1].clusterRoleName: ClusterRole cluster-admin is not one this installation lets Paddock bind (bindable: view)',
    });
  });

  it('is not bound, while the rest of the Tenant is applied', async () => {
    // The pass that reported the refusal and nothing out of sync (above) applied everything else.
    expect((await rolebinding('paddock:tenant-admin', ns)).code).toBe(0);
    expect((await rolebinding('paddock:additional:view', ns)).code).toBe(0);
    expect((await rolebinding('paddock:additional:cluster-admin', ns)).stderr).toMatch(/NotFound/);
    const bindings = await kubectlJson('admin', ['get', 'rolebindings', '-n', ns]);
    expect(bindings.items.filter((b: any) => b.roleRef.name === 'cluster-admin')).toEqual([]);
    await authorizerSays('yes', 'list', 'pods', ns);
    expect(await auditorCan('create', 'pods', ns)).toBe('no');
  });

  it('would be refused to Paddock by kube-apiserver anyway: Paddock may bind view, not cluster-admin', async () => {
    const paddockCan = async (what: string) => (await kubectl('admin', ['auth', 'can-i', 'bind', what, `--as=${PADDOCK_USER}`])).stdout.trim();
    expect(await paddockCan('clusterroles/view')).toBe('yes');
    expect(await paddockCan('clusterroles/cluster-admin')).toBe('no');
    expect(await paddockCan('clusterroles/edit')).toBe('no');
    // RBAC's escalation check, asked as Paddock itself: the binding is refused.
    const binding = JSON.stringify({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: `probe-${name}`, namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: auditors }],
    });
    const refused = await kubectl('admin', ['create', `--as=${PADDOCK_USER}`, '--dry-run=server', '-f', '-'], binding);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/forbidden: user ".*paddock" \(groups=.*\) is attempting to grant RBAC permissions not currently held/);
    const allowed = await kubectl('admin', ['create', `--as=${PADDOCK_USER}`, '--dry-run=server', '-f', '-'], binding.replace('"name":"cluster-admin"', '"name":"view"'));
    expect(allowed).toMatchObject({ code: 0, stdout: expect.stringContaining('created (server dry run)') });
  });

  it('is bound once dropped for a bindable one, and the Tenant is Ready', async () => {
    await provision(name, { namespaces: ['a'], additionalRoleBindings: [{ clusterRoleName: 'view', subjects: [{ kind: 'Group', name: auditors }, { kind: 'User', name: `u-${name}` }] }] });
    const b = JSON.parse((await rolebinding('paddock:additional:view', ns)).stdout);
    expect(b.subjects.map((s: any) => s.name)).toEqual([auditors, `u-${name}`]);
  });
});

describe('a spec kube-apiserver refuses by the Tenant schema', () => {
  it('refuses a cluster role listed twice and a ServiceAccount subject without its namespace', async () => {
    const name = uniqueName('arb-bad');
    const twice = await kubectl('admin', ['apply', '--dry-run=server', '-f', '-'], JSON.stringify(tenant(name, { additionalRoleBindings: [viewFor('a'), viewFor('b')] })));
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toMatch(/spec\.additionalRoleBindings\[1\]: Duplicate value/);
    const noNamespace = await kubectl('admin', ['apply', '--dry-run=server', '-f', '-'],
      JSON.stringify(tenant(name, { additionalRoleBindings: [{ clusterRoleName: 'view', subjects: [{ kind: 'ServiceAccount', name: 'scanner' }] }] })));
    expect(noNamespace.code).not.toBe(0);
    expect(noNamespace.stderr).toMatch(/namespace is required for a ServiceAccount subject/);
  });
});

describe('the README\'s way to change which cluster roles Paddock may bind', () => {
  it('changes the Deployment\'s flag and the ClusterRole\'s rule alike', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('--bindable-cluster-roles'));
    if (!block) throw new Error('the README has no kustomization for --bindable-cluster-roles');
    const dir = mkdtempSync(join(tmpdir(), 'paddock-kustomize-'));
    try {
      cpSync(join(REPO, 'apiservice'), join(dir, 'apiservice'), { recursive: true });
      cpSync(join(REPO, 'schemas'), join(dir, 'schemas'), { recursive: true });
      writeFileSync(join(dir, 'kustomization.yaml'), block.replace('github.com/paddock-dev/paddock/apiservice', 'apiservice'));
      const docs = loadAll(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' })) as any[];
      const role = docs.find((d) => d.kind === 'ClusterRole' && d.metadata.name === 'paddock:bindable-cluster-roles');
      const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'paddock');
      const flag = deployment.spec.template.spec.containers[0].args.find((a: string) => a.startsWith('--bindable-cluster-roles='));
      expect(flag).toBeDefined();
      expect(role.rules).toEqual([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: flag.split('=')[1].split(','), verbs: ['bind'] }]);
      expect(role.rules[0].resourceNames).toContain('view');
      expect(role.rules[0].resourceNames.length).toBeGreaterThan(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
