import { httpsGet } from '../controlplane/controlplane';
import { startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { DirectWatch, WebSocketWatch } from './watch-client';
import { readFileSync } from 'node:fs';
import { PADDOCK_STATE_FILE } from './global-setup';
import { ALICE, kinds, patchAsAdmin, portOf, served, tenant } from './watch-fixtures';

jest.setTimeout(180_000);

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

  /** Waits until the replica on `port` serves the last of 110 relabels of `key` (value 109). */
  async function lastChangeServed(port: number, key: string, replica: string): Promise<void> {
    await waitFor(`the last change served by ${replica}`, async () => {
      const { pki } = controlPlane();
      const res = await httpsGet(`https://127.0.0.1:${port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces/${ns}`, pki, pki.users.alice);
      return JSON.parse(res.body).metadata?.labels?.[key] === '109';
    }, 60_000, 200);
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
    await lastChangeServed(extra.port, 'old', 'the replica with the short window');
    const w = await DirectWatch.open(extra.port, `resourceVersion=${rv}`, controlPlane().pki.users.alice);
    await w.waitFor('the stream to end', () => w.ended);
    expect(w.status).toBe(200);
    expect(w.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
  });

  it('answers 410 Expired once the changes after a resourceVersion are older than --watch-window-age and beyond the last 100', async () => {
    const { kubeconfig } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { kubeconfig: string };
    // A replica whose window is 2 s of changes (and, as always, the last 100 of each source), with room for 10,000.
    const aged = await startPaddock(controlPlane(), kubeconfig, { name: 'paddock-watch-aged', mode: 'apiserver', extraArgs: ['--leader-elect=false', '--watch-window-age=2s'] });
    try {
      const rv = await listRv(aged.port);
      await relabel(110, 'aged');
      await lastChangeServed(aged.port, 'aged', 'the replica');
      // The positive event: the replica reports that its Namespaces history holds no more than the last 100.
      await waitFor('the Namespaces history of the replica down to its last 100 changes', async () => {
        const { pki } = controlPlane();
        const metrics = (await httpsGet(`https://127.0.0.1:${aged.port}/metrics`, pki, pki.users.admin)).body;
        const line = metrics.split('\n').find((l) => l.startsWith('paddock_cache_history_changes{cache="namespaces'));
        return line !== undefined && Number(line.split(/\s+/).pop()) <= 100;
      }, 60_000, 200);
      const w = await DirectWatch.open(aged.port, `resourceVersion=${rv}`, controlPlane().pki.users.alice);
      await w.waitFor('the stream to end', () => w.ended);
      expect(w.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
      // A resourceVersion of now resumes on the same replica: the window still holds the current position.
      const now = await listRv(aged.port);
      const live = await DirectWatch.open(aged.port, `resourceVersion=${now}`, controlPlane().pki.users.alice);
      try {
        await kubectl('admin', ['label', 'namespace', ns, 'aged=after', '--overwrite']);
        await live.waitFor('the change after the resourceVersion', () => live.events.some((e) => e.type === 'MODIFIED' && e.object.metadata.labels?.aged === 'after'));
        expect(live.events.filter((e) => e.type === 'ERROR')).toEqual([]);
      } finally {
        live.close();
      }
    } finally {
      await stopPaddock(aged);
    }
  });

  it('continues on one replica a list paged on the other', async () => {
    const paged = uniqueName('wpage');
    const names = ['a', 'b', 'c'].map((n) => `${paged}-${n}`);
    await applyObject(tenant(paged, ALICE, ['a', 'b', 'c']));
    const { pki } = controlPlane();
    const list = async (identity: string, query: string) =>
      JSON.parse((await httpsGet(`https://127.0.0.1:${portOf(identity)}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?fieldSelector=spec.tenant=${paged}${query}`, pki, pki.users.alice)).body);
    const page = (identity: string, query: string) => list(identity, `&limit=1${query}`);
    // The pages are asked of each replica directly (kubectl through the balancer may be answered by
    // either): once both serve all three, the pages name them all, wherever each is asked. (A replica
    // behind the token's resourceVersion waits for its cache only so long; under load it may not catch up
    // in time, which is not what this checks.)
    for (const identity of ['paddock-a', 'paddock-b']) {
      await waitFor(`${identity} serving ${names.join(', ')}`, async () => (await list(identity, '')).items?.length === 3, 60_000, 200);
    }
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

describe('a catch-up larger than the watch buffer bound', () => {
  const BOUND = 16 * 1024;
  const name = uniqueName('wcu');
  const spaces = Array.from({ length: 60 }, (_, i) => `n${i}`);
  let tiny: PaddockProcess;

  beforeAll(async () => {
    await applyObject(tenant(name, ALICE, spaces));
    await served(spaces.map((s) => `${name}-${s}`));
    const { kubeconfig } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { kubeconfig: string };
    // A 16 KiB bound, so a catch-up is made in 16 KiB slices, each in a turn of its own once the connection
    // has taken the one before. 60 rows as Table rows with their objects are several times more.
    tiny = await startPaddock(controlPlane(), kubeconfig, { name: 'paddock-catchup', mode: 'apiserver', extraArgs: ['--leader-elect=false', `--watch-buffer-bytes=${BOUND}`] });
  });

  afterAll(async () => {
    await stopPaddock(tiny);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await waitFor(`the rows of ${name} gone`, async () => (await kubectlJson('admin', ['get', 'tns', '--field-selector', `spec.tenant=${name}`])).items.length === 0, 170_000, 1000);
  });

  it('sends a WatchList its initial events a slice at a time (each as the client takes the last), then the live changes', async () => {
    const { pki } = controlPlane();
    const w = await DirectWatch.open(tiny.port, `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=spec.tenant=${name}&includeObject=Object`, pki.users.alice, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    try {
      const initialEnd = (e: { type: string; object: any }) => e.type === 'BOOKMARK' && e.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true';
      await w.waitFor('the initial events and their end', (ev) => ev.some(initialEnd) || w.ended);
      expect(w.ended).toBe(false);
      const initial = w.events.slice(0, w.events.findIndex(initialEnd));
      expect(initial.flatMap((e) => e.object.rows.map((r: any) => r.object.metadata.name)).sort()).toEqual(spaces.map((s) => `${name}-${s}`).sort());
      expect(JSON.stringify(initial).length).toBeGreaterThan(3 * BOUND);
      await kubectl('admin', ['label', 'namespace', `${name}-n7`, 'after-catch-up=yes']);
      await w.waitFor('the live change', (ev) => ev.some((e) => e.type === 'MODIFIED' && e.object.rows?.[0]?.object.metadata.labels?.['after-catch-up'] === 'yes') || w.ended);
      expect(w.ended).toBe(false);
    } finally {
      w.close();
    }
  });

  it('sends them over a WebSocket alike: each slice once the messages of the last are written out', async () => {
    const { pki } = controlPlane();
    const ws = await WebSocketWatch.open(tiny.port, `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=spec.tenant=${name}`, pki.users.alice);
    try {
      const initialEnd = (e: { type: string; object: any }) => e.type === 'BOOKMARK' && e.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true';
      await waitFor('the initial events and their end over the WebSocket', async () => ws.events.some(initialEnd), 30_000, 50);
      const initial = ws.events.slice(0, ws.events.findIndex(initialEnd));
      expect(initial.map((e) => e.type)).toEqual(spaces.map(() => 'ADDED'));
      expect(initial.map((e) => e.object.metadata.name).sort()).toEqual(spaces.map((s) => `${name}-${s}`).sort());
      expect(JSON.stringify(initial).length).toBeGreaterThan(2 * BOUND);
      await kubectl('admin', ['label', 'namespace', `${name}-n9`, 'after-ws-catch-up=yes']);
      await waitFor('the live change over the WebSocket', async () => ws.events.some((e) => e.type === 'MODIFIED' && e.object.metadata.labels?.['after-ws-catch-up'] === 'yes'), 30_000, 50);
    } finally {
      ws.close();
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
