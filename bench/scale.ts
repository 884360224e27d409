import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { REF_BY_KIND } from '../src/controller/writer';
import { resourcePath } from '../src/kube/resources';
import { metaTime } from '../src/kube/time';
import { PADDOCK, type KubeObject, type NamespaceClaim, type Tenant } from '../src/kube/types';
import { desiredState, tenantStatus } from '../src/tenancy';
import { unresolvedReferences } from '../src/tenancy/references';
import { admissionObjects } from '../src/tenancy/admission-policies';
import { sleep } from '../test/controlplane/processes';
import { benchTenant, type AuditWrites, type BenchCluster, type PaddockFlags } from './cluster';
import { pool, type Client } from './http';
import { adminList, ownerList, type ListResult } from './list';
import { memoryPoint, type MemoryOptions, type MemoryPoint } from './memory';
import { memoryOf, metricSum } from './proc';
import { ownerName, ownerOfTenant, tenantName, type BenchConfig } from './scenarios';
import { round } from './stats';
import type { TailsResult } from './tails';
import { watchFanout, type WatchResult, type WatchWorld } from './watch';
import type { CapsuleProxyBuild } from './capsule-proxy';
import { scaleCapsuleProxy, scaleCapsuleProxyMarkdown, type ScaleCapsuleProxyResult } from './scale-capsule-proxy';

/** The scale scenario's knobs (`npm run bench -- --only=scale --scale=N`). */
export interface ScaleConfig {
  /** Tenant namespaces wanted (5 per Tenant); the run goes as high as the control plane holds. */
  namespaces: number;
  /** Tenants whose objects are created at once (each: its Tenant, 5 namespaces, 20 guardrails, its status). */
  concurrency: number;
  flags: PaddockFlags;
  /** How long Paddock may take to list everything (process start → /readyz). */
  readyTimeoutMs: number;
  /** Building stops starting Tenants after this long; the cluster is measured at the size it reached. */
  buildBudgetMs: number;
}

export const SCALE_DEFAULTS: Omit<ScaleConfig, 'namespaces'> = {
  concurrency: 24,
  flags: { qps: 1000, burst: 2000, workers: 16, resyncPeriod: '10m' },
  readyTimeoutMs: 30 * 60_000,
  buildBudgetMs: 120 * 60_000,
};

/**
 * The controllers of the scale cluster: the default ones less the ServiceAccount and root-CA publishers,
 * which would add a ServiceAccount and a ConfigMap to each of the 100k namespaces (kube-apiserver's
 * memory, not Paddock's: Paddock watches neither). The quota controller stays, at its default 5 min.
 */
export const SCALE_CONTROLLERS = ['namespace-controller', 'garbage-collector-controller', 'resourcequota-controller', 'clusterrole-aggregation-controller'];
export const SCALE_CONTROLLER_ARGS = ['--resource-quota-sync-period=5m'];

/**
 * kube-apiserver's soft memory limit in the scale scenario (GOMEMLIMIT, bytes): 60% of the machine's
 * memory. Without one it held 19 GiB of a 24-GiB machine at 100k namespaces (its garbage collected
 * only at twice its live heap, and the 100k-row lists left much of it), and once capsule-proxy was
 * started beside it the machine had 129 MiB left and capsule-proxy's first list got no answer in 60 s.
 * A control plane has its machine to itself; on this one the rest must fit beside it.
 */
export const SCALE_APISERVER_MEMORY_LIMIT = Math.round(totalmem() * 0.6);

/** The GOMEMLIMIT (in bytes, as SCALE_APISERVER_MEMORY_LIMIT sets it) a process was started with, read from its environment. */
function goMemoryLimitOf(pid: number): { kubeApiserverMemoryLimitMiB?: number } {
  const entry = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').find((e) => e.startsWith('GOMEMLIMIT='));
  const bytes = Number(entry?.slice('GOMEMLIMIT='.length));
  return Number.isFinite(bytes) && bytes > 0 ? { kubeApiserverMemoryLimitMiB: round(bytes / 2 ** 20) } : {};
}

