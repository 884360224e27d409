import { performance } from 'node:perf_hooks';
import { PADDOCK, type Tenant } from '../src/kube/types';
import { admissionObjects, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from '../src/tenancy/admission-policies';
import { sleep } from '../test/controlplane/processes';
import { FLOOR_LABEL, FLOOR_PROBE, FLOOR_REFUSED, floorObjects } from './admission-floor';
import type { BenchCluster, PaddockFlags } from './cluster';
import { ACCEPT_JSON, pool, type Client, type Response } from './http';
import { shuffled } from './list';
import { memoryOf, waitQuiet } from './proc';
import { buildInBulk, buildTenant, waitFirstPass } from './scale';
import { GOALS, ownerName, tenantName, type BenchConfig } from './scenarios';
import { quantile, round } from './stats';

/**
 * The admission objects Paddock writes for `tenants` in the current design: the two policies and their
 * bindings, the same whatever the Tenants (each tenant namespace holds the parameter, a guardrail).
 */
const admissionLayout = (_tenants: readonly Tenant[]): AdmissionObject[] => admissionObjects();

type Log = (line: string) => void;
type State = 'with' | 'without';
type NamespaceKind = 'plain' | 'restricted';

const REGISTRY = 'registry.example.com';
/** What the measured Tenant allows while its registries are changed (the measured image is then refused). */
const OTHER_REGISTRY = 'registry.other.example';
const NODE_SELECTOR = { 'kubernetes.io/os': 'linux' };
/** The measured Pod: allowed in every restricted Tenant (its registry, the Tenant's nodeSelector). */
const IMAGE = `${REGISTRY}/bench/app:1`;
/** An image no Tenant allows: refused while kube-apiserver enforces the restrictions policy. */
const DISALLOWED_IMAGE = 'quay.io/bench/not-allowed:1';
/** A namespace outside every tenant. */
const PLAIN_NAMESPACE = 'bench-plain';
/** Paddock's flags for the propagation part (as in the scale scenario). */
const FLAGS: PaddockFlags = { qps: 1000, burst: 2000, workers: 16, resyncPeriod: '10m' };

const podBody = (image: string, nodeSelector?: Record<string, string>, name = 'bench-admission') => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image }], ...(nodeSelector ? { nodeSelector } : {}) },
});
const MEASURED_POD = podBody(IMAGE, NODE_SELECTOR);

/** Restricted Tenant `i`: one namespace, its registries and nodeSelector restricted. */
function restrictedTenant(i: number): Tenant {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Tenant',
    metadata: { name: tenantName(i) },
    spec: { owners: [{ kind: 'User', name: ownerName(i % 100) }], namespaces: ['app'], containerRegistries: { allowed: [REGISTRY] }, nodeSelector: { ...NODE_SELECTOR } },
  } as Tenant;
}
const namespaceOf = (tenant: string) => `${tenant}-app`;

export interface Percentiles {
  p50: number;
  p99: number;
}

/** One namespace kind at one size: pod-create latency with Paddock's admission objects in place and without. */
export interface AdmissionCell {
  withPolicies: Percentiles;
  withoutPolicies: Percentiles;
}

export interface AdmissionSize {
  /** Restricted Tenants in the cluster. */
  tenants: number;
  /** Policy bindings Paddock writes for them. */
  bindings: number;
  objectsByKind: Record<string, number>;
  /** Dry-run creates measured per namespace kind and state. */
  requests: number;
  plain: AdmissionCell;
  /** In a restricted Tenant's namespace; null with no Tenant. */
  restricted: AdmissionCell | null;
  /** After the last phase with the admission objects in place. */
  kubeApiserverRssMiB: number;
  /** With the admission objects in place: where kube-apiserver's admission time goes, per namespace kind. */
  plugins?: Partial<Record<NamespaceKind, PluginTimes>>;
  /** The same in the restricted namespace with trivial policies bound alike instead (admission-floor.ts). */
  floor?: PluginTimes;
}

/** Per admission plugin (kube-apiserver's own metric), milliseconds and invocations per measured request. */
export type PluginTimes = Record<string, { ms: number; calls: number }>;

