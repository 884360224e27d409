import { readFileSync } from 'node:fs';
import { LeaderElector } from '../../src/controller/leader-election';
import { microTime, type Lease } from '../../src/controller/leader-election-lease';
import { KubeClient } from '../../src/kube/client';
import { silentLogger } from '../../src/kube/log';
import { RESOURCES, resourcePath } from '../../src/kube/resources';
import { applyObject, auditWrites, controlPlane, kubectl, kubectlJson, PADDOCK_USER, uniqueName, waitFor, type AuditEvent } from './env';
import { replicas } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';

jest.setTimeout(60_000);

const leads = (replica: LeaderElector) => waitFor(`${replica.identity} to lead`, () => replica.isLeader(), 20_000, 25);

describe('leader election on a real Lease', () => {
  let client: KubeClient;
  let ns: string;

  beforeAll(async () => {
    client = await KubeClient.fromKubeConfig({ kubeconfig: controlPlane().kubeconfigs.admin }, { qps: 50, burst: 100 });
    ns = uniqueName('leader');
    await client.create(resourcePath(RESOURCES.namespaces), { metadata: { name: ns } });
  });

  afterAll(async () => {
    await client.delete(resourcePath(RESOURCES.namespaces, { name: ns })).catch(() => undefined);
    client.close();
  });

  it('lets exactly one of two replicas lead, and the other take over at once after a release', async () => {
    const log: string[] = [];
    const elector = (identity: string): LeaderElector => new LeaderElector({
      client, namespace: ns, identity, logger: silentLogger,
      leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500,
      onStartedLeading: (signal) => { log.push(`${identity} started`); signal.addEventListener('abort', () => log.push(`${identity} signalled`)); },
      onStoppedLeading: () => log.push(`${identity} stopped`),
    });
    const a = elector('replica-a');
    const b = elector('replica-b');
    const stopA = new AbortController();
    const stopB = new AbortController();
    const runA = a.run(stopA.signal);
    await leads(a);
    const runB = b.run(stopB.signal);
    await new Promise((r) => setTimeout(r, 5000)); // more than a lease duration: a renews, b waits
    expect(log).toEqual(['replica-a started']);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe('replica-a');

    const leasePath = resourcePath(RESOURCES.leases, { namespace: ns, name: 'paddock-controller' });
    const held = await client.get<Lease>(leasePath);
    expect(held.spec).toMatchObject({ holderIdentity: 'replica-a', leaseDurationSeconds: 4, leaseTransitions: 0 });

    const releasedAt = Date.now();
    stopA.abort();
    await runA;
    await leads(b);
    expect(Date.now() - releasedAt).toBeLessThan(3000); // no waiting for the 4 s lease to expire
    expect(log).toEqual(['replica-a started', 'replica-a signalled', 'replica-a stopped', 'replica-b started']);
    const taken = await client.get<Lease>(leasePath);
    expect(taken.spec).toMatchObject({ holderIdentity: 'replica-b', leaseTransitions: 1 });

    stopB.abort();
    await runB;
    expect((await client.get<Lease>(leasePath)).spec?.holderIdentity).toBe('');
  });
});

/** One JSON log line of a replica. */
interface LogLine { ts: string; msg: string; component?: string }

function logLines(path: string): LogLine[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
}

/** When replica `identity` first logged `msg` at or after `since` (its own wall clock, same machine). */
function loggedAt(identity: string, msg: string, since: Date): Date | undefined {
  const r = replicas().find((p) => p.identity === identity)!;
  const line = logLines(r.log).find((l) => l.msg === msg && new Date(l.ts) >= since);
  return line ? new Date(line.ts) : undefined;
}

const LEASE = ['lease', 'paddock-controller', '-n', 'paddock-system'];
const replicaOf = (e: AuditEvent) => /\((paddock-[ab])\)/.exec(e.userAgent ?? '')?.[1];
const at = (e: AuditEvent) => new Date(e.requestReceivedTimestamp);
/** Writes of cluster state by a replica: not its Lease, not the reviews its API server asks for. */
const stateWrite = (e: AuditEvent) => !['leases', 'tokenreviews', 'subjectaccessreviews'].includes(e.objectRef?.resource ?? '');