export interface ScaleResult {
  scenario: 'scale';
  buildBudgetMinutes: number;
  /** Tenant namespaces in the cluster when Paddock was measured (the largest size reached). */
  namespaces: number;
  requestedNamespaces: number;
  tenants: number;
  /** Why the build stopped short of the requested size, if it did (a failure, or the time budget). */
  brokeAt?: string;
  build: {
    how: string;
    seconds: number;
    /** Objects created (Tenants, namespaces, guardrails) plus Tenant status writes. */
    requests: number;
    requestsPerSecond: number;
  };
  flags: PaddockFlags;
  /** Paddock process start → /readyz 200 (every informer listed and synced). */
  readySeconds: number;
  /** Process start → every Tenant reconciled once and the workqueue empty. */
  firstPassSeconds: number;
  /** Paddock's writes from its start until its first full pass was done (audit log); 0 on a converged cluster. */
  startWrites: { total: number; byResource: Record<string, number> };
  heapBytesPerNamespace: number;
  heapUsedMiB: number;
  rssMiB: number;
  peakRssMiB: number;
  kubeApiserverRssMiB: number;
  /** kube-apiserver's soft memory limit (GOMEMLIMIT, see SCALE_APISERVER_MEMORY_LIMIT), when it had one. */
  kubeApiserverMemoryLimitMiB?: number;
  etcdRssMiB: number;
  memory: MemoryPoint[];
  ownerList: ListResult;
  adminList: ListResult;
  /** The tails of every sequential list request and watch delivery of the scenario, capsule-proxy's part included. */
  tails?: TailsResult;
  watch?: WatchResult;
  /** capsule-proxy beside Paddock at this size (when built; see bench/README.md, scenario 7). */
  capsuleProxy?: ScaleCapsuleProxyResult;
}

type Log = (line: string) => void;

/**
 * Creates `spec` (a Tenant, given Paddock's finalizer) and its namespaces, guardrails and status directly
 * through kube-apiserver, as Paddock would have made them: namespaces and guardrails from `desiredState`,
 * then the status Paddock computes, with claims proven by the namespace UIDs. Returns the Tenant as
 * created (with its UID) and the requests sent.
 */
export async function buildTenant(client: Client, spec: Tenant, now: Date): Promise<{ tenant: Tenant; requests: number }> {
  const name = spec.metadata.name;
  const created = await client.postJson<Tenant & { message?: string }>('/apis/paddock.dev/v1alpha1/tenants', { ...spec, metadata: { ...spec.metadata, finalizers: [PADDOCK.finalizer] } });
  if (created.status !== 201) throw new Error(`creating Tenant ${name}: ${created.status} ${created.body.message ?? ''}`);
  const tenant = created.body;
  const desired = desiredState(tenant, (tenant.spec.namespaces ?? []).map((n) => ({ name: `${name}-${n}`, origin: 'Declared' as const })));
  if (!desired.valid) throw new Error(`Tenant ${name} is not valid`);
  const post = async (obj: KubeObject): Promise<KubeObject> => {
    const ref = REF_BY_KIND[obj.kind!]!;
    const res = await client.postJson<KubeObject & { message?: string }>(resourcePath(ref, { namespace: obj.metadata.namespace }), obj);
    if (res.status !== 201) throw new Error(`creating ${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name}: ${res.status} ${res.body.message ?? ''}`);
    return res.body;
  };
  const claims: NamespaceClaim[] = [];
  for (const ns of await Promise.all(desired.namespaces.map((n) => post(n.namespace)))) {
    claims.push({ name: ns.metadata.name, origin: 'Declared', claimedAt: metaTime(now), uid: ns.metadata.uid });
  }
  await Promise.all(desired.namespaces.flatMap((n) => n.guardrails.map((g) => post(g))));
  // The status Paddock itself would write after provisioning them: claims proven by UID, Ready, and
  // the references resolved against the bench cluster (it has no classes and no nodes).
  const unresolved = unresolvedReferences(tenant, { classes: () => [], nodeMatches: () => false });
  const observed = { namespaces: claims.map((c) => c.name).sort(), conflicts: [], missing: [], drifted: [], overQuota: [], keptOverQuota: [], claims, allowed: {}, unresolved };
  const status = tenantStatus(tenant, desired, observed, now);
  const res = await client.send('PUT', `/apis/paddock.dev/v1alpha1/tenants/${name}/status`, { 'Content-Type': 'application/json', Accept: 'application/json' }, JSON.stringify({ ...tenant, status }));
  if (res.status !== 200) throw new Error(`writing the status of Tenant ${name}: ${res.status} ${res.body.toString('utf8').slice(0, 200)}`);
  return { tenant, requests: 2 + desired.namespaces.length + desired.namespaces.reduce((n, d) => n + d.guardrails.length, 0) };
}

/** What a bulk build made: the indices built completely, and why it stopped short, if it did. */
export interface BulkBuild {
  built: number[];
  requests: number;
  seconds: number;
  brokeAt?: string;
}