/** Writing or deleting the admission objects, and how long kube-apiserver took to show it. */
export interface AdmissionTransition {
  tenants: number;
  to: State;
  objects: number;
  writeSeconds: number;
  /** From the last write to the positive event (refused / allowed again); absent with no Tenant to observe it in. */
  observedSeconds?: number;
}

export interface AdmissionPropagation {
  tenants: number;
  repetitions: number;
  /** Tenant update's response → first refused dry-run create in its namespace. */
  refused: Percentiles;
  /** Tenant changed back → first allowed create. */
  allowedAgain: Percentiles;
  /** Latency of one poll (a dry-run create): the resolution of the two above. */
  poll: Percentiles;
  /** Changes already in force at the first poll after the update's response, of 2 × repetitions. */
  atFirstPoll: number;
  paddockReadySeconds: number;
  /** Paddock's writes from its start through its first pass over every Tenant (0 on a converged cluster). */
  paddockStartWrites: number;
}

export interface AdmissionResult {
  scenario: 'admission';
  startedAt: string;
  kubernetes: string;
  config: BenchConfig['admission'];
  how: string;
  requestedTenants: number;
  brokeAt?: string;
  build: { seconds: number; requests: number; requestsPerSecond: number };
  byTenants: AdmissionSize[];
  /** In a restricted Tenant's namespace at the largest size. */
  withPolicies: Percentiles;
  withoutPolicies: Percentiles;
  transitions: AdmissionTransition[];
  propagation?: AdmissionPropagation;
}

const percentiles = (samples: number[]): Percentiles => {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: round(quantile(s, 0.5)), p99: round(quantile(s, 0.99)) };
};

const pathOf = (kind: string) => `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase().replace(/y$/, 'ie')}s`;
const isPolicy = (o: { kind?: string }) => !!o.kind?.endsWith('Policy');

function dryRunPod(client: Client, namespace: string, body: string): Promise<Response> {
  return client.send('POST', `/api/v1/namespaces/${namespace}/pods?dryRun=All`, { 'Content-Type': 'application/json', Accept: ACCEPT_JSON }, body);
}

/**
 * Refused while kube-apiserver has a policy but has not yet listed the objects of its paramKind (just
 * after the policy is created): every request it matches, until then.
 */
const notYetSynced = (res: Response) => res.status >= 400 && res.body.toString('utf8').includes('not yet synced');

const refusedByPolicy = (res: Response) => res.status >= 400 && res.body.toString('utf8').includes(RESTRICTIONS_POLICY_NAME) && !notYetSynced(res);

function created(res: Response, what: string): { spec?: { nodeSelector?: Record<string, string> } } {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
  return JSON.parse(res.body.toString('utf8')) as { spec?: { nodeSelector?: Record<string, string> } };
}

/** Whether kube-apiserver enforces both policies in `namespace`: a disallowed image is refused, the nodeSelector filled in. */
async function enforced(client: Client, namespace: string): Promise<boolean> {
  const bad = await dryRunPod(client, namespace, podBody(DISALLOWED_IMAGE));
  if (notYetSynced(bad)) return false;
  if (!refusedByPolicy(bad)) {
    created(bad, `a disallowed image in ${namespace}`);
    return false;
  }
  // Without a nodeSelector: refused while kube-apiserver has loaded the validating binding but not yet
  // the mutating one that fills it in.
  const res = await dryRunPod(client, namespace, podBody(IMAGE));
  if (refusedByPolicy(res) || notYetSynced(res)) return false;
  return created(res, `an allowed image in ${namespace}`).spec?.nodeSelector?.['kubernetes.io/os'] === 'linux';
}

/** Whether kube-apiserver enforces neither policy in `namespace`: a disallowed image passes, nothing filled in. */
async function notEnforced(client: Client, namespace: string): Promise<boolean> {
  const res = await dryRunPod(client, namespace, podBody(DISALLOWED_IMAGE));
  if (refusedByPolicy(res) || notYetSynced(res)) return false;
  return created(res, `a disallowed image in ${namespace}`).spec?.nodeSelector === undefined;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`${what}: not after ${timeoutMs / 1000} s`);
    await sleep(50);
  }
  return performance.now() - started;
}

