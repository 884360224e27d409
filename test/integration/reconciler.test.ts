import { applyObject, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(120_000);

const MANAGED = { 'app.kubernetes.io/managed-by': 'paddock' };

async function getTenant(name: string) {
  return kubectlJson('admin', ['get', 'tenant', name]);
}

const ready = (t: any) => t.status?.conditions?.find((c: any) => c.type === 'Ready');

async function waitReady(name: string, status = 'True', reason?: string): Promise<any> {
  let last: any;
  await waitFor(`tenant ${name} Ready=${status}${reason ? ` ${reason}` : ''}`, async () => {
    last = await getTenant(name);
    const r = ready(last);
    return r?.status === status && (!reason || r.reason === reason) && last.status?.observedGeneration === last.metadata.generation;
  }, 60_000, 250).catch((err) => {
    throw new Error(`${(err as Error).message}; last status: ${JSON.stringify(last?.status)}`);
  });
  return last;
}

async function exists(kind: string, name: string, namespace?: string): Promise<boolean> {
  return (await kubectl('admin', ['get', kind, name, ...(namespace ? ['-n', namespace] : [])])).code === 0;
}

async function can(user: string[], verb: string, resource: string, namespace: string): Promise<boolean> {
  const res = await kubectl('admin', ['auth', 'can-i', verb, resource, '-n', namespace, ...user]);
  return res.stdout.trim() === 'yes';
}

describe('a fully specified Tenant', () => {
  const name = uniqueName('oil');
  const namespaces = [`${name}-production`, `${name}-staging`];
  let converged: any;

  beforeAll(async () => {
    await applyObject(tenant(name, {
      owners: [
        { kind: 'User', name: `alice-${name}`, role: 'admin' },
        { kind: 'Group', name: `devs-${name}`, role: 'operator' },
        { kind: 'ServiceAccount', namespace: 'ci', name: `deployer-${name}`, role: 'viewer' },
      ],
      namespaces: ['production', 'staging'],
      resourceQuotas: [{ hard: { pods: '10', 'requests.cpu': '4' } }, { hard: { configmaps: '50' } }],
      limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] }],
      networkIsolation: true,
      networkPolicies: [{ podSelector: {}, policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: {} }] }] }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      podSecurity: { enforce: 'restricted' },
    }));
    converged = await waitReady(name);
  });

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('reports Active, Ready=True, size 2 and the observed generation', () => {
    expect(converged.status.phase).toBe('Active');
    expect(converged.status.size).toBe(2);
    expect(converged.status.namespaces).toEqual(namespaces);
    expect(converged.status.observedGeneration).toBe(converged.metadata.generation);
    expect(converged.metadata.finalizers).toContain('paddock.dev/cleanup');
  });

  it('creates labelled namespaces with Pod Security, no node-selector annotation (admission policies apply it), and no ownerReference', async () => {
    for (const ns of namespaces) {
      const obj = await kubectlJson('admin', ['get', 'namespace', ns]);
      expect(obj.metadata.labels).toMatchObject({ 'paddock.dev/tenant': name, ...MANAGED, 'pod-security.kubernetes.io/enforce': 'restricted' });
      expect(obj.metadata.annotations['scheduler.alpha.kubernetes.io/node-selector']).toBeUndefined();
      expect(obj.metadata.ownerReferences).toBeUndefined();
    }
  });

  it('creates every guardrail, labelled and controlled by the Tenant', async () => {
    const uid = converged.metadata.uid;
    for (const ns of namespaces) {
      const list = await kubectlJson('admin', ['get', 'resourcequotas,limitranges,networkpolicies,rolebindings', '-n', ns, '-l', 'app.kubernetes.io/managed-by=paddock']);
      const names = list.items.map((o: any) => `${o.kind}/${o.metadata.name}`).sort();
      expect(names).toEqual([
        'LimitRange/paddock-limits-0', 'NetworkPolicy/paddock-isolation', 'NetworkPolicy/paddock-policy-0',
        'ResourceQuota/paddock-quota-0', 'ResourceQuota/paddock-quota-1',
        'RoleBinding/paddock:tenant-admin', 'RoleBinding/paddock:tenant-operator', 'RoleBinding/paddock:tenant-viewer',
      ]);
      for (const o of list.items) {
        expect(o.metadata.labels).toMatchObject({ 'paddock.dev/tenant': name, ...MANAGED });
        expect(o.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Tenant', name, uid, controller: true })]);
      }
    }
  });

  describe('fences, proven by SubjectAccessReviews', () => {
    const ns = namespaces[0];
    const alice = [`--as=alice-${name}`];
    const operator = ['--as=someone', `--as-group=devs-${name}`];
    const viewer = [`--as=system:serviceaccount:ci:deployer-${name}`];

    it.each(['deployments.apps', 'pods', 'rolebindings.rbac.authorization.k8s.io', 'networkpolicies.networking.k8s.io'])('lets the admin owner create %s', async (resource) => {
      expect(await can(alice, 'create', resource, ns)).toBe(true);
    });

    it.each([
      ['create', 'resourcequotas'], ['update', 'resourcequotas'], ['delete', 'resourcequotas'],
      ['create', 'limitranges'], ['update', 'limitranges'], ['delete', 'limitranges'],
    ])('does not let the admin owner %s %s', async (verb, resource) => {
      expect(await can(alice, verb, resource, ns)).toBe(false);
    });

    it('does not let the admin owner update or delete its Namespace objects', async () => {
      for (const verb of ['update', 'patch', 'delete']) {
        expect((await kubectl('admin', ['auth', 'can-i', verb, `namespace/${ns}`, ...alice])).stdout.trim()).toBe('no');
      }
    });

    it("gives the owner nothing in another tenant's namespaces", async () => {
      for (const verb of ['get', 'list', 'create']) expect(await can(alice, verb, 'pods', 'kube-system')).toBe(false);
      expect(await can(alice, 'list', 'secrets', 'default')).toBe(false);
    });

    it('lets the operator group create pods but not rolebindings or networkpolicies', async () => {
      expect(await can(operator, 'create', 'pods', ns)).toBe(true);
      expect(await can(operator, 'create', 'rolebindings.rbac.authorization.k8s.io', ns)).toBe(false);
      expect(await can(operator, 'create', 'networkpolicies.networking.k8s.io', ns)).toBe(false);
    });

    it('lets the viewer ServiceAccount only read', async () => {
      expect(await can(viewer, 'list', 'pods', ns)).toBe(true);
      expect(await can(viewer, 'get', 'deployments.apps', ns)).toBe(true);
      for (const verb of ['create', 'update', 'delete']) expect(await can(viewer, verb, 'pods', ns)).toBe(false);
    });
  });

  // Edits by admin, a member of system:masters: the break-glass the managed-objects fence lets through
  // (everyone else is refused: managed-objects.test.ts).
  describe('drift repair', () => {
    const ns = namespaces[1];
    const repairTimes: Record<string, number> = {};
    afterAll(() => {
      process.stderr.write(`drift repair times (ms): ${JSON.stringify(repairTimes)}\n`);
    });

    async function repaired(what: string, check: () => Promise<boolean>): Promise<void> {
      const t0 = Date.now();
      await waitFor(`${what} repaired`, check, 30_000, 100);
      repairTimes[what] = Date.now() - t0;
    }

    it('recreates a deleted ResourceQuota', async () => {
      await kubectl('admin', ['delete', 'resourcequota', 'paddock-quota-0', '-n', ns]);
      await repaired('deleted quota', () => exists('resourcequota', 'paddock-quota-0', ns));
    });

    it('reverts an edit of the isolation policy', async () => {
      await kubectl('admin', ['patch', 'networkpolicy', 'paddock-isolation', '-n', ns, '--type=merge', '-p', '{"spec":{"ingress":[{}]}}']);
      await repaired('edited isolation policy', async () => {
        const np = await kubectlJson('admin', ['get', 'networkpolicy', 'paddock-isolation', '-n', ns]);
        return JSON.stringify(np.spec.ingress) !== '[{}]' && np.spec.ingress?.[0]?.from?.[0]?.namespaceSelector?.matchLabels?.['paddock.dev/tenant'] === name;
      });
    });

    it('puts back a removed tenant label on the namespace', async () => {
      await kubectl('admin', ['label', 'namespace', ns, 'paddock.dev/tenant-']);
      await repaired('removed namespace label', async () => (await kubectlJson('admin', ['get', 'namespace', ns])).metadata.labels['paddock.dev/tenant'] === name);
    });

    it('recreates a deleted owner RoleBinding', async () => {
      await kubectl('admin', ['delete', 'rolebinding', 'paddock:tenant-admin', '-n', ns]);
      await repaired('deleted rolebinding', () => exists('rolebinding', 'paddock:tenant-admin', ns));
    });

    it('returns to Ready=True afterwards', async () => {
      await waitReady(name);
    });
  });
});

