import { join } from 'node:path';
import { kubectl } from './env';
import { CHART, REPO, helm, objectsOf, renderChart, type Rendered } from './helm';

// The chart and apiservice/ must not drift: both are rendered by their real tools (helm template,
// kubectl kustomize) and compared object by object. What the chart adds is named here, and only that
// is set aside before comparing.

jest.setTimeout(120_000);

/** Labels and annotations only Helm's rendering has: the release's labels and uninstall's keep policy. */
const HELM_ONLY_LABELS = ['app.kubernetes.io/instance', 'app.kubernetes.io/version', 'helm.sh/chart'];
const HELM_ONLY_ANNOTATIONS = ['helm.sh/resource-policy'];

const id = (o: Rendered) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function withoutHelmMetadata(o: Rendered): Rendered {
  const strip = (m: Record<string, string> | undefined, keys: string[]) => {
    const left = Object.fromEntries(Object.entries(m ?? {}).filter(([k]) => !keys.includes(k)));
    return Object.keys(left).length ? left : undefined;
  };
  const { labels, annotations, ...metadata } = o.metadata;
  const l = strip(labels, HELM_ONLY_LABELS), a = strip(annotations, HELM_ONLY_ANNOTATIONS);
  return JSON.parse(JSON.stringify({ ...o, metadata: { ...metadata, ...(l ? { labels: l } : {}), ...(a ? { annotations: a } : {}) } })) as Rendered;
}