/**
 * Writes `objects`: the policies first (a binding's policy must exist), then the bindings, those of
 * `lastTenant` after every other, so that kube-apiserver enforcing them shows it has loaded all.
 */
async function writeObjects(client: Client, objects: readonly AdmissionObject[], lastTenant: string | undefined): Promise<void> {
  const post = async (o: AdmissionObject) => {
    const res = await client.postJson<{ message?: string }>(pathOf(o.kind!), o);
    if (res.status !== 201 && res.status !== 409) throw new Error(`creating ${o.kind} ${o.metadata.name}: ${res.status} ${res.body.message ?? ''}`);
  };
  const last = (o: AdmissionObject) => lastTenant !== undefined && o.metadata.labels?.[PADDOCK.tenantLabel] === lastTenant;
  for (const o of objects.filter(isPolicy)) await post(o);
  await pool(objects.filter((o) => !isPolicy(o) && !last(o)), 32, post);
  for (const o of objects.filter((o) => !isPolicy(o) && last(o))) await post(o);
}

/**
 * Deletes `objects`: the policies first (a binding without its policy is not evaluated), then the rest,
 * one request each (a deletecollection of tens of thousands of bindings outlasts kube-apiserver's
 * request timeout).
 */
async function deleteObjects(client: Client, objects: readonly AdmissionObject[]): Promise<void> {
  const del = async (o: AdmissionObject) => {
    const res = await client.send('DELETE', `${pathOf(o.kind!)}/${o.metadata.name}`, { Accept: ACCEPT_JSON });
    if (res.status !== 200 && res.status !== 404) throw new Error(`deleting ${o.kind} ${o.metadata.name}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
  };
  for (const o of objects.filter(isPolicy)) await del(o);
  await pool(objects.filter((o) => !isPolicy(o)), 32, del);
}

/**
 * Creates the `default` ServiceAccount of `namespace`: the ServiceAccount admission plugin refuses a pod
 * whose ServiceAccount does not exist, and the clusters of their own run no ServiceAccount controller
 * (as the scale cluster).
 */
export async function ensureServiceAccount(c: BenchCluster, namespace: string): Promise<void> {
  const res = await c.admin.postJson<{ message?: string }>(`/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
  if (res.status !== 201 && res.status !== 409) throw new Error(`creating the default ServiceAccount of ${namespace}: ${res.status} ${res.body.message ?? ''}`);
}

const ADMISSION_METRIC = 'apiserver_admission_controller_admission_duration_seconds';

/** Sum and count of kube-apiserver's admission plugin durations for CREATE requests, by plugin name. */
async function pluginTotals(c: BenchCluster): Promise<Map<string, { sum: number; count: number }>> {
  const res = await c.admin.get('/metrics', 'text/plain');
  if (res.status !== 200) throw new Error(`kube-apiserver /metrics: ${res.status}`);
  const out = new Map<string, { sum: number; count: number }>();
  for (const line of res.body.toString('utf8').split('\n')) {
    const m = /^(\w+)_(sum|count)\{([^}]*)\}\s+(\S+)/.exec(line);
    if (!m || m[1] !== ADMISSION_METRIC || !m[3].includes('operation="CREATE"')) continue;
    const name = /(?:^|,)name="([^"]*)"/.exec(m[3])?.[1] ?? '?';
    const t = out.get(name) ?? { sum: 0, count: 0 };
    if (m[2] === 'sum') t.sum += Number(m[4]);
    else t.count += Number(m[4]);
    out.set(name, t);
  }
  return out;
}

/**
 * `n` dry-run creates of the measured Pod in `namespace` alone, and the admission plugins' time in them
 * from kube-apiserver's metric (every plugin that took 0.01 ms or more per request).
 */
