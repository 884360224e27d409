import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { httpsGet } from '../controlplane/controlplane';
import { dashboardQueries } from '../../src/metrics/dashboard';
import { registry } from '../../src/metrics/registry';
// The modules that declare the metrics (each registers its own in the registry when loaded).
import '../../src/metrics/api';
import '../../src/metrics/cache';
import '../../src/metrics/client';
import '../../src/metrics/leader-election';
import '../../src/metrics/workqueue';
import { applyObject, controlPlane, httpsRequest, kubectl, uniqueName, waitFor } from './env';
import { CHART } from './helm';
import { deleteTenants, tenant, waitTenantReady } from './node-env';
import { replicas } from './paddock-env';

// Every metric and label the shipped dashboard and alerts use is exported by a running Paddock (or, for
// the APIService's availability, by kube-apiserver); the expressions are parsed by Prometheus' own PromQL
// parser, and the rule file is checked with the call `promtool check rules` makes (rulefmt.ParseFile), both
// from the Prometheus Go module (test/clients/promql).

jest.setTimeout(300_000);

const ALERTS = join(CHART, 'files', 'alerts.yaml');
/** Labels Prometheus adds to every scraped series (target labels), not the exporter. */
const TARGET_LABELS = new Set(['job', 'instance', 'namespace', 'pod', 'service', 'endpoint', 'container']);

interface Family {
  /** Label names seen on its samples (with `le` for a histogram's buckets). */
  labels: Set<string>;
  samples: number;
}