describe('losing the Lease mid-reconcile (the replicas under test)', () => {
  const workers = 4; // the replicas' --workers (default): at most one write in flight per worker
  const renewDeadlineMs = 4000; // TEST_PADDOCK_ARGS

  it('the old leader stops writing once it sees the Lease taken, writes nothing after its renew deadline, and campaigns again only after its term drained', async () => {
    let leader = '';
    await waitFor('a leader', async () => {
      leader = (await kubectlJson('admin', ['get', ...LEASE])).spec.holderIdentity ?? '';
      return leader !== '';
    }, 30_000, 250);
    const name = uniqueName('steal');
    const size = 80;
    const tenant = tenantNamed(name, {
      owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops', role: 'viewer' }],
      namespaces: Array.from({ length: size }, (_, i) => `n${i}`),
      resourceQuotas: [{ hard: { pods: '5' } }, { hard: { services: '3' } }],
      limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '100m' } }] }],
    });
    const tenantNamespaces = async () => (await kubectlJson('admin', ['get', 'namespaces', '-l', `paddock.dev/tenant=${name}`])).items.length as number;
    try {
      await applyObject(tenant);
      await waitFor(`the reconcile of ${name} under way`, async () => (await tenantNamespaces()) >= 3, 60_000, 50);

      // The steal: another holder with a long lease, as if it had taken over.
      const before = new Date();
      const stolen = await kubectl('admin', ['patch', ...LEASE, '--type=merge', '-p',
        JSON.stringify({ spec: { holderIdentity: 'usurper', leaseDurationSeconds: 3600, renewTime: microTime(Date.now()) } })]);
      expect(stolen).toMatchObject({ code: 0 });
      const steal = auditWrites(before).find((e) => e.objectRef?.resource === 'leases' && e.objectRef.name === 'paddock-controller' && e.user.username !== PADDOCK_USER)!;
      expect(steal).toBeDefined();

      // Its renewal after the steal is how the old leader sees it; it logs when it stops leading and,
      // once its term is over, starts to campaign again.
      let observed: Date | undefined;
      await waitFor(`${leader} to see the Lease taken`, async () => (observed = loggedAt(leader, 'stopped leading', at(steal))) !== undefined, 20_000, 50);
      const lastRenewal = auditWrites(new Date(at(steal).getTime() - 60_000))
        .filter((e) => e.objectRef?.resource === 'leases' && replicaOf(e) === leader && e.responseStatus?.code === 200 && at(e) < at(steal))
        .pop()!;
      expect(lastRenewal).toBeDefined();
      const deadline = new Date(at(lastRenewal).getTime() + renewDeadlineMs);
      expect(observed!.getTime()).toBeLessThan(deadline.getTime());
      await waitFor(`${leader} to campaign again`, async () => loggedAt(leader, 'attempting to acquire leader lease', observed!) !== undefined, 20_000, 50);
      await waitFor('the renew deadline to pass', async () => Date.now() > deadline.getTime(), 20_000, 50);

      const writes = auditWrites(at(steal)).filter((e) => replicaOf(e) === leader && stateWrite(e));
      // The steal came mid-reconcile: without the fence the old leader would have gone on writing.
      expect(await tenantNamespaces()).toBeLessThan(size);
      expect(writes.filter((e) => at(e) > observed!).length).toBeLessThanOrEqual(workers);
      expect(writes.filter((e) => at(e) > deadline).map((e) => `${e.verb} ${e.objectRef?.resource} ${e.objectRef?.namespace ?? ''}/${e.objectRef?.name ?? ''}`)).toEqual([]);
    } finally {
      await kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', '{"metadata":{"finalizers":[]}}']);
      await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
      await kubectl('admin', ['delete', 'namespaces', '-l', `paddock.dev/tenant=${name}`, '--wait=false']);
      // Hand the Lease back: a replica takes it on its next attempt.
      await kubectl('admin', ['patch', ...LEASE, '--type=merge', '-p', JSON.stringify({ spec: { holderIdentity: '', leaseDurationSeconds: 1 } })]);
      await waitFor('a replica to lead again', async () =>
        ['paddock-a', 'paddock-b'].includes((await kubectlJson('admin', ['get', ...LEASE])).spec.holderIdentity), 30_000, 250);
    }
  });
});
