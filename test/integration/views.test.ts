import { confirmsHiddenObject } from '../../src/api/testing/hidden-objects';
import { httpsGet } from '../controlplane/controlplane';
import { applyObject, controlPlane, kubectl, kubectlJson, parseTable, serviceAccountUser, uniqueName, waitFor } from './env';
import { replicas } from './paddock-env';
import { KubectlWatch } from './watch-client';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(180_000);

// Fresh identities (ServiceAccounts) so that no other suite's tenants add to what they may see.
const id = uniqueName('vw');
const ns = `${id}-ids`;
let ann = '';
let ben = '';
let nobody = '';
const SA = (name: string) => ({ kind: 'ServiceAccount' as const, namespace: ns, name });
const gold = `${id}-gold`;
const std = `${id}-standard`;
const bronze = `${id}-bronze`;
const oil = `${id}-oil`;
const gas = `${id}-gas`;

function storageClass(name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, labels }, provisioner: 'example.com/disk', reclaimPolicy: 'Retain', ...extra };
}

const names = async (user: string, resource: string) => (await kubectlJson(user, ['get', resource])).items.map((o: { metadata: { name: string } }) => o.metadata.name).filter((n: string) => n.startsWith(id)).sort();

beforeAll(async () => {
  [ann, ben, nobody] = await Promise.all([serviceAccountUser(ns, 'ann'), serviceAccountUser(ns, 'ben'), serviceAccountUser(ns, 'nobody')]);
  await applyObject(storageClass(gold, { tier: 'gold', test: id }));
  await applyObject(storageClass(std, { tier: 'standard', test: id }, { metadata: { name: std, labels: { tier: 'standard', test: id }, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } }));
  await applyObject(storageClass(bronze, { tier: 'bronze', test: id }));
  await applyObject({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: `${id}-internal` }, spec: { controller: 'example.com/ingress' } });
  await applyObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: `${id}-low` }, value: 100 });
  await applyObject({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: `${id}-sandbox`, labels: { sandbox: 'true' } }, handler: 'runsc' });
  await applyObject({ apiVersion: 'v1', kind: 'Node', metadata: { name: `${id}-node`, labels: { pool: id } } });
  // Gateway API's CRDs come after Paddock started (global-setup): the view fills once they are served.
  await waitFor('Gateway API served', async () => (await kubectl('admin', ['get', 'crd', 'gatewayclasses.gateway.networking.k8s.io'])).code === 0, 120_000, 500);
  for (const n of [`${id}-gw`, `${id}-gw-other`]) {
    await applyObject({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: n }, spec: { controllerName: 'example.com/gateway', description: `class ${n}` } });
  }
  await applyObject({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: `${id}-gpu`, labels: { gpu: id } }, spec: {} });
  await applyObject({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: `${id}-tpu` }, spec: {} });
  await applyObject(tenant(oil, {
    owners: [SA('ann')], nodeSelector: { pool: id },
    storageClasses: { allowed: [std], selector: { matchLabels: { tier: 'gold' } } },
    ingressClasses: { allowed: [`${id}-internal`] }, priorityClasses: { allowed: [`${id}-low`] }, runtimeClasses: { selector: { matchLabels: { sandbox: 'true' } } },
    gatewayClasses: { allowed: [`${id}-gw`] }, deviceClasses: { selector: { matchLabels: { gpu: id } } },
  }));
  await applyObject(tenant(gas, {
    owners: [SA('ben')], storageClasses: { allowed: [bronze] }, ingressClasses: { allowed: [] }, priorityClasses: { allowed: [] }, runtimeClasses: { allowed: [] },
    gatewayClasses: { allowed: [] }, deviceClasses: { allowed: [] },
  }));
  await waitFor('the views to know the tenants', async () => (await names(ann, 'tsc')).length === 2, 60_000, 250);
  await waitFor('the gateway class view to know the classes', async () => (await names(ann, 'tgc')).length === 1, 60_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', oil, gas, '--wait=false']);
  await kubectl('admin', ['delete', 'storageclass', gold, std, bronze, '--wait=false']);
  await kubectl('admin', ['delete', 'ingressclass', `${id}-internal`, '--wait=false']);
  await kubectl('admin', ['delete', 'priorityclass', `${id}-low`, '--wait=false']);
  await kubectl('admin', ['delete', 'runtimeclass', `${id}-sandbox`, '--wait=false']);
  await kubectl('admin', ['delete', 'node', `${id}-node`, '--wait=false']);
  await kubectl('admin', ['delete', 'gatewayclass', `${id}-gw`, `${id}-gw-other`, '--wait=false']);
  await kubectl('admin', ['delete', 'deviceclass', `${id}-gpu`, `${id}-tpu`, '--wait=false']);
  await kubectl('admin', ['delete', 'namespace', ns, '--wait=false']);
});

