import { applyObject, auditWrites, kubectl, kubectlJson, PADDOCK_USER, sleep, uniqueName, waitFor, type AuditEvent } from './env';
import { leaseHolder, reconciles, resyncRounds, startReplica, stopReplica } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';

jest.setTimeout(180_000);

function tenant(name: string, namespaces: string[]) {
  return tenantNamed(name, { owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops', role: 'viewer' }], namespaces, resourceQuotas: [{ hard: { pods: '5' } }] });
}

async function waitReady(name: string): Promise<any> {
  let t: any;
  await waitFor(`tenant ${name} Ready`, async () => {
    t = await kubectlJson('admin', ['get', 'tenant', name]);
    const ready = t.status?.conditions?.find((c: any) => c.type === 'Ready');
    return ready?.status === 'True' && t.status.observedGeneration === t.metadata.generation;
  }, 60_000, 250);
  return t;
}

/**
 * Paddock's writes of cluster state. Not counted: renewals of its Lease (how it keeps leading) and the
 * TokenReviews and SubjectAccessReviews every replica's API server sends (questions, not state).
 */
const NOT_STATE = new Set(['leases', 'tokenreviews', 'subjectaccessreviews']);
function paddockWrites(since: Date): AuditEvent[] {
  return auditWrites(since).filter((e) => e.user.username === PADDOCK_USER && !NOT_STATE.has(e.objectRef?.resource ?? ''));
}

const writerOf = (e: AuditEvent) => /\((paddock-[ab])\)/.exec(e.userAgent ?? '')?.[1];

describe('two replicas', () => {
  it('converge through the leader alone', async () => {
    const leader = await leaseHolder();
    expect(['paddock-a', 'paddock-b']).toContain(leader);
    const since = new Date(Date.now() - 1000);
    const name = uniqueName('leader');
    await applyObject(tenant(name, ['app']));
    await waitReady(name);
    // The reconciler's writes for this Tenant (any replica's API server may write for a caller meanwhile:
    // a self-service delete another suite sent is not the reconciler's).
    const mine = (e: AuditEvent) => e.objectRef?.name === name || e.objectRef?.name === `${name}-app` || e.objectRef?.namespace === `${name}-app`;
    const writes = paddockWrites(since).filter(mine);
    expect(writes.length).toBeGreaterThan(0);
    expect([...new Set(writes.map(writerOf))]).toEqual([leader]);
  });

  it('issue no write when converged, through several resyncs (kube-apiserver audit log)', async () => {
    const name = uniqueName('quiet');
    await applyObject(tenant(name, ['one', 'two']));
    await waitReady(name);
    // Let whatever earlier suites left in motion settle: a 5 s window without a write by Paddock.
    await waitFor('a quiet cluster', async () => {
      const since = new Date();
      await sleep(5000);
      return paddockWrites(since).length === 0;
    }, 90_000, 0);
    const since = new Date();
    await resyncRounds(2);
    expect(paddockWrites(since)).toEqual([]);
  });

  it('only the leader reconciles', async () => {
    const leader = await leaseHolder();
    const follower = leader === 'paddock-a' ? 'paddock-b' : 'paddock-a';
    const before = await reconciles(follower);
    await resyncRounds(1);
    expect(await reconciles(follower)).toBe(before);
    expect(await reconciles(leader)).toBeGreaterThan(0);
  });

  it('fail over: when the leader dies the other takes the Lease and converges a new Tenant', async () => {
    const leader = await leaseHolder();
    const other = leader === 'paddock-a' ? 'paddock-b' : 'paddock-a';
    await stopReplica(leader);
    try {
      const name = uniqueName('failover');
      await applyObject(tenant(name, ['app']));
      await waitReady(name);
      expect(await leaseHolder()).toBe(other);
    } finally {
      await startReplica(leader);
    }
  });

  it('after a restart, converges what changed while it was down, without duplicates', async () => {
    const existing = uniqueName('before');
    await applyObject(tenant(existing, ['app']));
    await waitReady(existing);
    await stopReplica('paddock-a');
    await stopReplica('paddock-b');
    const created = uniqueName('while-down');
    try {
      await applyObject(tenant(created, ['one', 'two']));
      await kubectl('admin', ['delete', 'resourcequota', 'paddock-quota-0', '-n', `${existing}-app`]);
      await kubectl('admin', ['delete', 'rolebinding', 'paddock:tenant-viewer', '-n', `${existing}-app`]);
    } finally {
      await startReplica('paddock-a');
      await startReplica('paddock-b');
    }
    await waitReady(created);
    await waitFor('guardrails of the existing tenant back', async () =>
      (await kubectl('admin', ['get', 'resourcequota/paddock-quota-0', 'rolebinding/paddock:tenant-viewer', '-n', `${existing}-app`])).code === 0, 30_000, 250);
    for (const ns of [`${created}-one`, `${created}-two`, `${existing}-app`]) {
      const list = await kubectlJson('admin', ['get', 'resourcequotas,limitranges,networkpolicies,rolebindings', '-n', ns, '-l', 'app.kubernetes.io/managed-by=paddock']);
      expect(list.items.map((o: any) => `${o.kind}/${o.metadata.name}`).sort())
        .toEqual(['NetworkPolicy/paddock-isolation', 'ResourceQuota/paddock-quota-0', 'RoleBinding/paddock:tenant-admin', 'RoleBinding/paddock:tenant-viewer']);
    }
  });
});
