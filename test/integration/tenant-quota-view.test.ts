import { applyObject, controlPlane, kubectl, kubectlJson, parseTable, uniqueName, waitFor } from './env';
import { replicas } from './paddock-env';
import { createPod, isQuotaRefusal } from './tenant-quota-helpers';
import { DirectWatch, KubectlWatch } from './watch-client';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(300_000);

/**
 * What an owner sees of the tenant-wide quota (SPEC §11): each TenantNamespace shows the namespace's
 * share and its use (`status.tenantQuota`, column SHARE with `-o wide`), read by alice, the owner, with
 * the real kubectl; and a watch is told when Paddock moves the share.
 */
const name = uniqueName('tqv');
const [A, B] = [`${name}-a`, `${name}-b`];
const label = name;

interface Share {
  spec: { hard: Record<string, string> };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}
const shareOf = (namespace: string): Promise<Share> => kubectlJson('admin', ['get', 'resourcequota', 'paddock-tenant-quota', '-n', namespace]);

/** Alice's `kubectl get tns -o wide` rows of the tenant, by name. */
async function wideRows(): Promise<Record<string, Record<string, string>>> {
  const rows = parseTable((await kubectl('alice', ['get', 'tns', '-l', `paddock.dev/tenant=${name}`, '-o', 'wide'])).stdout);
  return Object.fromEntries(rows.map((r) => [r.NAME!, r]));
}