describe('what a tenant may use, shown per caller', () => {
  it('lists exactly the owner\'s allowed objects for each view; a non-owner sees nothing', async () => {
    expect(await names(ann, 'tenantstorageclasses')).toEqual([gold, std]);
    expect(await names(ann, 'tic')).toEqual([`${id}-internal`]);
    expect(await names(ann, 'tpc')).toEqual([`${id}-low`]);
    expect(await names(ann, 'trc')).toEqual([`${id}-sandbox`]);
    expect(await names(ann, 'tno')).toEqual([`${id}-node`]);
    expect(await names(ann, 'tenantgatewayclasses')).toEqual([`${id}-gw`]);
    expect(await names(ann, 'tdc')).toEqual([`${id}-gpu`]);
    expect(await names(ben, 'tgc')).toEqual([]);
    expect(await names(ben, 'tenantdeviceclasses')).toEqual([]);
    expect((await kubectlJson(ann, ['get', 'otn'])).items.map((t: { metadata: { name: string } }) => t.metadata.name)).toEqual([oil]);
    expect(await names(ben, 'tsc')).toEqual([bronze]);
    expect(await names(ben, 'tno')).toEqual([]);
    for (const r of ['tsc', 'tic', 'tpc', 'trc', 'tgc', 'tdc', 'tno', 'otn']) expect((await kubectlJson(nobody, ['get', r])).items).toEqual([]);
  });

  it('shows an admin everything', async () => {
    expect(await names('admin', 'tsc')).toEqual([bronze, gold, std]);
    expect((await kubectlJson('admin', ['get', 'otn'])).items.map((t: { metadata: { name: string } }) => t.metadata.name)).toEqual(expect.arrayContaining([oil, gas]));
  });

  it('prints kube-apiserver\'s columns for the built-in kind', async () => {
    const rows = parseTable((await kubectl(ann, ['get', 'tsc'])).stdout);
    expect(Object.keys(rows[0]!)).toEqual(['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
    expect(rows.find((r) => r.NAME.startsWith(std))).toMatchObject({ NAME: `${std} (default)`, PROVISIONER: 'example.com/disk', RECLAIMPOLICY: 'Retain', VOLUMEBINDINGMODE: 'Immediate' });
    const nodes = parseTable((await kubectl(ann, ['get', 'tno', '-o', 'wide'])).stdout);
    expect(Object.keys(nodes[0]!)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']);
    expect(Object.keys(parseTable((await kubectl(ann, ['get', 'tpc'])).stdout)[0]!)).toEqual(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
  });

  it.each([
    ['tgc', 'gatewayclasses', `${id}-gw`],
    ['tdc', 'deviceclasses', `${id}-gpu`],
  ])("%s prints what kubectl get %s prints for the same object, columns and cells, wide too", async (view, source, object) => {
    for (const wide of [[], ['-o', 'wide']]) {
      const ours = parseTable((await kubectl(ann, ['get', view, object, ...wide])).stdout);
      const kubes = parseTable((await kubectl('admin', ['get', source, object, ...wide])).stdout);
      expect(Object.keys(ours[0]!)).toEqual(Object.keys(kubes[0]!));
      // AGE is read at two instants: present in both, compared without it.
      const withoutAge = (rows: Record<string, string>[]) => rows.map(({ AGE, ...rest }) => (expect(AGE).toMatch(/^\d+[smhd]/), rest));
      expect(withoutAge(ours)).toEqual(withoutAge(kubes));
    }
    if (view === 'tgc') expect(Object.keys(parseTable((await kubectl(ann, ['get', view, '-o', 'wide'])).stdout)[0]!)).toEqual(['NAME', 'CONTROLLER', 'ACCEPTED', 'AGE', 'DESCRIPTION']);
  });

  it('does not shadow the built-in kinds, and kubectl get paddock and explain work for an owner', async () => {
    const builtin = await kubectl(ann, ['get', 'storageclasses']);
    expect(builtin.stderr).toContain('storageclasses.storage.k8s.io is forbidden');
    const category = await kubectl(ann, ['get', 'paddock', '-o', 'name']);
    expect(category.code).toBe(0);
    expect(category.stdout).toContain(`tenantstorageclass.tenancy.paddock.dev/${gold}`);
    expect(category.stdout).toContain(`ownedtenant.tenancy.paddock.dev/${oil}`);
    for (const r of ['tsc', 'tic', 'tpc', 'trc', 'tgc', 'tdc', 'tno', 'otn']) {
      await waitFor(`kubectl explain ${r}`, async () => (await kubectl(ann, ['explain', r])).code === 0, 90_000, 1000);
    }
  });

  it("tells a watcher nothing when only another tenant's access to a row it sees changes, and leaves the row its resourceVersion", async () => {
    const patchTenant = (name: string, spec: unknown) => kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', JSON.stringify({ spec })]);
    // Lines are `EVENT NAME PROVISIONER ...`: the events of one row, in order.
    const events = (w: KubectlWatch, name: string) => w.lines.filter((l) => l.trim().split(/\s+/)[1] === name).map((l) => l.trim().split(/\s+/)[0]);
    const stampOf = async (name: string) => (await kubectlJson(ann, ['get', 'tsc', name])).metadata.resourceVersion;
    const a = new KubectlWatch(ann, [], 'tsc');
    const b = new KubectlWatch(ben, [], 'tsc');
    try {
      await waitFor('the initial rows', async () => events(a, std).length === 1 && events(a, gold).length === 1 && events(b, bronze).length === 1, 30_000, 100);
      const stamp = await stampOf(std);
      // gas (ben) may use std too, and gets one more owner: only ben's view changes.
      await patchTenant(gas, { owners: [SA('ben'), { kind: 'User', name: `${id}-dave` }], storageClasses: { allowed: [bronze, std] } });
      await waitFor('ADDED std for ben', async () => events(b, std).includes('ADDED'), 30_000, 100);
      // A later Tenant change ann sees (Tenant events reach a replica in order): once it has arrived, an
      // event for the change of gas would have come before it. It is one ben sees nothing of either:
      // bronze is his already, and oil gaining it changes only who else may see it.
      await patchTenant(oil, { storageClasses: { allowed: [std, bronze], selector: { matchLabels: { tier: 'gold' } } } });
      await waitFor('ADDED bronze for ann', async () => events(a, bronze).includes('ADDED'), 30_000, 100);
      await patchTenant(gas, { owners: [SA('ben')], storageClasses: { allowed: [bronze] } });
      await waitFor('DELETED std for ben', async () => events(b, std).includes('DELETED'), 30_000, 100);
      await patchTenant(oil, { storageClasses: { allowed: [std], selector: { matchLabels: { tier: 'gold' } } } });
      await waitFor('DELETED bronze for ann', async () => events(a, bronze).includes('DELETED'), 30_000, 100);
      expect(events(a, std)).toEqual(['ADDED']);
      expect(events(b, bronze)).toEqual(['ADDED']);
      expect(events(b, std)).toEqual(['ADDED', 'DELETED']);
      expect(await stampOf(std)).toBe(stamp);
    } finally {
      a.stop();
      b.stop();
    }
  });

  it('a watch follows a relabelled class, an edited allowed list and a second tenant (union)', async () => {
    const w = new KubectlWatch(ann, [], 'tsc');
    try {
      // Lines are `EVENT NAME PROVISIONER ...`.
      const of = (name: string) => w.lines.filter((l) => l.trim().split(/\s+/)[1] === name);
      const has = (event: string, name: string) => of(name).some((l) => l.trim().startsWith(event));
      await waitFor('the initial rows', async () => has('ADDED', gold) && has('ADDED', std), 30_000, 100);
      await kubectl('admin', ['label', 'storageclass', bronze, 'tier=gold', '--overwrite']);
      await waitFor('ADDED for the relabelled class', async () => has('ADDED', bronze), 30_000, 100);
      await kubectl('admin', ['label', 'storageclass', bronze, 'tier=bronze', '--overwrite']);
      await waitFor('DELETED once it leaves the selector', async () => has('DELETED', bronze), 30_000, 100);
      await kubectl('admin', ['patch', 'tenant', oil, '--type=merge', '-p', JSON.stringify({ spec: { storageClasses: { allowed: [], selector: { matchLabels: { tier: 'gold' } } } } })]);
      await waitFor('DELETED when the allowed list drops it', async () => has('DELETED', std), 30_000, 100);
      await kubectl('admin', ['patch', 'tenant', gas, '--type=merge', '-p', JSON.stringify({ spec: { owners: [SA('ben'), SA('ann')] } })]);
      await waitFor('ADDED for the second tenant\'s class (union, not intersection)', async () => of(bronze).length >= 3 && of(bronze)[2]!.trim().startsWith('ADDED'), 30_000, 100);
      expect(await names(ann, 'tsc')).toEqual([bronze, gold]);
    } finally {
      w.stop();
    }
  });
});

describe('what a resourceVersion tells carol, who owns nothing', () => {
  const TSC = '/apis/tenancy.paddock.dev/v1alpha1/tenantstorageclasses';
  const hidden = `${id}-hidden`;
  /** carol's list through kube-apiserver (either replica answers: positions mean the same on both). */
  const carolList = async () => JSON.parse((await kubectl('carol', ['get', '--raw', TSC])).stdout);
  /** Once every replica answers the admin's get of the hidden class with `status`, any list carol gets is after the change. */
  const everywhere = (status: number) => waitFor(`every replica answering ${status} for ${hidden}`, async () => {
    const { pki } = controlPlane();
    const answers = await Promise.all(replicas().map((r) => httpsGet(`https://127.0.0.1:${r.port}${TSC}/${hidden}`, pki, pki.users.admin)));
    return answers.every((a) => a.status === status);
  }, 30_000, 100);

  afterAll(async () => {
    await kubectl('admin', ['delete', 'storageclass', hidden, '--ignore-not-found', '--wait=false']);
  });

  it('confirms no guessed name of a StorageClass she may not see, created or deleted, even given its resourceVersion', async () => {
    const before = await carolList();
    const created = await kubectlJson('admin', ['create', '-f', '-'], JSON.stringify(storageClass(hidden, { test: id })));
    const objectRv: string = created.metadata.resourceVersion;
    await everywhere(200);
    const after = await carolList();
    expect(after.items.map((o: { metadata: { name: string } }) => o.metadata.name)).not.toContain(hidden);
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    expect(confirmsHiddenObject(before.metadata.resourceVersion, after.metadata.resourceVersion, hidden, objectRv)).toBe(false);
    // Nor its revision: not when, in etcd's numbering, the hidden collection changed.
    expect(after.metadata.resourceVersion).not.toContain(objectRv);

    await kubectl('admin', ['delete', 'storageclass', hidden]);
    await everywhere(404);
    const gone = await carolList();
    expect(confirmsHiddenObject(after.metadata.resourceVersion, gone.metadata.resourceVersion, hidden, objectRv)).toBe(false);
  });
});