describe('namespaces Paddock must not take', () => {
  it('leaves a pre-existing namespace without its label alone: NamespaceConflict', async () => {
    const name = uniqueName('conflict');
    const ns = `${name}-taken`;
    await kubectl('admin', ['create', 'namespace', ns]);
    await kubectl('admin', ['label', 'namespace', ns, 'owner=someone-else']);
    const before = await kubectlJson('admin', ['get', 'namespace', ns]);
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['taken'] }));
    const t = await waitReady(name, 'False', 'NamespaceConflict');
    expect(ready(t).message).toContain(ns);
    const after = await kubectlJson('admin', ['get', 'namespace', ns]);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.metadata.labels).toEqual(before.metadata.labels);
    expect(await exists('resourcequota', 'paddock-quota-0', ns)).toBe(false);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('does not create declared namespaces beyond namespaceQuota: NamespaceQuotaExceeded', async () => {
    const name = uniqueName('quota');
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['a', 'b', 'c'], namespaceQuota: 2 }));
    const t = await waitReady(name, 'False', 'NamespaceQuotaExceeded');
    expect(t.status.size).toBe(2);
    expect(await exists('namespace', `${name}-a`)).toBe(true);
    expect(await exists('namespace', `${name}-b`)).toBe(true);
    expect(await exists('namespace', `${name}-c`)).toBe(false);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });
});

