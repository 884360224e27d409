import { LeaderElector } from '../../src/controller/leader-election';
import type { Lease } from '../../src/controller/leader-election-lease';
import { KubeClient } from '../../src/kube/client';
import { silentLogger } from '../../src/kube/log';
import { RESOURCES, resourcePath } from '../../src/kube/resources';
import { controlPlane, uniqueName } from './env';

jest.setTimeout(60_000);

async function eventually(cond: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

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
    await eventually(() => a.isLeader());
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
    await eventually(() => b.isLeader());
    expect(Date.now() - releasedAt).toBeLessThan(3000); // no waiting for the 4 s lease to expire
    expect(log).toEqual(['replica-a started', 'replica-a signalled', 'replica-a stopped', 'replica-b started']);
    const taken = await client.get<Lease>(leasePath);
    expect(taken.spec).toMatchObject({ holderIdentity: 'replica-b', leaseTransitions: 1 });

    stopB.abort();
    await runB;
    expect((await client.get<Lease>(leasePath)).spec?.holderIdentity).toBe('');
  });
});