async function pluginTimes(c: BenchCluster, client: Client, namespace: string, n: number): Promise<PluginTimes> {
  const before = await pluginTotals(c);
  for (let i = 0; i < n; i++) created(await dryRunPod(client, namespace, MEASURED_POD), `the measured pod in ${namespace}`);
  const after = await pluginTotals(c);
  const times = [...after].map(([name, a]) => {
    const b = before.get(name) ?? { sum: 0, count: 0 };
    return { name, ms: ((a.sum - b.sum) * 1000) / n, calls: (a.count - b.count) / n };
  });
  const out: PluginTimes = {};
  for (const t of times.filter((x) => x.ms >= 0.01).sort((x, y) => y.ms - x.ms)) out[t.name] = { ms: round(t.ms), calls: round(t.calls) };
  return out;
}

/**
 * Sequential dry-run creates of the measured Pod, interleaved between the namespaces in a new random
 * order each round, after a warm-up; every one must be allowed.
 */
async function measure(client: Client, targets: { kind: NamespaceKind; namespace: string }[], n: number, into: Record<NamespaceKind, number[]>): Promise<void> {
  const once = async (t: { kind: NamespaceKind; namespace: string }) => {
    const res = await dryRunPod(client, t.namespace, MEASURED_POD);
    created(res, `the measured pod in ${t.namespace}`);
    return res.ms;
  };
  for (let i = 0; i < 10; i++) for (const t of targets) await once(t);
  for (let i = 0; i < n; i++) for (const t of shuffled(targets)) into[t.kind].push(await once(t));
}

/**
 * kube-apiserver's admission time in `namespace` (a restricted Tenant's) with the floor policies
 * (admission-floor.ts) in place of Paddock's: written once Paddock's are gone, observed loaded (their
 * probes refused and labelled), measured, deleted and observed gone.
 */
