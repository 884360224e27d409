import { httpsGet } from '../controlplane/controlplane';
import { startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { replicas } from './paddock-env';
import { DirectWatch, KubectlWatch, WebSocketWatch, type WatchEventLine } from './watch-client';
import { readFileSync } from 'node:fs';
import { PADDOCK_STATE_FILE } from './global-setup';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { TenantOwner, TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

function tenant(name: string, owners: TenantOwner[], namespaces: string[], extra: Partial<TenantSpec> = {}) {
  return tenantNamed(name, { owners, namespaces, deletionPolicy: 'Delete', ...extra });
}
const ALICE: TenantOwner[] = [{ kind: 'User', name: 'alice' }];
const GAS_DEVS: TenantOwner[] = [{ kind: 'Group', name: 'gas-devs' }];

async function served(names: string[]): Promise<void> {
  await waitFor(`rows ${names.join(', ')}`, async () => (await kubectl('admin', ['get', 'tns', ...names])).code === 0, 60_000, 200);
}

/** A merge patch through kube-apiserver as admin, without a kubectl process per change. */
async function patchAsAdmin(path: string, body: unknown): Promise<number> {
  const { pki, server } = controlPlane();
  const res = await httpsRequest(`${server}${path}`, { cert: pki.users.admin, method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify(body) });
  return res.status;
}

const portOf = (identity: string) => replicas().find((r) => r.identity === identity)!.port;
const kinds = (events: WatchEventLine[]) => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}`);

describe('kubectl get tns -w as alice', () => {
  const oil = uniqueName('woil');
  const gas = uniqueName('wgas');
  let watch: KubectlWatch;

  beforeAll(async () => {
    await applyObject(tenant(oil, ALICE, ['a'], { resourceQuotas: [{ hard: { pods: '5' } }] }));
    await served([`${oil}-a`]);
    watch = new KubectlWatch('alice');
    await watch.waitFor('the initial ADDED', (rows) => rows.some(([e, n]) => e === 'ADDED' && n === `${oil}-a`));
  });

  afterAll(async () => {
    watch.stop();
    await kubectl('admin', ['delete', 'tenants', oil, gas, '--wait=false', '--ignore-not-found']);
  });

  it('shows a new oil namespace as ADDED', async () => {
    await applyObject(tenant(oil, ALICE, ['a', 'b'], { resourceQuotas: [{ hard: { pods: '5' } }] }));
    await watch.waitFor('ADDED b', (rows) => rows.some(([e, n]) => e === 'ADDED' && n === `${oil}-b`));
  });

  it('shows a quota usage change after a pod is created as MODIFIED', async () => {
    const before = watch.rows().length;
    await waitFor('a pod', async () => (await kubectl('admin', ['run', 'p', '-n', `${oil}-a`, '--image=registry.k8s.io/pause:3.10', '--restart=Never'])).code === 0, 30_000, 250);
    await waitFor('quota usage', async () => (await kubectlJson('alice', ['get', 'tns', `${oil}-a`])).status.quota?.used?.pods === '1', 60_000, 250);
    await watch.waitFor('MODIFIED a', (rows) => rows.slice(before).some(([e, n]) => e === 'MODIFIED' && n === `${oil}-a`));
  });

  it('shows a deletion: Terminating, then gone', async () => {
    await applyObject(tenant(oil, ALICE, ['a'], { resourceQuotas: [{ hard: { pods: '5' } }] }));
    await watch.waitFor('Terminating b', (rows) => rows.some(([e, n, s]) => e === 'MODIFIED' && n === `${oil}-b` && s === 'Terminating'));
    await watch.waitFor('DELETED b', (rows) => rows.some(([e, n]) => e === 'DELETED' && n === `${oil}-b`), 90_000);
  });

  it('never shows gas events', async () => {
    await applyObject(tenant(gas, GAS_DEVS, ['x']));
    await served([`${gas}-x`]);
    await kubectl('admin', ['label', 'namespace', `${gas}-x`, 'touched=yes']);
    // A namespace alice may see, made after gas's change: once its ADDED has arrived, any gas event (an
    // earlier Namespace event, sent in order) would have come before it.
    await applyObject(tenant(oil, ALICE, ['a', 'later'], { resourceQuotas: [{ hard: { pods: '5' } }] }));
    await watch.waitFor('ADDED later', (rows) => rows.some(([e, n]) => e === 'ADDED' && n === `${oil}-later`));
    expect(watch.rows().filter(([, n]) => n.startsWith(gas))).toEqual([]);
  });
});

describe('ownership changes reach open watches', () => {
  it('adding alice as an owner of gas emits ADDED for its rows; removing her emits DELETED', async () => {
    const gas = uniqueName('wown');
    await applyObject(tenant(gas, GAS_DEVS, ['x', 'y']));
    await served([`${gas}-x`, `${gas}-y`]);
    const w = await DirectWatch.open(portOf('paddock-a'), 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', controlPlane().pki.users.alice);
    try {
      await w.waitFor('the end of the initial events', (ev) => ev.some((e) => e.type === 'BOOKMARK'));
      expect(w.names('ADDED').filter((n) => n.startsWith(gas))).toEqual([]);
      await applyObject(tenant(gas, [...GAS_DEVS, ...ALICE], ['x', 'y']));
      await w.waitFor('ADDED x and y', (ev) => ['x', 'y'].every((s) => ev.some((e) => e.type === 'ADDED' && e.object.metadata.name === `${gas}-${s}`)));
      await applyObject(tenant(gas, GAS_DEVS, ['x', 'y']));
      await w.waitFor('DELETED x and y', (ev) => ['x', 'y'].every((s) => ev.some((e) => e.type === 'DELETED' && e.object.metadata.name === `${gas}-${s}`)));
    } finally {
      w.close();
      await kubectl('admin', ['delete', 'tenant', gas, '--wait=false']);
    }
  });
});

const BOB: TenantOwner[] = [{ kind: 'User', name: 'bob' }];
const ownerNames = (o: any): string[] => (o?.status?.owners ?? []).map((x: { name: string }) => x.name);
const tnsPath = (name = '') => `/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces${name ? `/${name}` : ''}`;

/** Whether `user` gets `name` from replica `identity` (straight to it, not through kube-apiserver). */
async function getsRow(identity: string, user: 'alice' | 'bob', name: string): Promise<boolean> {
  const { pki } = controlPlane();
  return (await httpsGet(`https://127.0.0.1:${portOf(identity)}${tnsPath(name)}`, pki, pki.users[user])).status === 200;
}

