import { httpsGet } from '../controlplane/controlplane';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { DirectWatch, KubectlWatch, type WatchEventLine } from './watch-client';
import { ALICE, BOB, GAS_DEVS, getsRow, ownerNames, portOf, served, tenant, tnsPath } from './watch-fixtures';

jest.setTimeout(180_000);

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
