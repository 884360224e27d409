/**
 * The served views beside kube-apiserver's list of their source kind: an owner's list of the classes its
 * tenant may use (`kubectl get tdc`; `tsc` is scenario 6) against what a label-injecting proxy sends —
 * kube-apiserver's list of the source kind with the label selector the tenant allows — and the Tenants a
 * caller owns (`kubectl get otn`) against kube-apiserver's Tenant list (alice's by field selector; the
 * admin's, every Tenant). Every list as a Table, interleaved as every list scenario.
 */
import { eachLine } from '../src/testing/lines';
import { request, type Agent } from 'node:https';
import type { ClientRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { BenchCluster } from './cluster';
import { ACCEPT_JSON, ACCEPT_TABLE, pool } from './http';
import { measure, type ListResult, type Target } from './list';
import { ALICE_TENANT, type BenchConfig } from './scenarios';
import { sleep, waitFor } from '../test/controlplane/processes';
import { summarize, type LatencySummary } from './stats';

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

/** A view's watch beside kube-apiserver's selected watch of the source kind: delivery of the same changes. */
export interface ViewWatchResult {
  view: string;
  changes: number;
  paddock: { delivered: number; latency: LatencySummary };
  baseline: { target: string; delivered: number; latency: LatencySummary };
}

const SEQ_LABEL = 'bench.paddock.dev/seq';

/** Opens a watch and calls `seen(seq, at)` for each event whose object carries the sequence label. */
function openWatch(agent: Agent, url: string, seen: (seq: string, at: number) => void): Promise<ClientRequest> {
  return new Promise((resolveOpen, reject) => {
    const req = request(url, { agent, headers: { Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`watch ${url}: ${res.statusCode}`));
        return;
      }
      eachLine(res, (line, at) => {
        const seq = line.trim() ? (JSON.parse(line) as { object?: { metadata?: { labels?: Record<string, string> } } }).object?.metadata?.labels?.[SEQ_LABEL] : undefined;
        if (seq) seen(seq, at);
      });
      res.on('error', () => {});
      resolveOpen(req);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * alice's watch of `tdc` (directly) and kube-apiserver's watch of DeviceClasses with her tenant's selector,
 * open at once; an admin changes a label on one of the allowed DeviceClasses `changes` times, one at a
 * time (each waits until both watches saw it, or 5 s); delivery latency from just before the PATCH.
 */
export async function viewWatch(cluster: BenchCluster, changes: number, classes: number): Promise<ViewWatchResult> {
  const kind = DEVICE_CLASSES;
  const alice = cluster.client(cluster.paddockUrl, cluster.userCert('alice'), 2);
  const admin = cluster.client(cluster.state.server, cluster.state.pki.users.admin, 2);
  const arrivals = { paddock: new Map<string, number>(), baseline: new Map<string, number>() };
  const watches = [
    await openWatch(alice.agent, `${cluster.paddockUrl}${TENANCY}/${kind.resource}?watch=1`, (seq, at) => arrivals.paddock.set(seq, at)),
    await openWatch(admin.agent, `${cluster.state.server}${kind.source}?watch=1&labelSelector=${encodeURIComponent('tier=gold')}`, (seq, at) => arrivals.baseline.set(seq, at)),
  ];
  try {
    const gold = Array.from({ length: classes }, (_, i) => i).filter((i) => i % 10 === 0);
    const sentAt = new Map<string, number>();
    for (let i = 0; i < changes; i++) {
      const seq = `v-${Date.now()}-${i}`;
      const name = `bench-${kind.view}-${String(gold[i % gold.length]).padStart(4, '0')}`;
      sentAt.set(seq, performance.now());
      const res = await cluster.admin.patchJson(`${kind.source}/${name}`, { metadata: { labels: { [SEQ_LABEL]: seq } } });
      if (res.status !== 200) throw new Error(`PATCH ${kind.source}/${name}: ${res.status}`);
      const deadline = performance.now() + 5000;
      while (!(arrivals.paddock.has(seq) && arrivals.baseline.has(seq)) && performance.now() < deadline) await sleep(1);
    }
    const of = (m: Map<string, number>) => [...sentAt].filter(([seq]) => m.has(seq)).map(([seq, at]) => m.get(seq)! - at);
    const [p, b] = [of(arrivals.paddock), of(arrivals.baseline)];
    return {
      view: kind.view, changes,
      paddock: { delivered: p.length, latency: summarize(p) },
      baseline: { target: `kube-apiserver ${kind.source.split('/').pop()}, label selector`, delivered: b.length, latency: summarize(b) },
    };
  } finally {
    for (const w of watches) w.destroy();
    alice.close();
    admin.close();
  }
}