describe("a watch's DELETED carries the last state that watcher could see", () => {
  it("when ownership moves from alice to bob, alice's DELETED shows her state, not bob's", async () => {
    const name = uniqueName('wleak');
    const row = `${name}-a`;
    await applyObject(tenant(name, ALICE, ['a']));
    await served([row]);
    const w = await DirectWatch.open(portOf('paddock-a'), `fieldSelector=spec.tenant=${name}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('the initial ADDED', (ev) => ev.some((e) => e.type === 'ADDED'));
      await applyObject(tenant(name, BOB, ['a']));
      await w.waitFor('DELETED', (ev) => ev.some((e) => e.type === 'DELETED'));
      const deleted = w.events.find((e) => e.type === 'DELETED')!.object;
      expect(deleted.metadata.name).toBe(row);
      expect(ownerNames(deleted)).toEqual(['alice']);
      expect(JSON.stringify(deleted)).not.toContain('bob');
      const added = w.events.find((e) => e.type === 'ADDED')!.object;
      expect(deleted.metadata.resourceVersion).not.toBe(added.metadata.resourceVersion);
    } finally {
      w.close();
      await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    }
  });

  it('when a row stops matching the label selector, its DELETED shows the labels that matched', async () => {
    const name = uniqueName('wsel');
    const row = `${name}-a`;
    await applyObject(tenant(name, ALICE, ['a']));
    await served([row]);
    await kubectl('admin', ['label', 'namespace', row, 'tier=prod']);
    const w = await DirectWatch.open(portOf('paddock-a'), `labelSelector=tier%3Dprod&fieldSelector=spec.tenant=${name}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('the row', (ev) => ev.some((e) => e.object.metadata.labels?.tier === 'prod'));
      await kubectl('admin', ['label', 'namespace', row, 'tier=dev', '--overwrite']);
      await w.waitFor('DELETED', (ev) => ev.some((e) => e.type === 'DELETED'));
      const deleted = w.events.find((e) => e.type === 'DELETED')!.object;
      expect(deleted.metadata.labels.tier).toBe('prod');
    } finally {
      w.close();
      await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    }
  });
});

