// `npm run bench`: Paddock's benchmark scenarios against a local control plane of its own, each measured
// side by side with a baseline in the same run, then the admission scenario on a control plane of its
// own. `npm run bench -- --quick` runs the 1k size only with fewer watchers and changes (for development).
// `--only=<scenario>,...` runs some scenarios (the cluster still grows through every size) and merges
// their results into latest.*. Results:
// bench/results/<timestamp>.json, latest.json, latest.md and latency-vs-size.svg. Everything started is
// stopped on exit, on error and on Ctrl-C.
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchTenant, BenchCluster } from '../bench/cluster';
import { adminList, ownerList, paddockOf } from '../bench/list';
import { memoryPoint, memoryResult, type MemoryPoint } from '../bench/memory';
import { coldReconcile } from '../bench/reconcile';
import { toMarkdown, withDerived, type BenchResults, type SetupStep } from '../bench/report';
import { SCENARIOS, write, writeAdmission, writeScale, writeTenantQuota, type Scenario } from '../bench/results';
import { schedAutogroup } from '../bench/proc';
import { admissionScenario, type AdmissionResult } from '../bench/admission';
import { allowedClassesList } from '../bench/classes';
import { viewLists, viewWatch } from '../bench/views';
import { buildCapsuleProxy, CapsuleProxy, type CapsuleProxyResult } from '../bench/capsule-proxy';
import { CAPSULE_WATCH_TARGET, capsuleAdminList, capsuleOwnerList, capsuleWatch, ownerListRatios, ownershipChange } from '../bench/capsule-proxy-scenarios';
import type { ListResult } from '../bench/list';
import { FULL, QUICK, ownerName, ownerOfTenant, tenantName, type BenchConfig } from '../bench/scenarios';
import { round } from '../bench/stats';
import { LABEL_SELECTED_TARGET, watchFanout, watchRatios, type WatchRatio, type WatchResult, type WatchWorld } from '../bench/watch';
import { hopFloors, withWatchRelayFloor } from '../bench/watch-relay-floor';
import { tails, type TailsResult } from '../bench/tails';
import { chunkReuse } from '../bench/chunk-reuse';
import { encodingMemory } from '../bench/encodings';
import { tableAssembly } from '../bench/table-assembly';
import { highAvailability } from '../bench/ha';
import { SCALE_APISERVER_MEMORY_LIMIT, SCALE_CONTROLLER_ARGS, SCALE_CONTROLLERS, SCALE_DEFAULTS, scaleScenario, type ScaleResult } from '../bench/scale';
import { tenantQuotaScenario, type TenantQuotaResult } from '../bench/tenant-quota';
import { stopControlPlane } from '../test/controlplane/controlplane';
import { buildPaddock } from '../test/controlplane/paddock';

const REPO = resolve(__dirname, '..');
const DIR = join(REPO, '.paddock', 'bench');

