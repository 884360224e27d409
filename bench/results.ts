/**
 * Writing a run's results to bench/results/: the run's own file, and latest.json, latest.md and the
 * latency chart, which hold the last full run (a partial run replaces only its scenarios' fields).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { latencyChart, toMarkdown, withDerived, type BenchResults } from './report';
import type { AdmissionResult } from './admission';
import type { ScaleResult } from './scale';
import type { TenantQuotaResult } from './tenant-quota';

const RESULTS = resolve(__dirname, 'results');

/** The scenarios `--only` may name (scale runs alone, on a cluster of its own). */
export const SCENARIOS = ['owner-list', 'admin-list', 'memory', 'classes', 'watch', 'reconcile', 'capsule', 'ha'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/**
 * Writes the run's results; returns what latest.* now hold. A run of some scenarios (`--only`) replaces
 * just those scenarios' results in latest.json, keeping every other field of the previous full run.
 */
export function write(results: BenchResults, only: ReadonlySet<Scenario>): BenchResults {
  mkdirSync(RESULTS, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const suffix = `${results.config.name === 'quick' ? '-quick' : ''}${only.size ? `-only-${[...only].join('-')}` : ''}`;
  writeFileSync(join(RESULTS, `${stamp}${suffix}.json`), JSON.stringify(results, null, 2) + '\n');
  if (results.config.name === 'quick') return results; // the latest.* files always hold a full run
  let latest = results;
  const previous = join(RESULTS, 'latest.json');
  if (only.size && existsSync(previous)) {
    const merged = JSON.parse(readFileSync(previous, 'utf8')) as BenchResults & Record<string, unknown>;
    const fields: Record<Scenario, (keyof BenchResults)[]> = {
      // `tails` holds the samples of the run that replaces it (list and watch scenarios).
      'owner-list': ['ownerList', 'tails'], 'admin-list': ['adminList', 'encodings', 'chunkReuse', 'tableAssembly', 'tails'], memory: ['memory'], classes: ['allowedClasses', 'views', 'viewWatch', 'tails'], watch: ['watch', 'tails'], reconcile: ['reconcile'], capsule: ['capsuleProxy', 'tails'], ha: ['ha'],
    };
    for (const s of only) for (const f of fields[s]) (merged as Record<string, unknown>)[f] = results[f];
    latest = withDerived(merged);
  }
  // The scale, admission and tenant-wide quota scenarios run on clusters of their own: a run without them keeps their last results.
  for (const field of OWN_CLUSTER) {
    if (latest[field] || !existsSync(previous)) continue;
    const kept = (JSON.parse(readFileSync(previous, 'utf8')) as BenchResults)[field];
    if (kept) {
      latest = withDerived({ ...latest, [field]: kept });
    }
  }
  writeFileSync(previous, JSON.stringify(latest, null, 2) + '\n');
  writeFileSync(join(RESULTS, 'latest.md'), toMarkdown(latest));
  // capsule-proxy joins the chart only when measured in the run the chart's other lines come from.
  writeFileSync(join(RESULTS, 'latency-vs-size.svg'), latencyChart(latest.ownerList, latest.capsuleProxy?.startedAt === latest.startedAt ? latest.capsuleProxy : undefined));
  return latest;
}

/** The scenarios that run on a control plane of their own, each merged into latest.json under its field. */
const OWN_CLUSTER = ['scale', 'admission', 'tenantQuota'] as const;
type OwnCluster = (typeof OWN_CLUSTER)[number];

/**
 * Writes the result of a scenario run on a control plane of its own to a timestamped file and, unless
 * `quick`, merges it into latest.json (every other field kept) and rewrites latest.md; returns what
 * latest.json now holds.
 */
function writeOwn<K extends OwnCluster>(field: K, result: NonNullable<BenchResults[K]>, base: BenchResults | undefined, quick: boolean): BenchResults | undefined {
  mkdirSync(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(RESULTS, `${stamp}${quick ? '-quick' : ''}-${field}.json`), JSON.stringify(result, null, 2) + '\n');
  if (quick) return undefined; // the latest.* files always hold a full run
  const latest = join(RESULTS, 'latest.json');
  const previous = base ?? (existsSync(latest) ? (JSON.parse(readFileSync(latest, 'utf8')) as BenchResults) : undefined);
  if (!previous) return undefined;
  const merged = withDerived({ ...previous, [field]: result });
  writeFileSync(latest, JSON.stringify(merged, null, 2) + '\n');
  writeFileSync(join(RESULTS, 'latest.md'), toMarkdown(merged));
  console.log('\n' + toMarkdown(merged));
  return merged;
}

/** Merges a scale result into latest.json (every other field kept) and rewrites latest.md. */
export function writeScale(scale: ScaleResult, base: BenchResults | undefined): BenchResults | undefined {
  return writeOwn('scale', scale, base, false);
}

/** Writes an admission result; a full run's is merged into latest.json (every other field kept) and latest.md. */
export function writeAdmission(admission: AdmissionResult, base: BenchResults | undefined, quick: boolean): BenchResults | undefined {
  return writeOwn('admission', admission, base, quick);
}

/** Writes a tenant-wide quota result; a full run's is merged into latest.json (under `tenantQuota`, every other field kept) and latest.md. */
export function writeTenantQuota(tenantQuota: TenantQuotaResult, base: BenchResults | undefined, quick: boolean): BenchResults | undefined {
  return writeOwn('tenantQuota', tenantQuota, base, quick);
}