describe('resuming a watch after an ownership change', () => {
  it('gives the caller that lost the rows while away DELETED with the state it saw, and the one that gained them ADDED', async () => {
    const name = uniqueName('wres');
    const rows = [`${name}-a`, `${name}-b`];
    // A second tenant both can see, in the same label group: its later change is the event that must come
    // after everything the resumed watches replay.
    const marker = uniqueName('wmrk');
    const markerRow = `${marker}-m`;
    const group = { namespaceMetadata: { labels: { wgroup: name } } };
    await applyObject(tenant(name, ALICE, ['a', 'b'], group));
    await applyObject(tenant(marker, [...ALICE, ...BOB], ['m'], group));
    const { pki } = controlPlane();
    const list = async (user: 'alice' | 'bob') =>
      JSON.parse((await httpsGet(`https://127.0.0.1:${portOf('paddock-a')}${tnsPath()}?labelSelector=wgroup%3D${name}`, pki, pki.users[user])).body);
    let aliceList: any;
    await waitFor('the labelled rows', async () => (aliceList = await list('alice')).items.length === 3, 60_000, 200);
    const bobList = await list('bob');
    expect(aliceList.items.map((i: any) => i.metadata.name).sort()).toEqual([...rows, markerRow].sort());
    expect(bobList.items.map((i: any) => i.metadata.name)).toEqual([markerRow]);

    // While nobody watches, the rows move from alice to bob.
    await applyObject(tenant(name, BOB, ['a', 'b'], group));
    await waitFor('the move served', async () => (await getsRow('paddock-a', 'bob', rows[1])) && !(await getsRow('paddock-a', 'alice', rows[1])), 60_000, 200);

    const query = (rv: string) => `resourceVersion=${rv}&labelSelector=wgroup%3D${name}`;
    const a = await DirectWatch.open(portOf('paddock-a'), query(aliceList.metadata.resourceVersion), pki.users.alice);
    const b = await DirectWatch.open(portOf('paddock-a'), query(bobList.metadata.resourceVersion), pki.users.bob);
    try {
      await kubectl('admin', ['label', 'namespace', markerRow, 'after=resume']);
      const markerSeen = (ev: WatchEventLine[]) => ev.some((e) => e.object?.metadata?.labels?.after === 'resume');
      await a.waitFor('the later change of the marker', markerSeen);
      await b.waitFor('the later change of the marker', markerSeen);
      const replayed = (w: DirectWatch) => w.events.slice(0, w.events.findIndex((e) => e.object?.metadata?.labels?.after === 'resume')).filter((e) => rows.includes(e.object.metadata.name));

      // alice: each row she had ends with DELETED carrying her own last state; nothing of bob's.
      const forAlice = replayed(a);
      for (const row of rows) {
        const events = forAlice.filter((e) => e.object.metadata.name === row);
        expect(events.map((e) => e.type).pop()).toBe('DELETED');
        expect(events.map((e) => e.type)).not.toContain('ADDED');
      }
      for (const e of forAlice) expect(ownerNames(e.object)).toEqual(['alice']);
      expect(JSON.stringify(forAlice)).not.toContain('bob');

      // bob: each row arrives as ADDED (he never had it), with bob as its owner, and is not deleted.
      const forBob = replayed(b);
      for (const row of rows) {
        const types = forBob.filter((e) => e.object.metadata.name === row).map((e) => e.type);
        expect(types[0]).toBe('ADDED');
        expect(types.slice(1).every((t) => t === 'MODIFIED')).toBe(true);
      }
      for (const e of forBob) expect(ownerNames(e.object)).toEqual(['bob']);
    } finally {
      a.close();
      b.close();
      await kubectl('admin', ['delete', 'tenants', name, marker, '--wait=false']);
    }
  });
});