const t0 = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)}s] ${line}`);

/** Scenarios `--only` can name; a run without it runs them all. */

let cluster: BenchCluster | undefined;
let capsuleProxy: CapsuleProxy | undefined;
let tearingDown: Promise<void> | undefined;
function teardown(): Promise<void> {
  tearingDown ??= (async () => {
    log('tearing down');
    if (capsuleProxy) await capsuleProxy.stop();
    if (cluster) await cluster.down();
    else await stopControlPlane(DIR);
  })();
  return tearingDown;
}

/** Creates the size step's Tenants (tenants `from`..`to`-1) while Paddock runs; waits until settled. */
async function grow(c: BenchCluster, config: BenchConfig, from: number, to: number, namespaces: number): Promise<SetupStep> {
  const names = Array.from({ length: to - from }, (_, i) => tenantName(from + i));
  const offset = c.auditOffset();
  const started = Date.now();
  await c.createTenants(names.map((n, i) => benchTenant(n, [ownerOfTenant(config, from + i)], config.namespacesPerTenant)));
  await c.waitTenantsReady(new Set(names), 30 * 60_000, (n) => log(`  ${n}/${names.length} new Tenants Ready`));
  const allReadyMs = Date.now() - started;
  await c.waitSettled(namespaces, 10 * 60_000);
  const settledMs = Date.now() - started;
  const writes = c.paddockWrites(offset);
  const span = (writes.lastMs - writes.firstMs) / 1000;
  return { namespaces, tenantsCreated: names.length, allReadyMs, settledMs, paddockWrites: writes.total, writesPerSecond: span > 0 ? round(writes.total / span) : 0 };
}

async function kubernetesVersion(c: BenchCluster): Promise<string> {
  return (await c.admin.getJson<{ gitVersion: string }>('/version')).gitVersion;
}

/** StorageClasses in the cluster for the allowed-classes scenario (a tenth of them allowed to alice's tenant). */
const CLASSES = 200;

/** Label changes on allowed DeviceClasses timed to alice's tdc watch and kube-apiserver's selected watch. */
const VIEW_CHANGES = 100;

/** Options of a run beyond its config: where heap snapshots go (`--heap-breakdown`), if anywhere. */
interface RunOptions {
  breakdownDir?: string;
}

async function run(config: BenchConfig, only: ReadonlySet<Scenario>, options: RunOptions = {}): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const runs = (s: Scenario) => only.size === 0 || only.has(s);
  log(`benchmark (${config.name}): sizes ${config.sizes.join(', ')} namespaces${only.size ? `; only ${[...only].join(', ')}` : ''}`);
  log('building Paddock (tsc → dist/)');
  buildPaddock();
  tails.start();
  let capsule: CapsuleProxyResult | undefined;
  let capsuleBuild: ReturnType<typeof buildCapsuleProxy> | undefined;
  if (runs('capsule')) {
    log('building capsule-proxy (scenario 7)');
    capsuleBuild = buildCapsuleProxy();
    if ('skipped' in capsuleBuild) {
      log(`scenario 7 (capsule-proxy) skipped: ${capsuleBuild.skipped}`);
      capsule = { version: 'none', skipped: capsuleBuild.skipped };
    } else {
      log(`capsule-proxy ${capsuleBuild.version}: ${capsuleBuild.binary}`);
    }
  }
  const capsuleOwner: ListResult[] = [];
  cluster = await BenchCluster.up(DIR, log);
  const c = cluster;
  log(`Paddock's owners: minting ${config.owners} client certificates`);
  for (let i = 0; i < config.owners; i++) c.userCert(ownerName(i));
  await c.startPaddock({ ...config.setup, resyncPeriod: '10m' });
  log(`Paddock serving on :${c.paddock!.port}, registered as v1alpha1.tenancy.paddock.dev`);

  const memoryOptions = { breakdownDir: options.breakdownDir, log };
  const memory: MemoryPoint[] = runs('memory') ? [await memoryPoint(c, 0, memoryOptions)] : [];
  const setup: SetupStep[] = [];
  const owner: BenchResults['ownerList'] = [];
  const admin: BenchResults['adminList'] = [];
  let tenants = 0;
  for (const size of config.sizes) {
    const want = size / config.namespacesPerTenant;
    log(`growing to ${size} namespaces (${want} Tenants)`);
    setup.push(await grow(c, config, tenants, want, size));
    tenants = want;
    const s = setup[setup.length - 1];
    log(`  settled: ${s.paddockWrites} Paddock writes, ${s.writesPerSecond} writes/s, all Ready in ${round(s.allReadyMs / 1000)} s`);
    if (runs('memory')) {
      memory.push(await memoryPoint(c, size, memoryOptions));
      const point = memory[memory.length - 1];
      log(`  heap ${point.heapUsedMiB} MiB after GC at rest, ${round((point.servingHeapUsedBytes ?? NaN) / 2 ** 20)} MiB while serving`);
    }
    if (runs('owner-list')) {
      log(`scenario 1 (owner list) at ${size}`);
      owner.push(await ownerList(c, config, size));
    }
    if (runs('admin-list')) {
      log(`scenario 2 (admin list) at ${size}`);
      admin.push(await adminList(c, config, size));
    }
    if (capsuleBuild && !('skipped' in capsuleBuild)) {
      if (!capsuleProxy) {
        log('starting capsule-proxy (Capsule CRDs, CapsuleConfiguration users, ServiceAccount)');
        capsuleProxy = await CapsuleProxy.start(c, capsuleBuild, config);
        log(`capsule-proxy serving on :${capsuleProxy.port}`);
      }
      const before = capsuleProxy.tenants;
      await capsuleProxy.syncTenants(config, before, tenants);
      const last = ownerOfTenant(config, tenants - 1);
      const rows = Array.from({ length: tenants }, (_, i) => ownerOfTenant(config, i)).filter((o) => o === last).length * config.namespacesPerTenant;
      await capsuleProxy.waitRows(last, rows);
      log(`scenario 7 (capsule-proxy owner list) at ${size}: ${tenants - before} Capsule Tenants written`);
      capsuleOwner.push(await capsuleOwnerList(c, capsuleProxy, config, size));
    }
  }

  const size = config.sizes[config.sizes.length - 1];
  let encodings;
  let chunks;
  let assembly;
  if (runs('admin-list')) {
    log(`scenario 2, memory: the row encodings cache at ${size} rows`);
    encodings = await encodingMemory(c);
    log(`  ${encodings.totalBytesPerRow} B/row (Table ${encodings.tableBytesPerRow}, + JSON ${encodings.jsonBytesPerRow})`);
    log(`scenario 2, chunks: borrowed, fresh and static at ${size} rows`);
    chunks = await chunkReuse(c);
    log(`  p50 borrowed ${chunks.forms.borrowed.p50} / fresh ${chunks.forms.fresh.p50} / static ${chunks.forms.static.p50} ms`);
    log(`scenario 2, assembly: the admin Table's bytes by the age of its ${size} rows`);
    assembly = await tableAssembly(c);
    log(`  p50 days old ${round(assembly.ranges.days.p50)} / under 10 min ${round(assembly.ranges.underTenMinutes.p50)} / 10 min to 8 h ${round(assembly.ranges.tenMinutesToEightHours.p50)} ms`);
  }
  let allowedClasses;
  let views;
  let viewChanges;
  if (runs('classes')) {
    log(`scenario 6 (allowed storage classes) at ${size} namespaces, ${tenants} Tenants, ${CLASSES} StorageClasses`);
    allowedClasses = await allowedClassesList(c, config, size, CLASSES);
    log(`scenario 6 (the other views: tdc, otn) at ${size} namespaces, ${tenants} Tenants`);
    views = await viewLists(c, config, size, tenants, CLASSES);
    log(`scenario 6 (the tdc watch beside kube-apiserver's selected DeviceClass watch): ${VIEW_CHANGES} changes`);
    viewChanges = await viewWatch(c, VIEW_CHANGES, CLASSES);
  }

  const world: WatchWorld = { namespaces: [], tenantsOf: new Map() };
  for (let i = 1; i < tenants; i++) {
    const o = ownerOfTenant(config, i);
    const t = tenantName(i);
    world.tenantsOf.set(o, [...(world.tenantsOf.get(o) ?? []), t]);
    for (let n = 0; n < config.namespacesPerTenant; n++) world.namespaces.push({ name: `${t}-n${n}`, tenant: t, owner: o });
  }
  const fanouts = [...config.watch.smallerWatchersPerOwner, config.watch.watchersPerOwner];
  const watchers = fanouts.map((n) => n * config.owners).join(', ');
  // The relay serves every watch of the largest fan-out, and a few more.
  const relaySockets = config.owners * Math.max(...fanouts) + 8;
  let watch: WatchResult | undefined;
  if (runs('watch')) {
    log(`scenario 3 (watch fan-out) at ${size}: ${watchers} watchers`);
    watch = await withWatchRelayFloor(c, world, relaySockets, (relay) => watchFanout(c, config, size, world, { fanouts, extra: [relay] }));
    watch.vsLabelSelected = watchRatios(watch, LABEL_SELECTED_TARGET);
    watch.hopFloor = hopFloors(watch);
    log(`  kube-apiserver's label-selected watch ÷ Paddock: ${ratiosLine(watch.vsLabelSelected)}`);
    log(`  Paddock's hop ÷ the Node.js relay's: ${watch.hopFloor.map((h) => `${h.watchers} watchers p50 ${h.ratioP50}× (${h.paddock.p50} / ${h.relay.p50} ms), p99 ${h.ratioP99}×`).join('; ')}`);
  }
  if (capsuleProxy) {
    log(`scenario 7 (capsule-proxy admin list) at ${size}`);
    const adminCapsule = await capsuleAdminList(c, capsuleProxy, config, size);
    log(`scenario 7 (capsule-proxy watch fan-out) at ${size}: ${watchers} watchers`);
    // The Node.js relay floor again, beside capsule-proxy: a Go proxy and a Node.js one, measured together.
    const proxy = capsuleProxy;
    const watchCapsule = await withWatchRelayFloor(c, world, relaySockets, (relay) => capsuleWatch(c, proxy, config, size, world, fanouts, [relay]));
    const vsCapsuleProxy = watchRatios(watchCapsule, CAPSULE_WATCH_TARGET);
    log(`  capsule-proxy ÷ Paddock: ${ratiosLine(vsCapsuleProxy)}`);
    if (watch) watch.vsCapsuleProxy = vsCapsuleProxy;
    log('scenario 7 (ownership change on open watches)');
    const ownership = await ownershipChange(c, capsuleProxy, config);
    log(`  ${ownership.summary}`);
    const largest = capsuleOwner[capsuleOwner.length - 1];
    capsule = {
      version: capsuleProxy.version, startedAt,
      how: 'The Capsule controller does not run: the benchmark writes each Capsule Tenant\'s `status.owners` and `status.namespaces` and the CapsuleConfiguration\'s `status.users` ' +
        '(namespaces carry no `capsule.clastix.io/tenant` label: capsule-proxy\'s namespace list reads `status.namespaces`). capsule-proxy runs as a ServiceAccount with its chart\'s ClusterRole; clients reach it over TLS with the same client certificates as Paddock.',
      ownerList: { ...ownerListRatios(largest), size: largest.size, sizes: capsuleOwner },
      adminList: adminCapsule, watch: watchCapsule, ownershipChange: ownership,
    };
    await capsuleProxy.stop();
    capsuleProxy = undefined;
  }

  let reconcile;
  if (runs('reconcile')) {
    log(`scenario 4 (cold reconcile): ${config.reconcile.tenants} Tenants × ${config.reconcile.namespacesPerTenant} namespaces`);
    reconcile = await coldReconcile(c, config, tenants);
  }

  let ha;
  if (runs('ha')) {
    const haOwners = Array.from({ length: config.ha.owners }, (_, i) => ownerName(i));
    log(`scenario 8 (two replicas): ${haOwners.length} owners × 3 informers, a replica restarted every ${config.ha.restartEverySeconds} s for ${config.ha.seconds} s`);
    ha = await highAvailability(c, config, (owner) => `${tenantName(Number(owner.slice(1)) + 1)}-n0`, haOwners);
    log(`  ${ha.replicaSwitchRelists} relists, ${ha.lostEvents} lost, ${ha.duplicateEvents} duplicated over ${ha.reconnects} reconnects`);
  }

  const partial = {
    startedAt,
    durationSeconds: Math.round((performance.now() - t0) / 1000),
    config,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, kubernetes: await kubernetesVersion(c), schedAutogroup: schedAutogroup() },
    setup,
    ownerList: owner,
    adminList: admin,
    allowedClasses,
    views,
    viewWatch: viewChanges,
    watch,
    reconcile,
    ha,
    encodings,
    chunkReuse: chunks,
    tableAssembly: assembly,
    memory: runs('memory') ? memoryResult(memory) : undefined,
    capsuleProxy: capsule,
    tails: await tailsOf(c),
  };
  return withDerived(partial);
}