describe('deletion', () => {
  it('Retain keeps the namespaces, removes guardrails and tenant labels, and lets the Tenant go', async () => {
    const name = uniqueName('retain');
    const ns = `${name}-app`;
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app'], resourceQuotas: [{ hard: { pods: '5' } }], deletionPolicy: 'Retain' }));
    await waitReady(name);
    await kubectl('admin', ['delete', 'tenant', name, '--timeout=60s']);
    await waitFor(`tenant ${name} gone`, async () => !(await exists('tenant', name)), 60_000, 250);
    const obj = await kubectlJson('admin', ['get', 'namespace', ns]);
    expect(obj.status.phase).toBe('Active');
    expect(obj.metadata.labels['paddock.dev/tenant']).toBeUndefined();
    await waitFor('guardrails removed', async () => {
      const list = await kubectlJson('admin', ['get', 'resourcequotas,limitranges,networkpolicies,rolebindings', '-n', ns]);
      return list.items.filter((o: any) => o.metadata.name.startsWith('paddock')).length === 0;
    }, 30_000, 250);
  });

  it('Delete removes the namespaces (the namespace controller finishes it) and lets the Tenant go', async () => {
    const name = uniqueName('delete');
    const ns = `${name}-app`;
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app'], deletionPolicy: 'Delete' }));
    await waitReady(name);
    await kubectl('admin', ['delete', 'tenant', name, '--timeout=60s']);
    await waitFor(`tenant ${name} gone`, async () => !(await exists('tenant', name)), 60_000, 250);
    await waitFor(`namespace ${ns} gone`, async () => !(await exists('namespace', ns)), 60_000, 250);
  });

  it('applies the deletion policy to a namespace removed from spec.namespaces', async () => {
    const name = uniqueName('shrink');
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['one', 'two'], deletionPolicy: 'Delete' }));
    await waitReady(name);
    await applyObject(tenant(name, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['one'], deletionPolicy: 'Delete' }));
    await waitFor(`namespace ${name}-two deleted`, async () => {
      const res = await kubectl('admin', ['get', 'namespace', `${name}-two`, '-o', 'jsonpath={.status.phase}']);
      return res.code !== 0 || res.stdout === 'Terminating';
    }, 30_000, 250);
    const t = await waitReady(name);
    expect(t.status.namespaces).toEqual([`${name}-one`]);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });
});
