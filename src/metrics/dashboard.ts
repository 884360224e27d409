/**
 * The Grafana dashboard shipped in the chart (charts/paddock/files/dashboard.json) and in
 * docs/grafana-dashboard.json, generated from this description (`npm run gen:manifests`). Rows follow the
 * questions an operator asks first: is the API available and fast, are watches healthy, is the reconciler
 * keeping up, how are the tenants, how is the process. An integration test scrapes a running Paddock
 * (and kube-apiserver) and checks that every metric and label these queries use is exported.
 */

/** One panel: a title, its unit and one query per line (legend after the `|`). */
interface Panel {
  readonly title: string;
  readonly unit: string;
  readonly queries: readonly (readonly [expr: string, legend: string])[];
  readonly type?: 'timeseries' | 'table';
  readonly description?: string;
}

interface Row {
  readonly title: string;
  readonly panels: readonly Panel[];
}

const APISERVICE = 'v1alpha1.tenancy.paddock.dev';
const RATE = '$__rate_interval';

export const DASHBOARD_ROWS: readonly Row[] = [
  {
    title: 'API: available and fast',
    panels: [
      { title: 'APIService unavailable (kube-apiserver\'s view)', unit: 'short', queries: [[`max(aggregator_unavailable_apiservice{name="${APISERVICE}"})`, 'unavailable']],
        description: 'kube-apiserver\'s own gauge: 1 while it cannot reach Paddock through the APIService.' },
      { title: 'Requests by resource, verb and code', unit: 'reqps', queries: [[`sum by (resource, verb, code) (rate(paddock_apiserver_request_duration_seconds_count[${RATE}]))`, '{{resource}} {{verb}} {{code}}']] },
      { title: 'Latency p99 by resource and verb', unit: 's', queries: [[`histogram_quantile(0.99, sum by (le, resource, verb) (rate(paddock_apiserver_request_duration_seconds_bucket{verb!="watch"}[${RATE}])))`, '{{resource}} {{verb}}']] },
      { title: 'Requests in flight', unit: 'short', queries: [['sum by (instance) (paddock_apiserver_inflight_requests)', '{{instance}}']] },
      { title: 'Refused requests (429 and other bounds) by reason', unit: 'reqps', queries: [[`sum by (reason) (rate(paddock_apiserver_rejected_requests_total[${RATE}]))`, '{{reason}}']] },
    ],
  },
  {
    title: 'Watches',
    panels: [
      { title: 'Open watches by transport', unit: 'short', queries: [['sum by (transport) (paddock_watchers)', '{{transport}}']] },
      { title: 'Watches closed by reason (slow: dropped)', unit: 'ops', queries: [[`sum by (reason) (rate(paddock_watchers_closed_total[${RATE}]))`, '{{reason}}']] },
      { title: 'Watch events sent by type', unit: 'ops', queries: [[`sum by (type) (rate(paddock_watch_events_sent_total[${RATE}]))`, '{{type}}']] },
      { title: 'Informer watches restarted (kube-apiserver side)', unit: 'ops', queries: [[`sum by (cache, reason) (rate(paddock_cache_watch_restarts_total[${RATE}]))`, '{{cache}} {{reason}}']] },
    ],
  },
  {
    title: 'Reconciler',
    panels: [
      { title: 'Leader', unit: 'short', queries: [['max by (instance) (paddock_leader_election_is_leader{name="paddock-controller"})', '{{instance}}']] },
      { title: 'Queue depth', unit: 'short', queries: [['max by (name) (paddock_workqueue_depth)', '{{name}}']] },
      { title: 'Reconciles by result', unit: 'ops', queries: [[`sum by (result) (rate(paddock_reconcile_total[${RATE}]))`, '{{result}}']] },
      { title: 'Reconcile duration p50 / p99', unit: 's', queries: [
        [`histogram_quantile(0.5, sum by (le) (rate(paddock_reconcile_duration_seconds_bucket[${RATE}])))`, 'p50'],
        [`histogram_quantile(0.99, sum by (le) (rate(paddock_reconcile_duration_seconds_bucket[${RATE}])))`, 'p99'],
      ] },
      { title: 'Writes to kube-apiserver by verb and code', unit: 'reqps', queries: [[`sum by (verb, code) (rate(paddock_client_request_duration_seconds_count{verb=~"post|put|patch|delete"}[${RATE}]))`, '{{verb}} {{code}}']] },
    ],
  },
  {
    title: 'Tenants',
    panels: [
      { title: 'Tenants by phase', unit: 'short', queries: [['max by (phase) (paddock_tenants)', '{{phase}}']] },
      { title: 'Tenants not Ready', unit: 'short', type: 'table', queries: [['max by (tenant) (paddock_tenant_ready) == 0', '{{tenant}}']] },
      { title: 'Namespaces per tenant (top 20)', unit: 'short', queries: [['topk(20, max by (tenant) (paddock_tenant_namespaces))', '{{tenant}}']] },
      { title: 'Fullest quota per tenant (top 20)', unit: 'percentunit', queries: [['topk(20, max by (tenant) (paddock_tenant_quota_used_ratio))', '{{tenant}}']],
        description: 'The highest used/hard of any resource in any ResourceQuota of the tenant\'s namespaces.' },
    ],
  },
  {
    title: 'Process',
    panels: [
      { title: 'Resident memory', unit: 'bytes', queries: [['process_resident_memory_bytes{job=~"$job"}', '{{instance}}']] },
      { title: 'Heap used', unit: 'bytes', queries: [['nodejs_heap_size_used_bytes{job=~"$job"}', '{{instance}}']] },
      { title: 'CPU', unit: 'percentunit', queries: [[`rate(process_cpu_seconds_total{job=~"$job"}[${RATE}])`, '{{instance}}']] },
      { title: 'Event-loop lag p99', unit: 's', queries: [['nodejs_eventloop_lag_p99_seconds{job=~"$job"}', '{{instance}}']] },
      { title: 'GC pauses by kind (seconds per second)', unit: 'percentunit', queries: [[`sum by (instance, kind) (rate(nodejs_gc_duration_seconds_sum{job=~"$job"}[${RATE}]))`, '{{instance}} {{kind}}']] },
    ],
  },
];