/** The exposition format, as Prometheus reads it: families by name (histogram series folded into theirs). */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => families.get(name) ?? families.set(name, { labels: new Set(), samples: 0 }).get(name)!;
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (typed) {
      family(typed[1]!);
      if (typed[2] === 'histogram' || typed[2] === 'summary') for (const s of ['_bucket', '_sum', '_count']) family(typed[1]! + s);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? /.exec(line);
    if (!sample) continue;
    const f = family(sample[1]!);
    f.samples++;
    for (const m of (sample[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) f.labels.add(m[1]!);
  }
  return families;
}

/** The label names the code declares for a metric (src/metrics), for a family that has no series yet. */
function declaredLabels(name: string): Set<string> {
  const metric = registry.getSingleMetric(name) ?? registry.getSingleMetric(name.replace(/_(bucket|sum|count)$/, ''));
  return new Set((metric as unknown as { labelNames?: string[] } | undefined)?.labelNames ?? []);
}

interface Parsed {
  error?: string;
  selectors: { metric: string; labels: string[] }[];
}

/** The checker built from the Prometheus Go module (test/clients/promql). */
const promql = (): string => execFileSync('bash', [join(__dirname, '..', 'clients', 'build-go-client.sh'), 'promql'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!;

/** Parses expressions with Prometheus' parser. */
function parsePromQL(exprs: string[]): Parsed[] {
  return JSON.parse(execFileSync(promql(), { input: JSON.stringify(exprs), encoding: 'utf8' })) as Parsed[];
}

interface Rule { alert: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> }
const rules = (): Rule[] => (load(readFileSync(ALERTS, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

describe('the dashboard and the alerts use what Paddock exports', () => {
  const t = uniqueName('metrics');
  let paddock: Map<string, Family>;
  let kubeApiserver: Map<string, Family>;

  beforeAll(async () => {
    // Make the series exist that only appear with use: a Tenant reconciled with a quota partly used, a
    // watch opened and closed, a request refused (body too large).
    await applyObject(tenant(t, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'], resourceQuotas: [{ hard: { configmaps: '10' } }] } as never));
    await waitTenantReady(t);
    for (const i of [1, 2, 3, 4]) expect((await kubectl('alice', ['create', 'configmap', `c${i}`, '-n', `${t}-apps`])).code).toBe(0);
    await waitFor('the quota counting the five configmaps (with kube-root-ca.crt)', async () =>
      (await kubectl('admin', ['get', 'resourcequota', '-n', `${t}-apps`, '-o', 'jsonpath={.items[0].status.used.configmaps}'])).stdout === '5', 60_000, 250);
    const { server, pki } = controlPlane();
    // A watch from no resourceVersion starts with an ADDED event per row, and ends after a second.
    const watch = await httpsRequest(`https://127.0.0.1:${replicas()[0]!.port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?watch=true&timeoutSeconds=1`, { cert: pki.users.alice });
    expect(watch.body).toContain('"ADDED"');
    const big = await httpsRequest(`https://127.0.0.1:${replicas()[0]!.port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces`, { cert: pki.users.admin, method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2 << 20) });
    expect(big.status).toBe(413);
    // Every replica's exposition together: the leader has the reconciler's series, each its own requests.
    const scrape = async (url: string) => (await httpsGet(url, pki, pki.users.admin)).body;
    await waitFor('the quota use in the tenant gauge', async () => {
      const text = (await Promise.all(replicas().map((r) => scrape(`https://127.0.0.1:${r.port}/metrics`)))).join('\n');
      paddock = parseExposition(text);
      return text.includes(`paddock_tenant_quota_used_ratio{tenant="${t}"} 0.5`);
    }, 60_000, 500);
    kubeApiserver = parseExposition(await scrape(`${server}/metrics`));
  });

  afterAll(() => deleteTenants(t));

  test('per-tenant gauges: one series per Tenant with its Ready, namespaces and fullest quota', async () => {
    const { pki } = controlPlane();
    const text = (await httpsGet(`https://127.0.0.1:${replicas()[0]!.port}/metrics`, pki, pki.users.admin)).body;
    expect(text).toContain(`paddock_tenant_ready{tenant="${t}"} 1`);
    expect(text).toContain(`paddock_tenant_namespaces{tenant="${t}"} 1`);
    expect(text).toMatch(new RegExp(`paddock_tenant_quota_used_ratio\\{tenant="${t}"\\} 0\\.5\\n`));
    expect(text.match(new RegExp(`\\{tenant="${t}"\\}`, 'g'))).toHaveLength(3);
    expect(text).toMatch(/paddock_tenants\{phase="Active"\} [1-9]/);
  });

  test('process and runtime metrics: memory, heap, CPU, event-loop lag, GC', () => {
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_gc_duration_seconds_sum']) {
      expect([name, (paddock.get(name)?.samples ?? 0) > 0]).toEqual([name, true]);
    }
  });

  const used = (exprs: string[], where: string) => {
    const parsed = parsePromQL(exprs);
    const problems: string[] = [];
    parsed.forEach((p, i) => {
      if (p.error) problems.push(`${where}: ${exprs[i]}: ${p.error}`);
      for (const s of p.selectors) {
        const family = paddock.get(s.metric) ?? kubeApiserver.get(s.metric);
        if (!family) { problems.push(`${where}: ${s.metric} is not exported`); continue; }
        // A family exported without a series yet (a counter of something that has not happened, such as an
        // informer's watch restarting) shows no labels: its labels are those the code declares for it.
        const labels = family.samples > 0 ? family.labels : declaredLabels(s.metric);
        for (const label of s.labels) {
          if (!TARGET_LABELS.has(label) && !labels.has(label)) problems.push(`${where}: ${s.metric} has no label ${label} (seen: ${[...labels].join(', ')})`);
        }
      }
      if (p.selectors.length === 0 && !p.error) problems.push(`${where}: ${exprs[i]} selects nothing`);
    });
    return problems;
  };

  test('every metric and label of the dashboard\'s queries is exported', () => {
    expect(used(dashboardQueries(), 'dashboard')).toEqual([]);
  });

  test('every metric and label of the alerts is exported, and each $labels an annotation names is kept by its expression', () => {
    const all = rules();
    expect(used(all.map((r) => r.expr), 'alerts')).toEqual([]);
    const parsed = parsePromQL(all.map((r) => r.expr));
    all.forEach((r, i) => {
      const kept = new Set(parsed[i]!.selectors.flatMap((s) => s.labels));
      for (const m of Object.values(r.annotations ?? {}).join(' ').matchAll(/\$labels\.(\w+)/g)) expect([r.alert, kept.has(m[1]!)]).toEqual([r.alert, true]);
    });
  });

  test('the checker is not blind: an unknown metric, an unknown label and a syntax error are each reported', () => {
    const problems = used(['rate(paddock_nothing_total[5m])', 'sum by (colour) (paddock_watchers)', 'sum(rate(paddock_watchers[5m])'], 'probe');
    expect(problems).toEqual([
      'probe: paddock_nothing_total is not exported',
      expect.stringMatching(/^probe: paddock_watchers has no label colour/),
      expect.stringMatching(/^probe: sum\(rate\(paddock_watchers\[5m\]\): .*unclosed left parenthesis/),
    ]);
  });

  test('the rule file passes what promtool check rules checks (rulefmt.ParseFile)', () => {
    const out = execFileSync(promql(), ['-rules', ALERTS], { encoding: 'utf8' });
    expect(out).toMatch(new RegExp(`SUCCESS: ${rules().length} rules found`));
  });

  test('the rule check refuses a broken copy, naming the error (so its SUCCESS above means something)', () => {
    const dir = join(__dirname, '..', '..', '.paddock');
    const broken = join(dir, 'alerts-broken.yaml');
    writeFileSync(broken, readFileSync(ALERTS, 'utf8').replace('> 0.9', '> > 0.9'));
    let failed = false;
    try {
      execFileSync(promql(), ['-rules', broken], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      failed = true;
      expect(String((err as { stdout?: string }).stdout)).toMatch(/FAILED:\n.*PaddockTenantQuotaNearlySpent|FAILED:[\s\S]*parse error/);
    }
    expect(failed).toBe(true);
  });
});