const byId = (objects: Rendered[]) => new Map(objects.map((o) => [id(o), o]));
const find = (objects: Rendered[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const args = (objects: Rendered[]) => ((find(objects, 'Deployment', 'paddock')!.spec as any).template.spec.containers[0].args as string[]);

describe('charts/paddock and apiservice/ render the same objects', () => {
  let chart: Rendered[];
  let kustomize: Rendered[];

  beforeAll(async () => {
    chart = await renderChart();
    const res = await kubectl('admin', ['kustomize', join(REPO, 'apiservice')]);
    if (res.code !== 0) throw new Error(`kubectl kustomize failed: ${res.stderr}`);
    kustomize = objectsOf(res.stdout);
  });

  test('the same objects by kind, namespace and name, except the Namespace, which the chart leaves to helm --create-namespace', () => {
    const expected = kustomize.filter((o) => o.kind !== 'Namespace').map(id).sort();
    expect(chart.map(id).sort()).toEqual(expected);
    expect(kustomize.map(id)).toContain('Namespace//paddock-system');
  });

  test('each object equal, field for field, once the release labels are set aside', () => {
    const k = byId(kustomize);
    for (const o of chart) expect(withoutHelmMetadata(o)).toEqual(k.get(id(o)));
  });

  test('every chart object carries the release labels (the comparison set aside only what is there)', () => {
    for (const o of chart.filter((x) => x.kind !== 'CustomResourceDefinition')) {
      expect(o.metadata.labels).toMatchObject({ 'app.kubernetes.io/instance': 'paddock', 'helm.sh/chart': 'paddock-0.1.0' });
    }
  });

  test('the tenant roles are kept by helm uninstall, Paddock\'s own RBAC is not', () => {
    const kept = chart.filter((o) => o.metadata.annotations?.['helm.sh/resource-policy'] === 'keep').map((o) => o.metadata.name).sort();
    expect(kept).toEqual(['paddock:tenant-admin', 'paddock:tenant-operator', 'paddock:tenant-viewer', 'paddock:tenantnamespaces-user', 'paddock:tenantnamespaces-user']);
    expect(find(chart, 'ClusterRole', 'paddock')!.metadata.annotations).toBeUndefined();
  });
});

describe('the chart\'s values', () => {
  test('bindableClusterRoles sets the flag and the ClusterRole together', async () => {
    const objects = await renderChart(['--set', 'bindableClusterRoles={view,paddock:tenant-operator}']);
    expect(args(objects)).toContain('--bindable-cluster-roles=view,paddock:tenant-operator');
    expect((find(objects, 'ClusterRole', 'paddock:bindable-cluster-roles') as any).rules[0].resourceNames).toEqual(['view', 'paddock:tenant-operator']);
  });

  test('servingCert.mode=cert-manager: a Certificate for the Service, the Secret mounted, the CA injected into the APIService', async () => {
    const objects = await renderChart(['--set', 'servingCert.mode=cert-manager']);
    const cert = find(objects, 'Certificate', 'paddock-serving-cert') as any;
    expect(cert.spec).toMatchObject({ secretName: 'paddock-serving-cert', dnsNames: ['paddock-apiserver.paddock-system.svc'], issuerRef: { name: 'paddock-ca', kind: 'Issuer' } });
    expect(find(objects, 'Issuer', 'paddock-ca')).toBeDefined();
    expect(args(objects)).toEqual(expect.arrayContaining(['--manage-serving-cert=false', '--tls-cert-file=/var/run/paddock/tls/tls.crt', '--tls-private-key-file=/var/run/paddock/tls/tls.key']));
    expect((find(objects, 'Deployment', 'paddock') as any).spec.template.spec.volumes).toEqual([{ name: 'tls', secret: { secretName: 'paddock-serving-cert' } }]);
    expect(find(objects, 'APIService', 'v1alpha1.tenancy.paddock.dev')!.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'paddock-system/paddock-serving-cert' });
  });

  test('servingCert.mode=cert-manager with an issuerRef of the cluster\'s: no issuer of the chart\'s own', async () => {
    const objects = await renderChart(['--set', 'servingCert.mode=cert-manager', '--set', 'servingCert.certManager.issuerRef.name=corp-ca', '--set', 'servingCert.certManager.issuerRef.kind=ClusterIssuer']);
    expect(objects.filter((o) => o.kind === 'Issuer')).toEqual([]);
    expect((find(objects, 'Certificate', 'paddock-serving-cert') as any).spec.issuerRef).toEqual({ name: 'corp-ca', kind: 'ClusterIssuer' });
  });

  test('servingCert.mode=existing-secret: the Secret mounted and the CA as caBundle; without the CA helm refuses, naming the value', async () => {
    const objects = await renderChart(['--set', 'servingCert.mode=existing-secret', '--set', 'servingCert.existingSecret.name=my-tls', '--set', 'servingCert.existingSecret.caBundle=Q0E=']);
    expect((find(objects, 'APIService', 'v1alpha1.tenancy.paddock.dev') as any).spec.caBundle).toBe('Q0E=');
    expect((find(objects, 'Deployment', 'paddock') as any).spec.template.spec.volumes[0].secret.secretName).toBe('my-tls');
    await expect(renderChart(['--set', 'servingCert.mode=existing-secret', '--set', 'servingCert.existingSecret.name=my-tls'])).rejects.toThrow(/servingCert\.existingSecret\.caBundle .* is required/);
  });

  test('scheduling values reach the pod spec; replicas, resources, flags and the PDB too', async () => {
    const objects = await renderChart([
      '--set', 'replicas=3', '--set', 'priorityClassName=', '--set', 'nodeSelector.pool=infra', '--set', 'flags.workers=8',
      '--set-json', 'tolerations=[{"key":"infra","operator":"Exists","effect":"NoSchedule"}]',
      '--set-json', 'affinity={"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"pool","operator":"In","values":["infra"]}]}]}}}',
      '--set', 'resources.limits.memory=2Gi', '--set', 'podDisruptionBudget.enabled=false',
    ]);
    const d = find(objects, 'Deployment', 'paddock') as any;
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.priorityClassName).toBeUndefined();
    expect(d.spec.template.spec.nodeSelector).toEqual({ pool: 'infra' });
    expect(d.spec.template.spec.tolerations).toEqual([{ key: 'infra', operator: 'Exists', effect: 'NoSchedule' }]);
    expect(d.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key).toBe('pool');
    expect(d.spec.template.spec.containers[0].resources.limits.memory).toBe('2Gi');
    expect(args(objects)).toContain('--workers=8');
    expect(find(objects, 'PodDisruptionBudget', 'paddock')).toBeUndefined();
  });

  test('ServiceMonitor, PrometheusRule and dashboard only on demand, the scraper granted GET /metrics', async () => {
    expect((await renderChart()).filter((o) => ['ServiceMonitor', 'PrometheusRule', 'ConfigMap'].includes(o.kind))).toEqual([]);
    const objects = await renderChart(['--set', 'metrics.serviceMonitor.enabled=true', '--set', 'metrics.prometheusRule.enabled=true', '--set', 'metrics.grafanaDashboard.enabled=true',
      '--set', 'metrics.serviceMonitor.prometheusServiceAccount.name=prometheus', '--set', 'metrics.serviceMonitor.prometheusServiceAccount.namespace=monitoring']);
    const sm = find(objects, 'ServiceMonitor', 'paddock') as any;
    expect(sm.spec.endpoints[0]).toMatchObject({ port: 'https', scheme: 'https', path: '/metrics', tlsConfig: { serverName: 'paddock-apiserver.paddock-system.svc' } });
    expect((find(objects, 'ClusterRole', 'paddock:metrics-reader') as any).rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    expect((find(objects, 'ClusterRoleBinding', 'paddock:metrics-reader') as any).subjects).toEqual([{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }]);
    const rule = find(objects, 'PrometheusRule', 'paddock') as any;
    expect(rule.spec.groups[0].rules.map((r: { alert: string }) => r.alert)).toContain('PaddockAPIServiceUnavailable');
    const dashboard = find(objects, 'ConfigMap', 'paddock-dashboard') as any;
    expect(JSON.parse(dashboard.data['paddock.json']).uid).toBe('paddock');
    expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
  });

  test('another namespace is refused with the reason, and a value the schema does not know too', async () => {
    const other = await helm(undefined, ['template', 'paddock', CHART, '--namespace', 'tools']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/Paddock runs in the namespace paddock-system .* not tools/);
    const typo = await helm(undefined, ['template', 'paddock', CHART, '--namespace', 'paddock-system', '--set', 'replica=3']);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toMatch(/values don't meet the specifications of the schema[\s\S]*replica/);
    const mode = await helm(undefined, ['template', 'paddock', CHART, '--namespace', 'paddock-system', '--set', 'servingCert.mode=manual']);
    expect(mode.stderr).toMatch(/at '\/servingCert\/mode': value must be one of 'self-managed', 'cert-manager', 'existing-secret'/);
  });

  test('helm lint passes', async () => {
    const res = await helm(undefined, ['lint', CHART, '--namespace', 'paddock-system', '--strict']);
    expect(res.stderr + res.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(res.code).toBe(0);
  });
});