/**
 * Runs `buildOne` (which returns the requests it sent) over `indices`, `concurrency` at once, directly
 * through kube-apiserver (not through Paddock's reconciler, which its client rate limit would hold to a
 * few hundred writes a second). Stops at the first failure, or when `budgetMs` has run out, and reports
 * how far it got: only items built completely count. `size` describes a number of items built.
 */
export async function buildInBulk(indices: readonly number[], concurrency: number, budgetMs: number, log: Log, buildOne: (i: number) => Promise<number>, size: (built: number) => string): Promise<BulkBuild> {
  const started = performance.now();
  let built = 0;
  let requests = 0;
  let failure: string | undefined;
  let lastReport = started;
  const done = new Set<number>();
  await pool(indices, concurrency, async (i) => {
    if (failure) return;
    if (performance.now() - started > budgetMs) {
      failure = `the build time budget (${round(budgetMs / 60_000)} min) ran out at ${size(built)}`;
      return;
    }
    try {
      const sent = await buildOne(i);
      requests += sent;
      done.add(i);
      built++;
    } catch (err) {
      failure ??= `${size(built)}: ${err instanceof Error ? err.message : String(err)}`;
      return;
    }
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      const s = (lastReport - started) / 1000;
      log(`  ${built}/${indices.length} built (${size(built)}), ${round(requests / s)} requests/s`);
    }
  });
  return { built: [...done].sort((x, y) => x - y), requests, seconds: (performance.now() - started) / 1000, brokeAt: failure };
}

/**
 * The cluster-wide admission policies and bindings Paddock keeps while any Tenant exists, created as it
 * would (policies before the bindings that name them), so that Paddock starts on a converged cluster.
 */
async function buildAdmission(client: Client): Promise<void> {
  for (const obj of admissionObjects()) {
    const res = await client.postJson<{ message?: string }>(resourcePath(REF_BY_KIND[obj.kind!]!, {}), obj);
    if (res.status !== 201) throw new Error(`creating ${obj.kind} ${obj.metadata.name}: ${res.status} ${res.body.message ?? ''}`);
  }
}

/**
 * Tenants 0..`tenants`-1 of the scale cluster, built in bulk, then the admission objects (last: every
 * create before them would be evaluated by them, to no purpose, as nothing is restricted).
 */
async function build(c: BenchCluster, config: BenchConfig, tenants: number, concurrency: number, budgetMs: number, log: Log): Promise<BulkBuild> {
  const client = c.client(c.state.server, c.state.pki.users.admin, 64);
  const now = new Date();
  const order = Array.from({ length: tenants }, (_, i) => i);
  const buildOne = async (i: number) => (await buildTenant(client, benchTenant(tenantName(i), [ownerOfTenant(config, i)], config.namespacesPerTenant) as Tenant, now)).requests;
  const built = await buildInBulk(order, concurrency, budgetMs, log, buildOne, (n) => `${n * config.namespacesPerTenant} namespaces`);
  await buildAdmission(client);
  return built;
}

/** Waits until a running Paddock has reconciled `tenants` Tenants and its workqueue is empty. */
export async function waitFirstPass(c: BenchCluster, tenants: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await c.paddockMetrics();
    if (metricSum(text, 'paddock_reconcile_total', ['controller', 'tenants']) >= tenants && metricSum(text, 'paddock_workqueue_depth') === 0) return;
    if (Date.now() > deadline) throw new Error(`Paddock did not reconcile ${tenants} Tenants in ${timeoutMs} ms`);
    await sleep(1000);
  }
}

/**
 * The scale scenario: a cluster of `namespaces` tenant namespaces (5 per Tenant, 20 guardrails each)
 * built directly through kube-apiserver, then Paddock started cold on it. Measured: process start →
 * /readyz, its first full pass (and the writes it made: none on a converged cluster), heap and RSS,
 * owner and admin lists beside kube-apiserver's, and watch fan-out with 1000 watchers.
 */
