/**
 * Scenario 7's measurements: the owner and admin lists, the watch fan-out and an ownership change,
 * each through capsule-proxy beside Paddock on the same cluster (capsule-proxy.ts starts it), and the
 * report's section.
 */
import { request, type Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import { sleep } from '../test/controlplane/processes';
import { TNS, type BenchCluster } from './cluster';
import { ACCEPT_JSON, ACCEPT_TABLE, type Client } from './http';
import { AGGREGATED_FLOOR_TARGET, kubeApiserverOf, measure, paddockOf, withAggregatedFloor, type ListResult, type Target } from './list';
import type { ServingProcess } from './sched';
import { ownerName, ownerOfTenant, tenantName, type BenchConfig } from './scenarios';
import { ratio, round } from './stats';
import { watchFanout, type Phase, type WatchResult, type WatchWorld } from './watch';
import type { CapsuleProxy, CapsuleProxyResult, OwnershipChange, WatchObservation } from './capsule-proxy';
import { eachJsonLine } from '../src/testing/lines';

const five = (config: BenchConfig) => (n: number) => n === config.namespacesPerTenant;

/** The floor of any request through kube-apiserver, in the owner list's rounds. */
const VERSION_FLOOR_TARGET = 'kube-apiserver /version (floor of any request through it)';

/**
 * The owner list: alice (owner of one tenant of 5 namespaces) lists namespaces through capsule-proxy
 * (`kubectl get ns` against it: Table and JSON) and tenantnamespaces through Paddock, directly and
 * through kube-apiserver (`kubectl get tns`: Table and JSON), interleaved as every list scenario.
 */
export async function capsuleOwnerList(cluster: BenchCluster, cp: CapsuleProxy, config: BenchConfig, size: number): Promise<ListResult> {
  const alice = cluster.userCert('alice');
  const viaProxy = cluster.client(cp.url, alice);
  const direct = cluster.client(cluster.paddockUrl, alice);
  const viaApiserver = cluster.client(cluster.state.server, alice);
  const expect = five(config);
  const targets: Target[] = [
    { name: 'Paddock direct, Table', role: 'paddock', client: direct, path: TNS, accept: ACCEPT_TABLE, expectRows: expect },
    { name: 'Paddock via kube-apiserver, Table', role: 'paddock', client: viaApiserver, path: TNS, accept: ACCEPT_TABLE, expectRows: expect },
    { name: 'Paddock direct, JSON', role: 'paddock', client: direct, path: TNS, accept: ACCEPT_JSON, expectRows: expect },
    { name: 'Paddock via kube-apiserver, JSON', role: 'paddock', client: viaApiserver, path: TNS, accept: ACCEPT_JSON, expectRows: expect },
    { name: 'capsule-proxy namespaces, Table', role: 'baseline', client: viaProxy, path: '/api/v1/namespaces', accept: ACCEPT_TABLE, expectRows: expect, watchCache: 'namespaces' },
    { name: 'capsule-proxy namespaces, JSON', role: 'baseline', client: viaProxy, path: '/api/v1/namespaces', accept: ACCEPT_JSON, expectRows: expect, watchCache: 'namespaces' },
    // The floor of any request through kube-apiserver (its TLS, authentication, authorization, priority
    // and fairness, audit), for reading the hop: Paddock through kube-apiserver ≈ this + the proxying + Paddock.
    { name: VERSION_FLOOR_TARGET, role: 'baseline', client: viaApiserver, path: '/version', accept: ACCEPT_JSON, expectRows: (n) => n === 0 },
  ];
  try {
    // And the floor of an aggregated request, as scenario 1 measures it: alice's Table from memory,
    // through the APIService path Paddock's requests take.
    return await withAggregatedFloor(cluster, viaApiserver, expect, async (floor) => {
      const o = config.ownerList;
      return { scenario: 'owner-list', size, ...o, targets: await measure([...targets, floor], { ...o, scenario: `capsule owner list at ${size}`, kubeApiserver: kubeApiserverOf(cluster, cp.url), proxy: proxyOf(cp), paddock: paddockOf(cluster) }) };
    });
  } finally {
    for (const c of [viaProxy, direct, viaApiserver]) c.close();
  }
}

/**
 * capsule-proxy ÷ Paddock through kube-apiserver, Table and JSON (higher is better for Paddock); and the
 * ceilings of the Table ratios in the same requests' rounds: capsule-proxy ÷ kube-apiserver's /version,
 * what any request through kube-apiserver could reach, and capsule-proxy ÷ the aggregated floor, what a
 * server behind kube-apiserver's aggregator that took no time at all reached (runs before it had none).
 */
export function ownerListRatios(r: ListResult): OwnerListRatios {
  const t = (name: string) => r.targets.find((x) => x.target === name)?.latency;
  const [cpTable, cpJson] = [t('capsule-proxy namespaces, Table')!, t('capsule-proxy namespaces, JSON')!];
  const [pTable, pJson] = [t('Paddock via kube-apiserver, Table')!, t('Paddock via kube-apiserver, JSON')!];
  const floor = t(VERSION_FLOOR_TARGET)!;
  const aggregated = t(AGGREGATED_FLOOR_TARGET);
  return {
    ratioP50: ratio(cpTable.p50, pTable.p50), ratioP99: ratio(cpTable.p99, pTable.p99), ratioJsonP50: ratio(cpJson.p50, pJson.p50), ratioJsonP99: ratio(cpJson.p99, pJson.p99),
    ceilingP50: ratio(cpTable.p50, floor.p50), ceilingP99: ratio(cpTable.p99, floor.p99),
    ...(aggregated ? {
      aggregatedCeilingP50: ratio(cpTable.p50, aggregated.p50), aggregatedCeilingP99: ratio(cpTable.p99, aggregated.p99),
      overAggregatedFloorP50: ratio(pTable.p50, aggregated.p50), overAggregatedFloorP99: ratio(pTable.p99, aggregated.p99),
    } : {}),
  };
}

/** The owner list's ceilings in its rounds, in words (the reports and the log). */
export function ceilingsText(r: OwnerListRatios): string {
  return `the ceiling, capsule-proxy ÷ kube-apiserver's /version: p50 ${r.ceilingP50}×, p99 ${r.ceilingP99}×` + (r.aggregatedCeilingP50 === undefined ? '' :
    `; capsule-proxy ÷ the aggregated floor (a server behind kube-apiserver's aggregator answering Paddock's bytes from memory): p50 ${r.aggregatedCeilingP50}×, p99 ${r.aggregatedCeilingP99}×, ` +
    `and Paddock through kube-apiserver ÷ that floor: p50 ${r.overAggregatedFloorP50}×, p99 ${r.overAggregatedFloorP99}×`);
}

export interface OwnerListRatios {
  ratioP50: number;
  ratioP99: number;
  ratioJsonP50: number;
  ratioJsonP99: number;
  /** capsule-proxy ÷ kube-apiserver's /version (Table): the most any request through kube-apiserver could reach. */
  ceilingP50: number;
  ceilingP99: number;
  /** capsule-proxy ÷ the aggregated floor (Table): what a server behind the aggregator that takes no time reached. */
  aggregatedCeilingP50?: number;
  aggregatedCeilingP99?: number;
  /** Paddock through kube-apiserver ÷ the aggregated floor, in the same rounds (lower is better; 1 is the floor). */
  overAggregatedFloorP50?: number;
  overAggregatedFloorP99?: number;
}

/**
 * The admin list: an admin (system:masters, not a Capsule user: capsule-proxy passes the request on,
 * impersonating the admin) lists every namespace through capsule-proxy, and every tenantnamespace
 * through Paddock, directly and through kube-apiserver.
 */
export async function capsuleAdminList(cluster: BenchCluster, cp: CapsuleProxy, config: BenchConfig, size: number): Promise<ListResult> {
  const viaProxy = cluster.client(cp.url, cluster.state.pki.users.admin);
  const all = (n: number) => n === size;
  const allAndSystem = (n: number) => n >= size;
  const targets: Target[] = [
    { name: 'Paddock direct, Table', role: 'paddock', client: cluster.paddockAdmin!, path: TNS, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'Paddock via kube-apiserver, Table', role: 'paddock', client: cluster.admin, path: TNS, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'Paddock direct, JSON', role: 'paddock', client: cluster.paddockAdmin!, path: TNS, accept: ACCEPT_JSON, expectRows: all },
    { name: 'Paddock via kube-apiserver, JSON', role: 'paddock', client: cluster.admin, path: TNS, accept: ACCEPT_JSON, expectRows: all },
    { name: 'capsule-proxy namespaces, Table', role: 'baseline', client: viaProxy, path: '/api/v1/namespaces', accept: ACCEPT_TABLE, expectRows: allAndSystem, watchCache: 'namespaces' },
    { name: 'capsule-proxy namespaces, JSON', role: 'baseline', client: viaProxy, path: '/api/v1/namespaces', accept: ACCEPT_JSON, expectRows: allAndSystem, watchCache: 'namespaces' },
  ];
  const o = config.adminList;
  const result: ListResult = { scenario: 'admin-list', size, ...o, targets: await measure(targets, { ...o, warmup: 2, scenario: `capsule admin list at ${size}`, kubeApiserver: kubeApiserverOf(cluster, cp.url), proxy: proxyOf(cp), paddock: paddockOf(cluster) }) };
  viaProxy.close();
  return result;
}

export const CAPSULE_WATCH_TARGET = 'capsule-proxy namespaces';

/** capsule-proxy as a list measurement reads it: its threads around each request to it (a tail's cause). */
function proxyOf(cp: CapsuleProxy): ServingProcess & { url: string } {
  return { name: 'capsule-proxy', pid: cp.pid, url: cp.url };
}

/**
 * The watch fan-out at each of `fanouts` (watchers per owner), capsule-proxy as the baseline: each owner's
 * watchers watch namespaces through it. `extra` phases follow it (the Node.js relay floor, so that it is
 * measured beside capsule-proxy).
 */
export async function capsuleWatch(cluster: BenchCluster, cp: CapsuleProxy, config: BenchConfig, size: number, world: WatchWorld, fanouts: number[], extra: readonly Phase[] = []): Promise<WatchResult> {
  const owners = Array.from({ length: config.owners }, (_, i) => ownerName(i));
  const agents = new Map<string, Client>(owners.map((o) => [o, cluster.client(cp.url, cluster.userCert(o), Math.max(...fanouts) + 2)]));
  try {
    return await watchFanout(cluster, config, size, world, {
      fanouts,
      scenario: 'capsule watch',
      baseline: {
        target: CAPSULE_WATCH_TARGET, role: 'baseline', proxy: proxyOf(cp),
        watchesOf: (owner) => ({ agent: agents.get(owner)!.agent, url: `${cp.url}/api/v1/namespaces?watch=1` }),
      },
      extra,
    });
  } finally {
    for (const c of agents.values()) c.close();
  }
}



interface Recorder {
  req: ReturnType<typeof request>;
  events: { at: number; type: string; name: string; seq?: string }[];
}

function record(agent: Agent, url: string): Promise<Recorder> {
  return new Promise((resolveOpen, reject) => {
    const events: Recorder['events'] = [];
    const req = request(url, { agent, headers: { Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${url}: ${res.statusCode}`));
        res.resume();
        return;
      }
      eachJsonLine<{ type: string; object?: { metadata?: { name?: string; labels?: Record<string, string> } } }>(res, (e, at) =>
        events.push({ at, type: e.type, name: e.object?.metadata?.name ?? '', seq: e.object?.metadata?.labels?.['bench.paddock.dev/seq'] }));
      res.on('error', () => {});
      resolveOpen({ req, events });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Ownership changes on open watches: the owner of one tenant is replaced (on the Paddock Tenant and,
 * as the Capsule controller would, on the Capsule Tenant and its status) while both owners have a watch
 * open through Paddock and through capsule-proxy; then a label changes on one of the tenant's namespaces.
 * Reports what each watch saw (observed behaviour, not an assertion); restores the owner afterwards.
 */
export async function ownershipChange(cluster: BenchCluster, cp: CapsuleProxy, config: BenchConfig): Promise<OwnershipChange> {
  const tenant = tenantName(1);
  const from = ownerOfTenant(config, 1);
  const to = 'carol';
  const namespaces = Array.from({ length: config.namespacesPerTenant }, (_, n) => `${tenant}-n${n}`);
  const clients: Client[] = [];
  const clientFor = (base: string, user: string) => {
    const c = cluster.client(base, cluster.userCert(user), 4);
    clients.push(c);
    return c;
  };
  const rv = (await cluster.admin.getJson<{ metadata: { resourceVersion: string } }>('/api/v1/namespaces?limit=1')).metadata.resourceVersion;
  const paddockRv = (await cluster.paddockAdmin!.getJson<{ metadata: { resourceVersion: string } }>(`${TNS}?limit=1`)).metadata.resourceVersion;
  const watches: [string, Recorder][] = [];
  for (const user of [from, to]) {
    watches.push([`Paddock (tenantnamespaces), ${user === from ? 'previous' : 'new'} owner ${user}`, await record(clientFor(cluster.paddockUrl, user).agent, `${cluster.paddockUrl}${TNS}?watch=1&resourceVersion=${paddockRv}`)]);
    watches.push([`capsule-proxy (namespaces), ${user === from ? 'previous' : 'new'} owner ${user}`, await record(clientFor(cp.url, user).agent, `${cp.url}/api/v1/namespaces?watch=1&resourceVersion=${rv}`)]);
  }
  await sleep(1000);
  const changedAt = performance.now();
  const setOwner = async (owner: string) => {
    const res = await cluster.admin.patchJson<{ message?: string }>(`/apis/paddock.dev/v1alpha1/tenants/${tenant}`, { spec: { owners: [{ kind: 'User', name: owner }] } });
    if (res.status !== 200) throw new Error(`Tenant ${tenant}: ${res.status} ${res.body.message ?? ''}`);
    await cp.setTenant(tenant, owner, namespaces);
  };
  const seqLabel = 'bench.paddock.dev/seq';
  try {
    await setOwner(to);
    await cluster.waitTenantsReady(new Set([tenant]), 60_000);
    await sleep(2000);
    const marker = 'ownership-1';
    const patched = await cluster.admin.patchJson(`/api/v1/namespaces/${namespaces[0]}`, { metadata: { labels: { [seqLabel]: marker } } });
    if (patched.status !== 200) throw new Error(`PATCH namespace ${namespaces[0]}: ${patched.status}`);
    await sleep(3000);
    const listed = await clientFor(cp.url, to).get('/api/v1/namespaces');
    const newOwnerListRows = listed.status === 200 ? (JSON.parse(listed.body.toString('utf8')) as { items: unknown[] }).items.length : -1;
    const observations: WatchObservation[] = watches.map(([watch, r]) => {
      const after = r.events.filter((e) => e.at >= changedAt && namespaces.includes(e.name));
      const events: Record<string, number> = {};
      for (const e of after) events[e.type] = (events[e.type] ?? 0) + 1;
      return { watch, events, sawLaterChange: after.some((e) => e.seq === marker && e.type !== 'DELETED') };
    });
    const o = (prefix: string) => observations.filter((x) => x.watch.startsWith(prefix));
    const describe = (xs: WatchObservation[]) => xs.map((x) => `${x.watch.replace(/^.*, /, '')}: ${Object.entries(x.events).map(([k, v]) => `${v} ${k}`).join(', ') || 'no events'}${x.sawLaterChange ? ', saw the later change' : ', did not see the later change'}`).join('; ');
    const summary = `Paddock — ${describe(o('Paddock'))}. capsule-proxy — ${describe(o('capsule-proxy'))}; a new list by ${to} through capsule-proxy returns ${newOwnerListRows} namespaces.`;
    return { tenant, from, to, observations, newOwnerListRows, summary };
  } finally {
    for (const [, r] of watches) r.req.destroy();
    await setOwner(from);
    await cluster.waitTenantsReady(new Set([tenant]), 60_000);
    for (const c of clients) c.close();
  }
}

/** The bench's own Markdown section for scenario 7. */
export function capsuleProxyMarkdown(r: CapsuleProxyResult, listTable: (results: ListResult[]) => string, watchTable: (w: WatchResult) => string): string {
  const out: string[] = ['## 7. capsule-proxy', ''];
  if (r.skipped) {
    out.push(`Skipped: ${r.skipped}`, '');
    return out.join('\n');
  }
  const f = (x: number) => (Number.isFinite(x) ? String(round(x)) : '–');
  out.push(`capsule-proxy ${r.version}, built from source and run out of cluster beside Paddock, for the same owners and namespaces, measured in the same run. ${r.how ?? ''} ` +
    '"vs baseline" is capsule-proxy ÷ Paddock, same encoding (higher is better for Paddock).', '');
  if (r.ownerList) {
    const ol = r.ownerList;
    out.push('### Owner list', '', `alice's \`kubectl get ns\` through capsule-proxy against \`kubectl get tns\` through Paddock (directly and through kube-apiserver), Table and JSON. ` +
      `capsule-proxy ÷ Paddock through kube-apiserver at ${ol.size} namespaces: Table p50 **${f(ol.ratioP50)}×**, p99 ${f(ol.ratioP99)}×; JSON p50 ${f(ol.ratioJsonP50)}×, p99 ${f(ol.ratioJsonP99)}×; ${ceilingsText(ol)} (Tables). ` +
      'The last row of each size is kube-apiserver\'s `/version` for alice, the floor of any request through kube-apiserver: Paddock through kube-apiserver is about that floor, plus the proxying, plus Paddock.', '', listTable(ol.sizes), '');
  }
  if (r.adminList) out.push('### Admin list', '', 'An admin (system:masters; not a Capsule user, so capsule-proxy passes the request on impersonating it) lists everything.', '', listTable([r.adminList]), '');
  if (r.watch) {
    out.push('### Watch fan-out', '', `${r.watch.owners} owners, at each fan-out of scenario 3 (${[...new Set(r.watch.phases.map((p) => p.watchers))].join(' and ')} watchers), the same changes; the baseline phase watches namespaces through capsule-proxy with the owner's certificate ` +
      '(capsule-proxy adds `labelSelector=kubernetes.io/metadata.name in (<the owner\'s namespaces>)` once, when the watch opens); where a phase of the Node.js relay floor follows, it is that of scenario 3, measured again beside capsule-proxy. RSS columns are Paddock\'s and kube-apiserver\'s.', '', watchTable(r.watch), '');
  }
  if (r.ownershipChange) {
    const oc = r.ownershipChange;
    out.push('### Ownership change on an open watch (observed behaviour)', '', `Tenant ${oc.tenant} moves from ${oc.from} to ${oc.to} while both have a watch open through each; then a label changes on one of its namespaces.`, '',
      '| watch | events about the tenant\'s namespaces after the move | saw the later change |', '| --- | --- | --- |',
      ...oc.observations.map((x) => `| ${x.watch} | ${Object.entries(x.events).map(([k, v]) => `${v} ${k}`).join(', ') || 'none'} | ${x.sawLaterChange ? 'yes' : 'no'} |`), '',
      `A new list by ${oc.to} through capsule-proxy after the move: ${oc.newOwnerListRows} namespaces.`, '');
  }
  return out.join('\n');
}