describe('resourceVersions', () => {
  const name = uniqueName('wrv');
  const ns = `${name}-a`;
  let extra: PaddockProcess;

  beforeAll(async () => {
    await applyObject(tenant(name, ALICE, ['a']));
    await served([ns]);
    const { kubeconfig } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { kubeconfig: string };
    // A replica of its own with a short change log (100) and small watch buffers (1 MiB).
    extra = await startPaddock(controlPlane(), kubeconfig, {
      name: 'paddock-watch', mode: 'apiserver', extraArgs: ['--leader-elect=false', '--watch-window=100', '--watch-buffer-bytes=1048576'],
    });
  });

  /** Tenants deleted by the tests, whose namespaces must be gone before the suite ends. */
  const deleted: string[] = [];

  afterAll(async () => {
    await stopPaddock(extra);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    // Hundreds of namespaces take a while to go: later suites that list everything must find a still cluster.
    for (const t of deleted) {
      await waitFor(`the rows of ${t} gone`, async () => (await kubectlJson('admin', ['get', 'tns', '--field-selector', `spec.tenant=${t}`])).items.length === 0, 170_000, 1000);
    }
  });

  async function listRv(port: number): Promise<string> {
    const { pki } = controlPlane();
    const res = await httpsGet(`https://127.0.0.1:${port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces`, pki, pki.users.alice);
    return JSON.parse(res.body).metadata.resourceVersion;
  }

  async function relabel(times: number, key = 'step'): Promise<void> {
    for (let i = 0; i < times; i++) await kubectl('admin', ['label', 'namespace', ns, `${key}=${i}`, '--overwrite']);
  }

  it("resumes a watch from a list's resourceVersion with exactly the later events", async () => {
    const rv = await listRv(portOf('paddock-a'));
    await relabel(5, 'resume');
    await waitFor('the last change served', async () => (await kubectlJson('alice', ['get', 'tns', ns])).metadata.labels.resume === '4', 30_000, 100);
    const w = await DirectWatch.open(portOf('paddock-a'), `resourceVersion=${rv}&fieldSelector=metadata.name=${ns}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('5 changes', (ev) => ev.length >= 5);
      // One more change, made after them: once it has arrived, anything else sent for the five came before it.
      await kubectl('admin', ['label', 'namespace', ns, 'resume-end=yes', '--overwrite']);
      await w.waitFor('the later change', (ev) => ev.some((e) => e.object.metadata.labels?.['resume-end'] === 'yes'));
      const replayed = w.events.slice(0, w.events.findIndex((e) => e.object.metadata.labels?.['resume-end'] === 'yes'));
      expect(replayed.map((e) => `${e.type} ${e.object.metadata.labels.resume}`)).toEqual(['0', '1', '2', '3', '4'].map((v) => `MODIFIED ${v}`));
      const rvs = replayed.map((e) => e.object.metadata.resourceVersion as string);
      expect(new Set([rv, ...rvs]).size).toBe(6);
    } finally {
      w.close();
    }
  });

  it('answers a resourceVersion older than the window with an ERROR event carrying 410 Expired', async () => {
    const rv = await listRv(extra.port);
    await relabel(110, 'old');
    await waitFor('the last change served by the replica with the short window', async () => {
      const { pki } = controlPlane();
      const res = await httpsGet(`https://127.0.0.1:${extra.port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces/${ns}`, pki, pki.users.alice);
      return JSON.parse(res.body).metadata?.labels?.old === '109';
    }, 60_000, 200);
    const w = await DirectWatch.open(extra.port, `resourceVersion=${rv}`, controlPlane().pki.users.alice);
    await w.waitFor('the stream to end', () => w.ended);
    expect(w.status).toBe(200);
    expect(w.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
  });

  it('continues on one replica a list paged on the other', async () => {
    const paged = uniqueName('wpage');
    const names = ['a', 'b', 'c'].map((n) => `${paged}-${n}`);
    await applyObject(tenant(paged, ALICE, ['a', 'b', 'c']));
    const { pki } = controlPlane();
    const list = async (identity: string, query: string) =>
      JSON.parse((await httpsGet(`https://127.0.0.1:${portOf(identity)}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?fieldSelector=spec.tenant=${paged}${query}`, pki, pki.users.alice)).body);
    const page = (identity: string, query: string) => list(identity, `&limit=1${query}`);
    // The first page is asked of paddock-a: once it serves all three (asked directly: kubectl through the
    // balancer may have been answered by the other replica), its pages name them all.
    await waitFor(`paddock-a serving ${names.join(', ')}`, async () => (await list('paddock-a', '')).items?.length === 3, 60_000, 200);
    try {
      const first = await page('paddock-a', '');
      const second = await page('paddock-b', `&continue=${encodeURIComponent(first.metadata.continue)}`);
      const third = await page('paddock-a', `&continue=${encodeURIComponent(second.metadata.continue)}`);
      // A Status instead of a page shows in full.
      for (const p of [first, second, third]) expect(p).toMatchObject({ kind: 'TenantNamespaceList', items: expect.any(Array) });
      expect([first, second, third].flatMap((p) => p.items.map((i: any) => i.metadata.name))).toEqual(names);
      expect(third.metadata.continue).toBeUndefined();
    } finally {
      await kubectl('admin', ['delete', 'tenant', paged, '--wait=false']);
    }
  });

  it("resumes from another replica's resourceVersion with exactly the later events", async () => {
    const rv = await listRv(portOf('paddock-a'));
    await relabel(2, 'crossed');
    const w = await DirectWatch.open(portOf('paddock-b'), `resourceVersion=${rv}&fieldSelector=metadata.name=${ns}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('2 changes', (ev) => ev.filter((e) => e.object.metadata?.labels?.crossed === '1').length > 0);
      expect(w.events.map((e) => `${e.type} ${e.object.metadata.labels.crossed}`)).toEqual(['MODIFIED 0', 'MODIFIED 1']);
    } finally {
      w.close();
    }
  });

  it('sends initial events, then the initial-events-end bookmark, then live changes (WatchList)', async () => {
    const w = await DirectWatch.open(portOf('paddock-a'), `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=spec.tenant=${name}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('the bookmark', (ev) => ev.some((e) => e.type === 'BOOKMARK'));
      expect(kinds(w.events)).toEqual([`ADDED ${ns}`, 'BOOKMARK ']);
      expect(w.events[1].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
      await kubectl('admin', ['label', 'namespace', ns, 'live=yes']);
      await w.waitFor('a live change', (ev) => ev.length >= 3);
      expect(kinds(w.events)[2]).toBe(`MODIFIED ${ns}`);
    } finally {
      w.close();
    }
  });

  it('ends a watch with timeoutSeconds=5 cleanly after about 5 s', async () => {
    const started = Date.now();
    const w = await DirectWatch.open(portOf('paddock-a'), 'timeoutSeconds=5', controlPlane().pki.users.alice);
    await w.waitFor('the stream to end', () => w.ended, 15_000);
    const took = w.endedAt - started;
    expect(took).toBeGreaterThanOrEqual(4900);
    expect(took).toBeLessThan(8000);
    expect(w.events.every((e) => e.type === 'ADDED')).toBe(true);
  });

  // Past 2147483 s the milliseconds no longer fit a 32-bit timer; kube-apiserver takes any int64.
  it.each(['2147484', '9999999999'])('keeps a watch with timeoutSeconds=%s open, delivering a later change', async (seconds) => {
    const w = await DirectWatch.open(portOf('paddock-a'), `timeoutSeconds=${seconds}&fieldSelector=metadata.name=${ns}`, controlPlane().pki.users.alice);
    try {
      await w.waitFor('the initial ADDED', (ev) => ev.some((e) => e.type === 'ADDED') || w.ended);
      await kubectl('admin', ['label', 'namespace', ns, `long-timeout=${seconds}`, '--overwrite']);
      // A stream ended early cannot deliver it: wait for the change or the end, whichever comes.
      await w.waitFor('the later change', (ev) => ev.some((e) => e.object.metadata.labels?.['long-timeout'] === seconds) || w.ended);
      expect(w.ended).toBe(false);
      expect(w.status).toBe(200);
    } finally {
      w.close();
    }
  });

  it('closes a watcher that never reads, while another keeps flowing', async () => {
    const ROUNDS = 200;
    const big = uniqueName('wbig');
    const spaces = Array.from({ length: 100 }, (_, i) => `n${i}`);
    await applyObject(tenant(big, ALICE, spaces));
    await served(spaces.map((s) => `${big}-${s}`));
    const { pki } = controlPlane();
    const slow = await DirectWatch.open(extra.port, `fieldSelector=spec.tenant=${big}&includeObject=Object`, pki.users.alice, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const fast = await DirectWatch.open(extra.port, `fieldSelector=spec.tenant=${big}`, pki.users.alice);
    slow.pause();
    try {
      // Each owner change rewrites all 100 rows: 200 rounds make 20,000 events (tens of MB of Tables), more
      // than the socket buffers of both ends hold, so the server's own buffer passes its bound.
      for (let i = 0; i < ROUNDS; i++) {
        await patchAsAdmin(`/apis/paddock.dev/v1alpha1/tenants/${big}`, { spec: { owners: [...ALICE, { kind: 'Group', name: `g${i}` }] } });
      }
      await fast.waitFor('every change at the reader', (ev) => ev.filter((e) => e.type === 'MODIFIED' && e.object.status.owners.some((o: any) => o.name === `g${ROUNDS - 1}`)).length === 100, 120_000);
      const metrics = (await httpsGet(`https://127.0.0.1:${extra.port}/metrics`, pki, pki.users.admin)).body;
      expect(metrics).toMatch(/paddock_watchers_closed_total\{reason="slow"\} [1-9]/);
      expect(fast.ended).toBe(false);
    } finally {
      slow.close();
      fast.close();
      await kubectl('admin', ['delete', 'tenant', big, '--wait=false']);
      deleted.push(big);
    }
  });
});

describe('WebSocket watch', () => {
  it('delivers the same events as the chunked one', async () => {
    const name = uniqueName('wws');
    await applyObject(tenant(name, ALICE, ['a']));
    await served([`${name}-a`]);
    const { pki } = controlPlane();
    const query = `fieldSelector=spec.tenant=${name}`;
    const chunked = await DirectWatch.open(portOf('paddock-a'), query, pki.users.alice);
    const ws = await WebSocketWatch.open(portOf('paddock-a'), query, pki.users.alice);
    try {
      await chunked.waitFor('initial', (ev) => ev.length >= 1);
      await kubectl('admin', ['label', 'namespace', `${name}-a`, 'ws=1']);
      await applyObject(tenant(name, ALICE, ['a', 'b']));
      await chunked.waitFor('changes', (ev) => ev.some((e) => e.object.metadata.name === `${name}-b`));
      await waitFor('the websocket to catch up', async () => ws.events.length === chunked.events.length, 10_000, 50);
      expect(ws.events).toEqual(chunked.events);
    } finally {
      chunked.close();
      ws.close();
      await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    }
  });
});