beforeAll(async () => {
  // pods: 8 over two namespaces: each new namespace is short at once and gets an equal part, 4.
  await applyObject(tenant(name, { namespaces: ['a', 'b'], deletionPolicy: 'Delete', quota: { hard: { pods: '8' } } }));
  for (const ns of [A, B]) {
    await waitFor(`${ns}'s share in force at 4`, async () => (await shareOf(ns).catch(() => undefined))?.status?.hard?.pods === '4', 60_000, 200);
    await waitFor(`${ns}'s default ServiceAccount`, async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', ns])).code === 0, 60_000, 200);
  }
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
});

describe('the share of each namespace, as its owner sees it', () => {
  it('kubectl get tns -o wide shows SHARE as used/share, in force, per namespace', async () => {
    let rows: Record<string, Record<string, string>> = {};
    await waitFor('both shares in -o wide', async () => {
      rows = await wideRows();
      return rows[A]?.SHARE === 'pods: 0/4' && rows[B]?.SHARE === 'pods: 0/4';
    }, 30_000, 200);
    expect(Object.keys(rows[A]!)).toEqual(['NAME', 'TENANT', 'STATUS', 'AGE', 'OWNERS', 'CPU', 'MEMORY', 'PODS', 'SHARE', 'GUARDRAILS', 'POD-SECURITY', 'NODE-SELECTOR']);
    // status.quota counts the share as one of the namespace's quotas: here it is the only one, so PODS binds at the share.
    expect(rows[A]!.PODS).toBe('0/4');

    await waitFor('a first pod in a', async () => (await createPod('alice', A, 'first', label)).status === 201, 30_000, 200);
    await waitFor('its use in SHARE', async () => (await wideRows())[A]?.SHARE === 'pods: 1/4', 30_000, 200);
  });

  it('-o yaml carries status.tenantQuota: the share in force (its status.hard) and the use kube-apiserver counted', async () => {
    const yaml = await kubectl('alice', ['get', 'tns', A, '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toMatch(/\n {2}tenantQuota:\n {4}share:\n {6}pods: "4"\n {4}used:\n {6}pods: "1"\n/);
    const [tns, share] = await Promise.all([kubectlJson('alice', ['get', 'tns', A]), shareOf(A)]);
    expect(tns.status.tenantQuota).toEqual({ share: share.status!.hard, used: share.status!.used });
  });

  it('kubectl explain tns.status.tenantQuota describes share, used and pending', async () => {
    let res = await kubectl('alice', ['explain', 'tns.status.tenantQuota']);
    await waitFor('the aggregated OpenAPI', async () => (res = await kubectl('alice', ['explain', 'tns.status.tenantQuota'])).code === 0, 90_000, 1000);
    expect(res.stdout).toMatch(/FIELD:\s+tenantQuota <TenantNamespaceShare>/);
    expect(res.stdout).toMatch(/pending\s+<map\[string\]Quantity>/);
    expect(res.stdout).toMatch(/share\s+<map\[string\]Quantity> -required-/);
    expect(res.stdout).toMatch(/used\s+<map\[string\]Quantity> -required-/);
  });
});

describe('a share that moves', () => {
  it('reaches a watch of b as MODIFIED when creates in a use up its share and Paddock moves headroom from b', async () => {
    const watch = new KubectlWatch('alice', [B, '-o', 'wide']);
    // The same watch as JSON, straight to a replica, as alice: each state of b's share, in order.
    const json = await DirectWatch.open(replicas()[0]!.port, `fieldSelector=metadata.name=${B}`, controlPlane().pki.users.alice!);
    try {
      await waitFor('the watch started with b at 0/4', async () => watch.lines.some((l) => /^ADDED\s/.test(l) && l.includes('pods: 0/4')), 30_000, 100);
      // a uses up its 4: it is short, and the headroom (8 − 4) is split again on top of each use: a 6, b 2.
      let n = 0;
      for (let held = 1; held < 4; ) {
        const answer = await createPod('alice', A, `fill-${n++}`, label);
        if (answer.status === 201) held++;
        else expect(isQuotaRefusal(answer)).toBe(true);
      }
      await waitFor('MODIFIED b at 0/2', async () => watch.lines.some((l) => /^MODIFIED\s/.test(l) && l.includes(`${B} `) && l.includes('pods: 0/2')), 60_000, 100).catch((err) => {
        throw new Error(`${(err as Error).message}; kubectl printed:\n${watch.lines.join('\n')}`);
      });
      const events = watch.lines.filter((l) => !l.startsWith('EVENT'));
      expect(events[0]).toMatch(/^ADDED\s/);
      expect(events.findIndex((l) => l.includes('pods: 0/2'))).toBeGreaterThan(0);
      // Paddock lowers the share's spec.hard first; the row shows the new amount pending while the old one
      // is in force, then in force once kube-controller-manager has copied it — two MODIFIED, each at a
      // resourceVersion of its own.
      await json.waitFor('b in force at 2 over the JSON watch', (es) => es.some((e) => e.type === 'MODIFIED' && e.object.status?.tenantQuota?.share?.pods === '2'));
      const states = json.events.filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.object.status?.tenantQuota]);
      expect(states[0]).toEqual(['ADDED', { share: { pods: '4' }, used: { pods: '0' } }]);
      const pending = states.findIndex(([, q]) => q?.pending?.pods === '2');
      const inForce = states.findIndex(([, q]) => q?.share?.pods === '2');
      expect(states[pending]).toEqual(['MODIFIED', { share: { pods: '4' }, used: { pods: '0' }, pending: { pods: '2' } }]);
      expect(states[inForce]).toEqual(['MODIFIED', { share: { pods: '2' }, used: { pods: '0' } }]);
      expect(pending).toBeGreaterThan(0);
      expect(inForce).toBeGreaterThan(pending);
      const versions = json.events.filter((e) => e.type !== 'BOOKMARK').map((e) => e.object.metadata.resourceVersion);
      expect(new Set(versions).size).toBe(versions.length);
    } finally {
      watch.stop();
      json.close();
    }
    // What moved is in force: a takes a fifth pod, and both rows show the new split.
    await waitFor('a fifth pod in a', async () => (await createPod('alice', A, `fifth-${Date.now()}`, label)).status === 201, 30_000, 200);
    await waitFor('-o wide at the new split', async () => {
      const rows = await wideRows();
      return rows[A]?.SHARE === 'pods: 5/6' && rows[B]?.SHARE === 'pods: 0/2';
    }, 30_000, 200);
    const b = await kubectlJson('alice', ['get', 'tns', B]);
    expect(b.status.tenantQuota).toEqual({ share: { pods: '2' }, used: { pods: '0' } });
  });
});