/** The watch ratios for the log: `100 watchers p50 1.1× p99 0.9×; …`. */
function ratiosLine(ratios: WatchRatio[]): string {
  return ratios.map((r) => `${r.watchers} watchers p50 ${r.ratioP50}× p99 ${r.ratioP99}×`).join('; ');
}

/** The run's tails (every list and watch sample so far), logged in one line. */
async function tailsOf(c: BenchCluster): Promise<TailsResult> {
  tails.stop();
  const t = await tails.summarize(paddockOf(c));
  log(`tails: ${t.count} of ${t.samples} samples over ${t.factor}× their target's median, ${t.explained} with a named cause: ${JSON.stringify(t.byCause)}`);
  return t;
}

/** The scale scenario on a control plane of its own (the previous one, if any, is stopped first). */
async function runScale(config: BenchConfig, namespaces: number, buildMinutes: number, options: RunOptions): Promise<ScaleResult> {
  if (cluster) await cluster.down();
  tearingDown = undefined;
  log(`scale scenario: ${namespaces} namespaces on a control plane of its own`);
  buildPaddock();
  cluster = await BenchCluster.up(DIR, log, {
    controllers: SCALE_CONTROLLERS, controllerManagerArgs: SCALE_CONTROLLER_ARGS, apiserverEnv: { GOMEMLIMIT: String(SCALE_APISERVER_MEMORY_LIMIT) },
  });
  log('building capsule-proxy (measured beside Paddock at scale)');
  const capsule = buildCapsuleProxy();
  log('skipped' in capsule ? `capsule-proxy at scale skipped: ${capsule.skipped}` : `capsule-proxy ${capsule.version}: ${capsule.binary}`);
  tails.start();
  const since = tails.mark();
  const result = await scaleScenario(cluster, config, { ...SCALE_DEFAULTS, namespaces, buildBudgetMs: buildMinutes * 60_000 }, log, { breakdownDir: options.breakdownDir, log }, capsule);
  tails.stop();
  const t = await tails.summarize(paddockOf(cluster), since);
  log(`tails at scale: ${t.count} of ${t.samples} samples over ${t.factor}× their target's median, ${t.explained} with a named cause: ${JSON.stringify(t.byCause)}`);
  return { ...result, tails: t };
}

