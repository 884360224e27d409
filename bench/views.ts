/**
 * The served views beside kube-apiserver's list of their source kind: an owner's list of the classes its
 * tenant may use (`kubectl get tdc`; `tsc` is scenario 6) against what a label-injecting proxy sends —
 * kube-apiserver's list of the source kind with the label selector the tenant allows — and the Tenants a
 * caller owns (`kubectl get otn`) against kube-apiserver's Tenant list (alice's by field selector; the
 * admin's, every Tenant). Every list as a Table, interleaved as every list scenario.
 */
import type { BenchCluster } from './cluster';
import { ACCEPT_JSON, ACCEPT_TABLE, pool } from './http';
import { measure, type ListResult, type Target } from './list';
import { ALICE_TENANT, type BenchConfig } from './scenarios';
import { waitFor } from '../test/controlplane/processes';

const TENANCY = '/apis/tenancy.paddock.dev/v1alpha1';
const TENANTS = '/apis/paddock.dev/v1alpha1/tenants';

export interface ViewResult {
  /** The view's short name, as kubectl knows it. */
  view: string;
  /** Who lists: an owner (alice) or the admin. */
  caller: 'owner' | 'admin';
  list: ListResult;
}

/** A class view: its path, the source kind's collection, and how one object of it is made. */
interface ClassKind {
  view: string;
  resource: string;
  source: string;
  /** The Tenant spec field that allows classes of this kind. */
  field: string;
  object: (name: string, labels: Record<string, string>) => Record<string, unknown>;
}

const DEVICE_CLASSES: ClassKind = {
  view: 'tdc', resource: 'tenantdeviceclasses', source: '/apis/resource.k8s.io/v1/deviceclasses', field: 'deviceClasses',
  object: (name, labels) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name, labels }, spec: {} }),
};

/**
 * `classes` objects of `kind`, a tenth labelled `tier=gold`, which alice's tenant is then allowed by
 * selector; alice's list of the view against kube-apiserver's label-selected list of the source kind.
 */
async function classList(cluster: BenchCluster, config: BenchConfig, size: number, kind: ClassKind, classes: number): Promise<ListResult> {
  await pool(Array.from({ length: classes }, (_, i) => i), 16, async (i) => {
    const res = await cluster.admin.postJson(kind.source, kind.object(`bench-${kind.view}-${String(i).padStart(4, '0')}`, { tier: i % 10 === 0 ? 'gold' : 'standard' }));
    if (res.status !== 201 && res.status !== 409) throw new Error(`creating a ${kind.view} source object answered ${res.status}`);
  });
  const gold = Math.ceil(classes / 10);
  const patched = await cluster.admin.patchJson(`${TENANTS}/${ALICE_TENANT}`, { spec: { [kind.field]: { selector: { matchLabels: { tier: 'gold' } } } } });
  if (patched.status !== 200) throw new Error(`allowing alice's tenant ${kind.field} answered ${patched.status}`);
  const alice = cluster.userCert('alice');
  const direct = cluster.client(cluster.paddockUrl, alice);
  const path = `${TENANCY}/${kind.resource}`;
  await waitFor(`alice to see ${gold} ${kind.resource}`, async () => {
    const res = await direct.get(path, ACCEPT_JSON);
    return res.status === 200 && (JSON.parse(res.body.toString('utf8')) as { items: unknown[] }).items.length === gold;
  }, 60_000, 200);
  const exactly = (n: number) => n === gold;
  const targets: Target[] = [
    { name: 'Paddock direct', role: 'paddock', client: direct, path, accept: ACCEPT_TABLE, expectRows: exactly },
    { name: 'Paddock via kube-apiserver', role: 'paddock', client: cluster.client(cluster.state.server, alice), path, accept: ACCEPT_TABLE, expectRows: exactly },
    { name: `kube-apiserver ${kind.source.split('/').pop()}, label selector`, role: 'baseline', client: cluster.admin, path: `${kind.source}?labelSelector=${encodeURIComponent('tier=gold')}`, accept: ACCEPT_TABLE, expectRows: exactly },
  ];
  return { scenario: 'owner-list', size, ...config.ownerList, targets: await measure(targets, config.ownerList) };
}

/** `kubectl get otn`: alice's one Tenant, and the admin's every Tenant, each beside kube-apiserver's Tenant list. */
async function ownedTenants(cluster: BenchCluster, config: BenchConfig, size: number, tenants: number): Promise<ViewResult[]> {
  const path = `${TENANCY}/ownedtenants`;
  const alice = cluster.userCert('alice');
  const one = (n: number) => n === 1;
  const all = (n: number) => n >= tenants;
  const owner: Target[] = [
    { name: 'Paddock direct', role: 'paddock', client: cluster.client(cluster.paddockUrl, alice), path, accept: ACCEPT_TABLE, expectRows: one },
    { name: 'Paddock via kube-apiserver', role: 'paddock', client: cluster.client(cluster.state.server, alice), path, accept: ACCEPT_TABLE, expectRows: one },
    { name: 'kube-apiserver tenants, field selector', role: 'baseline', client: cluster.admin, path: `${TENANTS}?fieldSelector=${encodeURIComponent(`metadata.name=${ALICE_TENANT}`)}`, accept: ACCEPT_TABLE, expectRows: one },
  ];
  const admin: Target[] = [
    { name: 'Paddock direct', role: 'paddock', client: cluster.paddockAdmin!, path, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'Paddock via kube-apiserver', role: 'paddock', client: cluster.admin, path, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'kube-apiserver tenants', role: 'baseline', client: cluster.admin, path: TENANTS, accept: ACCEPT_TABLE, expectRows: all },
  ];
  return [
    { view: 'otn', caller: 'owner', list: { scenario: 'owner-list', size, ...config.ownerList, targets: await measure(owner, config.ownerList) } },
    { view: 'otn', caller: 'admin', list: { scenario: 'admin-list', size, ...config.adminList, targets: await measure(admin, { ...config.adminList, warmup: 2 }) } },
  ];
}

/** The views' lists at `size` namespaces (`tenants` Tenants), `classes` source objects per class kind. */
export async function viewLists(cluster: BenchCluster, config: BenchConfig, size: number, tenants: number, classes: number): Promise<ViewResult[]> {
  return [
    { view: DEVICE_CLASSES.view, caller: 'owner', list: await classList(cluster, config, size, DEVICE_CLASSES, classes) },
    ...(await ownedTenants(cluster, config, size, tenants)),
  ];
}