/** Every PromQL expression of the dashboard, as Prometheus receives it (variables substituted). */
export function dashboardQueries(): string[] {
  return DASHBOARD_ROWS.flatMap((r) => r.panels.flatMap((p) => p.queries.map(([expr]) => expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.+'))));
}

/** The dashboard as Grafana imports it. */
export function dashboardJson(): string {
  let id = 0;
  let y = 0;
  const panels: object[] = [];
  for (const row of DASHBOARD_ROWS) {
    panels.push({ id: ++id, type: 'row', title: row.title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
    row.panels.forEach((p, i) => {
      const width = 24 / Math.min(row.panels.length, 3);
      panels.push({
        id: ++id, type: p.type ?? 'timeseries', title: p.title, ...(p.description ? { description: p.description } : {}),
        datasource: { type: 'prometheus', uid: '${datasource}' },
        gridPos: { h: 8, w: width, x: (i % 3) * width, y: y + Math.floor(i / 3) * 8 },
        fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
        options: p.type === 'table' ? { showHeader: true } : { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } },
        targets: p.queries.map(([expr, legend], k) => ({
          refId: String.fromCharCode(65 + k), expr, legendFormat: legend, datasource: { type: 'prometheus', uid: '${datasource}' },
          ...(p.type === 'table' ? { instant: true, format: 'table' } : {}),
        })),
      });
    });
    y += Math.ceil(row.panels.length / 3) * 8;
  }
  const dashboard = {
    uid: 'paddock', title: 'Paddock', tags: ['paddock', 'multi-tenancy'], editable: true, schemaVersion: 39, version: 1,
    time: { from: 'now-6h', to: 'now' }, refresh: '30s', timezone: 'browser',
    templating: {
      list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source' },
        { name: 'job', type: 'query', datasource: { type: 'prometheus', uid: '${datasource}' }, query: 'label_values(paddock_apiserver_inflight_requests, job)', includeAll: true, multi: true, current: { text: 'All', value: '$__all' }, label: 'Job' },
      ],
    },
    annotations: { list: [] },
    panels,
  };
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}