/** The admission scenario on a control plane of its own (the previous one, if any, is stopped first). */
async function runAdmission(config: BenchConfig): Promise<AdmissionResult> {
  if (cluster) await cluster.down();
  tearingDown = undefined;
  log(`admission scenario: ${config.admission.sizes.join(', ')} restricted Tenants on a control plane of its own`);
  buildPaddock();
  cluster = await BenchCluster.up(DIR, log, {
    controllers: SCALE_CONTROLLERS, controllerManagerArgs: SCALE_CONTROLLER_ARGS, apiserverEnv: { GOMEMLIMIT: String(SCALE_APISERVER_MEMORY_LIMIT) },
  });
  return admissionScenario(cluster, config.admission, log);
}

/**
 * The tenant-wide quota scenario on a control plane of its own (the previous one, if any, is stopped
 * first): its 1,000 quota Tenants are reconciled by Paddock there, without growing the main cluster
 * through every size first, and its rounds' writes are the only ones in the audit log.
 */
async function runTenantQuota(config: BenchConfig): Promise<TenantQuotaResult> {
  if (cluster) await cluster.down();
  tearingDown = undefined;
  log(`tenant-wide quota scenario: ${config.tenantQuota.tenants} Tenants with spec.quota on a control plane of its own`);
  buildPaddock();
  cluster = await BenchCluster.up(DIR, log, {
    controllers: SCALE_CONTROLLERS, controllerManagerArgs: SCALE_CONTROLLER_ARGS, apiserverEnv: { GOMEMLIMIT: String(SCALE_APISERVER_MEMORY_LIMIT) },
  });
  return tenantQuotaScenario(cluster, config.tenantQuota, log);
}