export async function scaleScenario(c: BenchCluster, config: BenchConfig, scale: ScaleConfig, log: Log, memoryOptions: MemoryOptions = {}, capsule?: CapsuleProxyBuild): Promise<ScaleResult> {
  const wanted = Math.ceil(scale.namespaces / config.namespacesPerTenant);
  for (let i = 0; i < config.owners; i++) c.userCert(ownerName(i));
  // Paddock on the empty cluster: the heap every size is compared with.
  await c.startPaddock(scale.flags, 'paddock-scale-empty');
  const memory: MemoryPoint[] = [await memoryPoint(c, 0)];
  await c.stopPaddock();

  log(`building ${wanted * config.namespacesPerTenant} namespaces (${wanted} Tenants) directly through kube-apiserver`);
  const b = await build(c, config, wanted, scale.concurrency, scale.buildBudgetMs, log);
  const namespaces = b.built.length * config.namespacesPerTenant;
  log(`  built ${b.built.length} Tenants (${namespaces} namespaces) in ${round(b.seconds)} s${b.brokeAt ? `; stopped at ${b.brokeAt}` : ''}`);
  if (b.built[0] !== 0 || b.built.length < 2) throw new Error(`the scale cluster could not be built: ${b.brokeAt ?? 'no Tenants'}`);

  log(`starting Paddock on ${namespaces} namespaces (cold cache)`);
  const offset = c.auditOffset();
  const t0 = performance.now();
  // With PADDOCK_BENCH_PROFILE_DIR set: a CPU profile of the cold start, from the process's start to /readyz.
  await c.startPaddock(scale.flags, 'paddock-scale', scale.readyTimeoutMs, true, true);
  const readySeconds = (performance.now() - t0) / 1000;
  c.toggleProfile();
  log(`  /readyz after ${round(readySeconds)} s; waiting for the first pass over ${b.built.length} Tenants`);
  await waitFirstPass(c, b.built.length, 30 * 60_000);
  const firstPassSeconds = (performance.now() - t0) / 1000;
  await sleep(2000);
  const writes: AuditWrites = c.paddockWrites(offset);
  log(`  first pass after ${round(firstPassSeconds)} s, ${writes.total} writes`);
  for (;;) {
    const rows = await c.paddockRows();
    if (rows === namespaces) break;
    if (performance.now() - t0 > 40 * 60_000) throw new Error(`Paddock serves ${rows} rows, not ${namespaces}`);
    await sleep(2000);
  }

  const point = await memoryPoint(c, namespaces, memoryOptions);
  memory.push(point);
  const peakRssMiB = round(memoryOf(c.paddock!.pid).hwmMiB);
  log(`  heap ${point.heapUsedMiB} MiB after GC, RSS ${point.rssMiB} MiB`);

  log(`owner list at ${namespaces}`);
  const owner = await ownerList(c, config, namespaces);
  log(`admin list at ${namespaces}`);
  const adminRequests = { sequential: 10, burst: 8, concurrency: 4 };
  const admin = await adminList(c, { ...config, adminList: adminRequests }, namespaces);

  log(`watch fan-out at ${namespaces}: ${config.owners * config.watch.watchersPerOwner} watchers`);
  const world: WatchWorld = { namespaces: [], tenantsOf: new Map() };
  for (const i of b.built) {
    if (i === 0) continue; // alice's: the watchers are u000…'s
    const o = ownerOfTenant(config, i);
    const t = tenantName(i);
    world.tenantsOf.set(o, [...(world.tenantsOf.get(o) ?? []), t]);
    for (let n = 0; n < config.namespacesPerTenant; n++) world.namespaces.push({ name: `${t}-n${n}`, tenant: t, owner: o });
  }
  const watch = await watchFanout(c, config, namespaces, world);
  // capsule-proxy's part failing (its requests, kube-apiserver under the load of its Tenants) keeps Paddock's results.
  const capsuleProxy = capsule
    ? await scaleCapsuleProxy(c, capsule, config, b.built, namespaces, world, adminRequests, scale.concurrency, log).catch((err: Error): ScaleCapsuleProxyResult => {
      log(`  capsule-proxy's part failed: ${err.message}`);
      return { version: 'none', skipped: `failed: ${err.message.slice(0, 500)}` };
    })
    : undefined;

  return {
    scenario: 'scale',
    buildBudgetMinutes: round(scale.buildBudgetMs / 60_000),
    namespaces,
    requestedNamespaces: scale.namespaces,
    tenants: b.built.length,
    ...(b.brokeAt ? { brokeAt: b.brokeAt } : {}),
    build: {
      how: 'created by the benchmark directly through kube-apiserver as Paddock would have made them (the admission policies and bindings; each Tenant with finalizer, namespaces, guardrails, then its status with the claims proven by the namespace UIDs), not through the reconciler',
      seconds: round(b.seconds),
      requests: b.requests,
      requestsPerSecond: round(b.requests / b.seconds),
    },
    flags: scale.flags,
    readySeconds: round(readySeconds),
    firstPassSeconds: round(firstPassSeconds),
    startWrites: { total: writes.total, byResource: writes.byResource },
    heapBytesPerNamespace: round((point.heapUsedBytes - memory[0].heapUsedBytes) / namespaces),
    heapUsedMiB: point.heapUsedMiB,
    rssMiB: point.rssMiB,
    peakRssMiB,
    kubeApiserverRssMiB: round(memoryOf(c.state.pids.apiserver).rssMiB),
    ...goMemoryLimitOf(c.state.pids.apiserver),
    etcdRssMiB: round(memoryOf(c.state.pids.etcd).rssMiB),
    memory,
    ownerList: owner,
    adminList: admin,
    watch,
    ...(capsuleProxy ? { capsuleProxy } : {}),
  };
}