async function floorTimes(c: BenchCluster, client: Client, builder: Client, namespace: string, log: Log): Promise<PluginTimes> {
  const objects = floorObjects();
  const probe = async (name: string) => dryRunPod(client, namespace, podBody(IMAGE, NODE_SELECTOR, name));
  await writeObjects(builder, objects, undefined);
  await until('kube-apiserver enforcing the floor policies', async () => {
    const refused = await probe(FLOOR_REFUSED);
    if (refused.status === 201 || notYetSynced(refused)) return false;
    if (!refused.body.toString('utf8').includes('refused by the floor policy')) throw new Error(`the floor probe in ${namespace}: ${refused.status} ${refused.body.toString('utf8').slice(0, 300)}`);
    const labelled = await probe(FLOOR_PROBE);
    return labelled.status === 201 && (JSON.parse(labelled.body.toString('utf8')) as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.[FLOOR_LABEL] === 'probe';
  });
  const times = await pluginTimes(c, client, namespace, 50);
  log(`  the floor (trivial policies bound alike), ${pluginsText({ restricted: times })}`);
  await deleteObjects(builder, objects);
  await until('kube-apiserver no longer enforcing the floor policies', async () => (await probe(FLOOR_REFUSED)).status === 201);
  return times;
}

/**
 * The admission scenario: pod-create latency through kube-apiserver (server-side dry run, so admission
 * runs in full and nothing is stored) as the number of restricted Tenants grows, with Paddock's admission
 * objects in place and without them, alternated on the same cluster; then, with Paddock running at the
 * largest size, how long a change of a Tenant's registries takes to be enforced. The Tenants are built
 * in bulk directly through kube-apiserver, as Paddock would have made them.
 */
export async function admissionScenario(c: BenchCluster, config: BenchConfig['admission'], log: Log): Promise<AdmissionResult> {
  const startedAt = new Date().toISOString();
  const client = c.client(c.state.server, c.state.pki.users.admin, 4);
  const builder = c.client(c.state.server, c.state.pki.users.admin, 64);
  const pids = () => [c.state.pids.apiserver, c.state.pids.etcd, c.state.pids.controllerManager, ...(c.paddock ? [c.paddock.pid] : [])];
  const nsRes = await c.admin.postJson<{ message?: string }>('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: PLAIN_NAMESPACE } });
  if (nsRes.status !== 201) throw new Error(`creating namespace ${PLAIN_NAMESPACE}: ${nsRes.status} ${nsRes.body.message ?? ''}`);
  await ensureServiceAccount(c, PLAIN_NAMESPACE);

  const tenants: Tenant[] = [];
  const probe = () => tenants.find((t) => t.metadata.name === tenantName(0));
  const transitions: AdmissionTransition[] = [];
  let state = 'without' as State;
  let layout: AdmissionObject[] = [];
  const setState = async (to: State) => {
    const t0 = performance.now();
    const p = probe();
    if (to === 'with') {
      layout = admissionLayout(tenants);
      await writeObjects(builder, layout, p?.metadata.name);
    } else {
      await deleteObjects(builder, layout);
    }
    const writeSeconds = (performance.now() - t0) / 1000;
    const observedMs = p ? await until(`kube-apiserver ${to === 'with' ? 'enforcing' : 'no longer enforcing'} the policies`,
      () => (to === 'with' ? enforced : notEnforced)(client, namespaceOf(p.metadata.name))) : undefined;
    state = to;
    const t: AdmissionTransition = { tenants: tenants.length, to, objects: layout.length, writeSeconds: round(writeSeconds), ...(observedMs !== undefined ? { observedSeconds: round(observedMs / 1000) } : {}) };
    transitions.push(t);
    log(`  ${to === 'with' ? 'wrote' : 'deleted'} ${t.objects} admission objects in ${t.writeSeconds} s${t.observedSeconds !== undefined ? `; kube-apiserver showed it ${t.observedSeconds} s later` : ''}`);
  };

  const now = new Date();
  const budgetMs = config.buildBudgetMinutes * 60_000;
  const build = { seconds: 0, requests: 0 };
  let brokeAt: string | undefined;
  const byTenants: AdmissionSize[] = [];
  for (const size of config.sizes) {
    if (brokeAt) break;
    if (size > tenants.length) {
      // Grown without the admission objects: enforcing them is then observed once, after every binding.
      if (state === 'with') await setState('without');
      log(`admission: building ${size - tenants.length} restricted Tenants (to ${size}) directly through kube-apiserver`);
      const from = tenants.length;
      const byIndex = new Map<number, Tenant>();
      const b = await buildInBulk(Array.from({ length: size - from }, (_, i) => from + i), config.buildConcurrency, budgetMs - build.seconds * 1000, log, async (i) => {
        const r = await buildTenant(builder, restrictedTenant(i), now);
        byIndex.set(i, r.tenant);
        return r.requests;
      }, (n) => `${from + n} Tenants`);
      build.seconds += b.seconds;
      build.requests += b.requests;
      tenants.push(...b.built.map((i) => byIndex.get(i)!));
      log(`  built ${b.built.length} Tenants in ${round(b.seconds)} s (${round(b.requests / b.seconds)} requests/s)${b.brokeAt ? `; stopped: ${b.brokeAt}` : ''}`);
      if (!probe()) throw new Error(`the admission cluster could not be built: ${b.brokeAt ?? 'no Tenants'}`);
      brokeAt = b.brokeAt;
      await ensureServiceAccount(c, namespaceOf(tenantName(0)));
    }
    const p = probe();
    const targets: { kind: NamespaceKind; namespace: string }[] = [{ kind: 'plain', namespace: PLAIN_NAMESPACE }, ...(p ? [{ kind: 'restricted' as const, namespace: namespaceOf(p.metadata.name) }] : [])];
    const samples: Record<State, Record<NamespaceKind, number[]>> = { with: { plain: [], restricted: [] }, without: { plain: [], restricted: [] } };
    let rss = NaN;
    let plugins: AdmissionSize['plugins'];
    for (let r = 0; r < config.rounds; r++) {
      for (const s of (r % 2 === 0 ? ['without', 'with'] : ['with', 'without']) as State[]) {
        if (state !== s) await setState(s);
        const quiet = await waitQuiet(pids());
        if (!quiet.quiet) log(`  the control plane did not go quiet in ${round(quiet.ms / 1000)} s; measuring anyway`);
        await measure(client, targets, config.requestsPerRound, samples[s]);
        if (s === 'with') rss = memoryOf(c.state.pids.apiserver).rssMiB;
        if (s === 'with' && r === config.rounds - 1) {
          plugins = {};
          for (const t of targets) plugins[t.kind] = await pluginTimes(c, client, t.namespace, 50);
          log(`  where the time goes: ${pluginsText(plugins)}`);
        }
        log(`  ${tenants.length} Tenants, round ${r + 1}/${config.rounds}, ${s} Paddock's policies: p50 plain ${round(quantile([...samples[s].plain].sort((a, b) => a - b), 0.5))} ms` +
          `${p ? `, restricted ${round(quantile([...samples[s].restricted].sort((a, b) => a - b), 0.5))} ms` : ''}`);
      }
    }
    let floor: PluginTimes | undefined;
    if (p) {
      if (state !== 'without') await setState('without');
      floor = await floorTimes(c, client, builder, namespaceOf(p.metadata.name), log);
    }
    const cell = (kind: NamespaceKind): AdmissionCell => ({ withPolicies: percentiles(samples.with[kind]), withoutPolicies: percentiles(samples.without[kind]) });
    const objects = admissionLayout(tenants);
    const objectsByKind: Record<string, number> = {};
    for (const o of objects) objectsByKind[o.kind!] = (objectsByKind[o.kind!] ?? 0) + 1;
    const row: AdmissionSize = {
      tenants: tenants.length, bindings: objects.filter((o) => !isPolicy(o)).length, objectsByKind, requests: config.rounds * config.requestsPerRound,
      plain: cell('plain'), restricted: p ? cell('restricted') : null, kubeApiserverRssMiB: round(rss), ...(plugins ? { plugins } : {}), ...(floor ? { floor } : {}),
    };
    byTenants.push(row);
    log(`admission at ${row.tenants} Tenants (${row.bindings} bindings): ${admissionLine(row)}`);
  }

  const largest = byTenants[byTenants.length - 1];
  let propagation: AdmissionPropagation | undefined;
  const p = probe();
  if (p && config.propagation > 0) {
    if (state !== 'with') await setState('with');
    propagation = await measurePropagation(c, client, p, tenants.length, config.propagation, pids, log);
  }
  const restricted = [...byTenants].reverse().find((r) => r.restricted)?.restricted;
  return {
    scenario: 'admission',
    startedAt,
    kubernetes: (await c.admin.getJson<{ gitVersion: string }>('/version')).gitVersion,
    config,
    how: 'Restricted Tenants (one namespace each, containerRegistries and nodeSelector restricted) created by the benchmark directly through kube-apiserver as Paddock would have made them ' +
      '(Tenant with finalizer, namespace, guardrails, status), with the admission objects as Paddock writes them; Paddock runs only for the propagation part. ' +
      `Measured: sequential server-side dry-run creates (dryRun=All) of a Pod with image ${IMAGE} and nodeSelector kubernetes.io/os=linux, as admin over a keep-alive connection, ` +
      `interleaved between namespace ${PLAIN_NAMESPACE} (outside every tenant) and ${p ? namespaceOf(p.metadata.name) : 'a restricted Tenant\'s namespace'}, ` +
      'with and without Paddock\'s policies and bindings (deleted, then re-created, each time until kube-apiserver shows the change), alternated in rounds.',
    requestedTenants: config.sizes[config.sizes.length - 1],
    ...(brokeAt ? { brokeAt } : {}),
    build: { seconds: round(build.seconds), requests: build.requests, requestsPerSecond: build.seconds > 0 ? round(build.requests / build.seconds) : 0 },
    byTenants,
    withPolicies: restricted?.withPolicies ?? largest.plain.withPolicies,
    withoutPolicies: restricted?.withoutPolicies ?? largest.plain.withoutPolicies,
    transitions,
    ...(propagation ? { propagation } : {}),
  };
}

/**
 * With Paddock running: the registries of Tenant `tenant` changed so that the measured image is no longer
 * allowed, timed from the update's response to the first refused dry-run create in its namespace (polled
 * back to back), then changed back, timed until allowed again.
 */
async function measurePropagation(c: BenchCluster, client: Client, tenant: Tenant, tenants: number, repetitions: number, pids: () => number[], log: Log): Promise<AdmissionPropagation> {
  log(`admission: starting Paddock on ${tenants} restricted Tenants`);
  const offset = c.auditOffset();
  const t0 = performance.now();
  await c.startPaddock(FLAGS, 'paddock-admission', 30 * 60_000);
  const readySeconds = (performance.now() - t0) / 1000;
  await waitFirstPass(c, tenants, 30 * 60_000);
  await sleep(2000);
  const startWrites = c.paddockWrites(offset);
  log(`  /readyz after ${round(readySeconds)} s; first pass done with ${startWrites.total} writes${startWrites.total ? ` (${Object.entries(startWrites.byResource).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`);
  const namespace = namespaceOf(tenant.metadata.name);
  await until('kube-apiserver enforcing the policies with Paddock running', () => enforced(client, namespace));
  await waitQuiet(pids());
  const path = `/apis/paddock.dev/v1alpha1/tenants/${tenant.metadata.name}`;
  const refused: number[] = [];
  const allowed: number[] = [];
  const polls: number[] = [];
  let atFirstPoll = 0;
  const change = async (registry: string, done: (res: Response) => boolean): Promise<number> => {
    const res = await c.admin.patchJson<{ message?: string }>(path, { spec: { containerRegistries: { allowed: [registry] } } });
    if (res.status !== 200) throw new Error(`updating Tenant ${tenant.metadata.name}: ${res.status} ${res.body.message ?? ''}`);
    const answered = performance.now();
    for (let n = 0; ; n++) {
      const poll = await dryRunPod(client, namespace, MEASURED_POD);
      polls.push(poll.ms);
      if (done(poll)) {
        if (n === 0) atFirstPoll++;
        return performance.now() - answered;
      }
      if (poll.status !== 201 && !refusedByPolicy(poll)) throw new Error(`polling ${namespace}: ${poll.status} ${poll.body.toString('utf8').slice(0, 300)}`);
      if (performance.now() - answered > 120_000) throw new Error(`the registries of Tenant ${tenant.metadata.name} were not enforced 120 s after the change`);
    }
  };
  for (let i = 0; i < repetitions; i++) {
    refused.push(await change(OTHER_REGISTRY, refusedByPolicy));
    await sleep(500);
    allowed.push(await change(REGISTRY, (res) => res.status === 201));
    await sleep(500);
  }
  await c.stopPaddock();
  const result: AdmissionPropagation = {
    tenants, repetitions, refused: percentiles(refused), allowedAgain: percentiles(allowed), poll: percentiles(polls), atFirstPoll,
    paddockReadySeconds: round(readySeconds), paddockStartWrites: startWrites.total,
  };
  log(`  refused after p50 ${result.refused.p50} / p99 ${result.refused.p99} ms, allowed again after ${result.allowedAgain.p50} / ${result.allowedAgain.p99} ms (one poll: p50 ${result.poll.p50} ms)`);
  return result;
}

const cellText = (c: AdmissionCell) => `${c.withPolicies.p50} / ${c.withPolicies.p99} ms with, ${c.withoutPolicies.p50} / ${c.withoutPolicies.p99} without`;

function admissionLine(r: AdmissionSize): string {
  return `plain ${cellText(r.plain)}${r.restricted ? `; restricted ${cellText(r.restricted)}` : ''} (p50 / p99)`;
}

function pluginsText(plugins: Partial<Record<string, PluginTimes>>): string {
  return Object.entries(plugins).map(([kind, times]) => `${kind}: ${Object.entries(times!).slice(0, 4).map(([name, t]) => `${name} ${t.ms} ms${t.calls !== 1 ? ` (${t.calls} calls)` : ''}`).join(', ')}`).join('; ');
}

/** p50 with the admission objects − p50 without, at the largest size, per namespace kind. */
export function admissionOverheads(r: AdmissionResult): { tenants: number; plain: number; restricted?: number } | undefined {
  const largest = [...r.byTenants].reverse().find((s) => s.restricted) ?? r.byTenants[r.byTenants.length - 1];
  if (!largest) return undefined;
  const d = (c: AdmissionCell) => round(c.withPolicies.p50 - c.withoutPolicies.p50);
  return { tenants: largest.tenants, plain: d(largest.plain), ...(largest.restricted ? { restricted: d(largest.restricted) } : {}) };
}

/** The Markdown section of the admission scenario. */
export function admissionMarkdown(r: AdmissionResult): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const rows: string[] = [];
  for (const s of r.byTenants) {
    for (const [kind, c] of [['plain', s.plain], ['restricted', s.restricted]] as const) {
      if (!c) continue;
      rows.push(line([s.tenants, s.bindings, kind, `${c.withPolicies.p50} / ${c.withPolicies.p99}`, `${c.withoutPolicies.p50} / ${c.withoutPolicies.p99}`, round(c.withPolicies.p50 - c.withoutPolicies.p50), s.requests]));
    }
  }
  const out = [
    '## 10. Admission', '',
    `${r.how} Goals: within ${GOALS.admissionPlainOverheadMs} ms (plain namespace) and ${GOALS.admissionRestrictedOverheadMs} ms (restricted) of no policies at p50, at the largest size.`, '',
    line(['restricted Tenants', 'bindings', 'namespace', 'with policies p50 / p99 ms', 'without p50 / p99 ms', 'Δ p50 ms', 'requests each']),
    line(['---', '---', '---', '---', '---', '---', '---']),
    ...rows, '',
  ];
  const withPlugins = r.byTenants.filter((s) => s.plugins);
  if (withPlugins.length) {
    out.push('Where the time goes with the admission objects in place (kube-apiserver\'s `' + ADMISSION_METRIC + '` over 50 creates in one namespace, mean per create; the four largest plugins, and how many times each ran when not once):', '',
      ...withPlugins.flatMap((s) => [
        ...Object.entries(s.plugins!).map(([kind, times]) => `- ${s.tenants} Tenants, ${kind}: ${pluginsText({ [kind]: times }).slice(kind.length + 2)}`),
        ...(s.floor ? [`- ${s.tenants} Tenants, restricted, trivial policies bound alike (the floor): ${pluginsText({ floor: s.floor }).slice('floor: '.length)}`] : []),
      ]), '');
  }
  const tr = r.transitions.filter((t) => t.observedSeconds !== undefined);
  if (tr.length) {
    out.push(`Writing the admission objects and kube-apiserver enforcing them: ${tr.filter((t) => t.to === 'with').map((t) => `${t.objects} objects at ${t.tenants} Tenants in ${t.writeSeconds} s, enforced ${t.observedSeconds} s later`).join('; ')}. ` +
      `Built: ${r.byTenants[r.byTenants.length - 1]?.tenants ?? 0} Tenants, ${r.build.requests} requests in ${r.build.seconds} s (${r.build.requestsPerSecond}/s)${r.brokeAt ? `; stopped at ${r.brokeAt}` : ''}.`, '');
  }
  const pr = r.propagation;
  if (pr) {
    out.push(`Propagation, with Paddock running at ${pr.tenants} Tenants (started in ${pr.paddockReadySeconds} s, ${pr.paddockStartWrites} writes in its first pass): one Tenant's containerRegistries changed ${pr.repetitions} times so that the measured image is refused, then back; ` +
      'from the update\'s response to the first dry-run create that shows it, polled back to back.', '',
      line(['measure', 'p50 ms', 'p99 ms']), line(['---', '---', '---']),
      line(['update → first refused create', pr.refused.p50, pr.refused.p99]),
      line(['change back → first allowed create', pr.allowedAgain.p50, pr.allowedAgain.p99]),
      line(['one poll (dry-run create)', pr.poll.p50, pr.poll.p99]), '',
      `${pr.atFirstPoll} of ${2 * pr.repetitions} changes were in force at the first poll.`, '');
  }
  return out.join('\n');
}