/** `--only` may also name the scenarios that run on a control plane of their own. */
const ADMISSION = 'admission';
const TENANT_QUOTA = 'tenant-quota';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const tenantsArg = args.find((a) => a.startsWith('--reconcile-tenants='));
  const onlyArg = args.find((a) => a.startsWith('--only='));
  const scaleArg = args.find((a) => a === '--scale' || a.startsWith('--scale='));
  const budgetArg = args.find((a) => a.startsWith('--scale-build-minutes='));
  const sizesArg = args.find((a) => a.startsWith('--sizes='));
  const breakdownArg = args.find((a) => a === '--heap-breakdown');
  const unknown = args.filter((a) => a !== '--quick' && a !== tenantsArg && a !== onlyArg && a !== scaleArg && a !== budgetArg && a !== sizesArg && a !== breakdownArg);
  if (unknown.length) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick, --sizes=N,... with --quick, --heap-breakdown, --reconcile-tenants=N, --only=<scenario>,... (admission and tenant-quota among them) or --only=scale, --scale[=N], --scale-build-minutes=M)`);
  const buildMinutes = budgetArg ? Number(budgetArg.split('=')[1]) : SCALE_DEFAULTS.buildBudgetMs / 60_000;
  if (!(buildMinutes > 0)) throw new Error(`${budgetArg}: not a positive number of minutes`);
  const scaleNamespaces = scaleArg?.includes('=') ? Number(scaleArg.split('=')[1]) : 100_000;
  if (!Number.isInteger(scaleNamespaces) || scaleNamespaces < 10) throw new Error(`${scaleArg}: not an integer ≥ 10`);
  // The scale scenario runs alone, on a control plane of its own.
  const scaleOnly = onlyArg === '--only=scale';
  const only = new Set<Scenario>();
  let admission = !onlyArg;
  let tenantQuota = !onlyArg;
  for (const s of onlyArg && !scaleOnly ? onlyArg.slice('--only='.length).split(',') : []) {
    if (s === ADMISSION) {
      admission = true;
      continue;
    }
    if (s === TENANT_QUOTA) {
      tenantQuota = true;
      continue;
    }
    if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`--only: unknown scenario ${JSON.stringify(s)} (one of ${SCENARIOS.join(', ')}, ${ADMISSION}, ${TENANT_QUOTA}, or scale alone)`);
    only.add(s as Scenario);
  }
  // Only scenarios of clusters of their own: the main cluster is not built.
  const mainRun = !onlyArg || only.size > 0;
  let config = args.includes('--quick') ? QUICK : FULL;
  if (tenantsArg) {
    const tenants = Number(tenantsArg.split('=')[1]);
    if (!Number.isInteger(tenants) || tenants < 1) throw new Error(`${tenantsArg}: not a positive integer`);
    config = { ...config, reconcile: { ...config.reconcile, tenants } };
  }
  if (sizesArg) {
    // Other sizes make a quick run (its results never replace latest.*).
    if (config.name !== 'quick') throw new Error(`${sizesArg}: only with --quick`);
    const sizes = sizesArg.slice('--sizes='.length).split(',').map(Number);
    if (sizes.some((n, i) => !Number.isInteger(n) || n % config.namespacesPerTenant !== 0 || n <= (sizes[i - 1] ?? 0))) {
      throw new Error(`${sizesArg}: increasing multiples of ${config.namespacesPerTenant}`);
    }
    config = { ...config, sizes };
  }
  const runOptions: RunOptions = breakdownArg ? { breakdownDir: DIR } : {};
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping`);
    void teardown().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (scaleOnly) {
      writeScale(await runScale(FULL, scaleNamespaces, buildMinutes, runOptions), undefined);
      log('scale results written to bench/results/ (a timestamped -scale.json, merged into latest.json and latest.md)');
      return;
    }
    let latest: BenchResults | undefined;
    if (mainRun) {
      const results = await run(config, only, runOptions);
      latest = write(results, only);
      console.log('\n' + toMarkdown(results));
      log(config.name === 'quick' ? 'results written to bench/results/ (a timestamped -quick.json)' : 'results written to bench/results/ (latest.md, latest.json, latency-vs-size.svg)');
    }
    const quick = config.name === 'quick';
    if (admission) {
      latest = writeAdmission(await runAdmission(config), quick ? undefined : latest, quick) ?? latest;
      log(`admission results written to bench/results/ (a timestamped -admission.json${quick ? '' : ', merged into latest.json and latest.md'})`);
    }
    if (tenantQuota) {
      latest = writeTenantQuota(await runTenantQuota(config), quick ? undefined : latest, quick) ?? latest;
      log(`tenant-wide quota results written to bench/results/ (a timestamped -tenantQuota.json${quick ? '' : ', merged into latest.json and latest.md'})`);
    }
    if (scaleArg) writeScale(await runScale(FULL, scaleNamespaces, buildMinutes, runOptions), quick ? undefined : latest);
  } finally {
    await teardown();
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  void teardown().finally(() => process.exit(1));
});