/** Rows for the Markdown report. */
export function scaleMarkdown(
  r: ScaleResult, listTable: (results: ListResult[]) => string, watchTable: (w: WatchResult) => string, tailsTables: (t: TailsResult) => string,
): string {
  const direct = r.ownerList.targets.find((t) => t.target === 'Paddock direct');
  const paddockWatch = r.watch?.phases.find((p) => p.role === 'paddock');
  const baseWatch = r.watch?.phases.find((p) => p.role === 'baseline');
  const rows: [string, string][] = [
    ['namespaces / Tenants', `${r.namespaces} / ${r.tenants}${r.namespaces < r.requestedNamespaces ? ` (of ${r.requestedNamespaces} requested)` : ''}`],
    ['how the cluster was built', `${r.build.how}; ${r.build.requests} requests in ${r.build.seconds} s (${r.build.requestsPerSecond}/s)`],
    ...(r.brokeAt ? [['where it stopped', r.brokeAt] as [string, string]] : []),
    ['Paddock flags', `--qps=${r.flags.qps} --burst=${r.flags.burst} --workers=${r.flags.workers}`],
    ['start → /readyz (caches synced)', `${r.readySeconds} s`],
    ['start → first pass over every Tenant done', `${r.firstPassSeconds} s`],
    ['writes in that first pass (audit log)', `${r.startWrites.total}${r.startWrites.total ? ` (${Object.entries(r.startWrites.byResource).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`],
    ['heap after GC / per namespace', `${r.heapUsedMiB} MiB / ${r.heapBytesPerNamespace} B`],
    ['Paddock RSS (peak)', `${r.rssMiB} MiB (${r.peakRssMiB} MiB)`],
    ['kube-apiserver / etcd RSS', `${r.kubeApiserverRssMiB} MiB / ${r.etcdRssMiB} MiB${r.kubeApiserverMemoryLimitMiB ? ` (kube-apiserver's GOMEMLIMIT ${r.kubeApiserverMemoryLimitMiB} MiB)` : ''}`],
    ['owner list p50 / p99 direct', direct ? `${round(direct.latency.p50)} / ${round(direct.latency.p99)} ms` : '–'],
    ...(paddockWatch ? [[`watch delivery p50 / p99, ${paddockWatch.watchers} watchers: Paddock; baseline`, `${round(paddockWatch.delivery.p50)} / ${round(paddockWatch.delivery.p99)} ms (${paddockWatch.delivered}/${paddockWatch.expected} delivered); ` +
      `${baseWatch ? round(baseWatch.delivery.p50) : '–'} / ${baseWatch ? round(baseWatch.delivery.p99) : '–'} ms (${baseWatch?.delivered ?? 0}/${baseWatch?.expected ?? 0})`] as [string, string]] : []),
  ];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    '## 9. Scale', '',
    `A cluster of ${r.namespaces} tenant namespaces on its own control plane (kube-controller-manager without the ServiceAccount and root-CA publishers), Paddock started cold on it.`, '',
    line(['measure', 'value']), line(['---', '---']), ...rows.map(line), '',
    listTable([r.ownerList, r.adminList]), '',
    ...(r.capsuleProxy ? [scaleCapsuleProxyMarkdown(r.capsuleProxy, listTable, watchTable)] : []),
    ...(r.tails ? [
      '### Tails at scale', '',
      `Every sequential list request and watch delivery of the scale scenario, capsule-proxy's part included, as the run's tails (above): ${r.tails.count} of ${r.tails.samples} samples over ${r.tails.factor}× their target's median, ${r.tails.explained} with a named cause.`, '',
      ...(r.tails.count ? [tailsTables(r.tails), ''] : []),
    ] : []),
  ].join('\n');
}

