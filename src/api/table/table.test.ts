import type { TenantNamespace } from '../../kube/types';
import { TENANT_NAMESPACE_COLUMNS, TENANT_NAMESPACE_TABLE } from '../resources/tenantnamespaces/tenant-namespace-table';
import { humanDuration, humanDurationSpan, NONE, toObjectTable, toPartialObjectMetadata, toPartialObjectMetadataList, toTable, translateTimestampSince } from './index';

const now = new Date('2026-01-02T03:09:05Z');

const oilProduction: TenantNamespace = {
  kind: 'TenantNamespace',
  apiVersion: 'tenancy.paddock.dev/v1alpha1',
  metadata: {
    name: 'oil-production',
    uid: 'u1',
    resourceVersion: '42',
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { 'paddock.dev/tenant': 'oil', 'pod-security.kubernetes.io/enforce': 'baseline' },
  },
  spec: { tenant: 'oil' },
  status: {
    phase: 'Active',
    owners: [
      { kind: 'User', name: 'alice', role: 'admin' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'operator' },
    ],
    quota: { hard: { cpu: '8', memory: '16Gi', pods: '10' }, used: { cpu: '250m', memory: '1Gi', pods: '3' } },
    tenantQuota: { share: { pods: '5', 'requests.cpu': '1500m' }, used: { pods: '3', 'requests.cpu': '250m' } },
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    conditions: [{ type: 'GuardrailsReady', status: 'True', reason: 'InSync' }],
  },
};

const bare: TenantNamespace = {
  kind: 'TenantNamespace',
  apiVersion: 'tenancy.paddock.dev/v1alpha1',
  metadata: { name: 'gas-dev', resourceVersion: '43' },
  spec: { tenant: 'gas' },
  status: { phase: 'Terminating', owners: [] },
};

describe('Table of TenantNamespaces', () => {
  it('has NAME, TENANT, STATUS, AGE, then the -o wide columns', () => {
    expect(TENANT_NAMESPACE_COLUMNS.map((c) => [c.name.toUpperCase(), c.priority])).toEqual([
      ['NAME', 0],
      ['TENANT', 0],
      ['STATUS', 0],
      ['AGE', 0],
      ['OWNERS', 1],
      ['CPU', 1],
      ['MEMORY', 1],
      ['PODS', 1],
      ['SHARE', 1],
      ['GUARDRAILS', 1],
      ['POD-SECURITY', 1],
      ['NODE-SELECTOR', 1],
    ]);
    expect(TENANT_NAMESPACE_COLUMNS[0]).toMatchObject({ type: 'string', format: 'name' });
    for (const c of TENANT_NAMESPACE_COLUMNS) expect(c.description.length).toBeGreaterThan(10);
  });

  it('renders one row per item with used/hard quotas and the object’s metadata by default', () => {
    const table = toTable(TENANT_NAMESPACE_TABLE, [oilProduction], { resourceVersion: '50', continue: 'tok', remainingItemCount: 3 }, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now });
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.metadata).toEqual({ resourceVersion: '50', continue: 'tok', remainingItemCount: 3 });
    expect(table.rows).toEqual([
      {
        cells: ['oil-production', 'oil', 'Active', '5m', 'User:alice,ServiceAccount:ci/deployer', '250m/8', '1Gi/16Gi', '3/10', 'pods: 3/5, requests.cpu: 250m/1500m', 'InSync', 'baseline', 'kubernetes.io/os=linux'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: oilProduction.metadata },
      },
    ]);
  });

  it('shows <none> for what is absent, as kube’s printers do', () => {
    const [row] = toTable(TENANT_NAMESPACE_TABLE, [bare], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }).rows;
    expect(row!.cells).toEqual(['gas-dev', 'gas', 'Terminating', '<unknown>', NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE]);
    expect(row!.object).toBeNull();
  });

  it('shows 0 used until the quota controller reports', () => {
    const fresh: TenantNamespace = { ...bare, status: { quota: { hard: { 'requests.cpu': '2' } } } };
    expect(toTable(TENANT_NAMESPACE_TABLE, [fresh], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }).rows[0]!.cells[5]).toBe('0/2');
  });

  it('shows the share of the tenant-wide quota in force as used/share, <pending> while none of it is, 0 used until counted', () => {
    const shareCell = (tenantQuota: NonNullable<TenantNamespace['status']>['tenantQuota']) =>
      toTable(TENANT_NAMESPACE_TABLE, [{ ...bare, status: { tenantQuota } }], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }).rows[0]!.cells[8];
    expect(TENANT_NAMESPACE_COLUMNS[8]!.name).toBe('Share');
    expect(shareCell({ share: { 'requests.cpu': '1', pods: '4' }, used: { pods: '4' } })).toBe('pods: 4/4, requests.cpu: 0/1');
    // Moving: what is in force shows; the amount written waits in status.tenantQuota.pending.
    expect(shareCell({ share: { pods: '4' }, used: { pods: '1' }, pending: { pods: '2' } })).toBe('pods: 1/4');
    expect(shareCell({ share: {}, used: {}, pending: { pods: '0' } })).toBe('<pending>');
    expect(shareCell(undefined)).toBe(NONE);
  });

  it('carries the whole object with includeObject=Object and v1beta1 metadata with v1beta1', () => {
    expect(toTable(TENANT_NAMESPACE_TABLE, [oilProduction], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Object', now }).rows[0]!.object).toBe(oilProduction);
    expect(toTable(TENANT_NAMESPACE_TABLE, [oilProduction], {}, { groupVersion: 'meta.k8s.io/v1beta1', includeObject: 'Metadata', now })).toMatchObject({
      apiVersion: 'meta.k8s.io/v1beta1',
      rows: [{ object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1' } }],
    });
  });

  it('has rows: [] and no empty list fields when empty', () => {
    expect(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, [], { resourceVersion: '7', continue: '' }, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now }))).toBe(
      `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"7"},"columnDefinitions":${JSON.stringify(TENANT_NAMESPACE_COLUMNS)},"rows":[]}`,
    );
  });

  it('renders one object as a one-row Table with its resourceVersion, headers left out on request', () => {
    const table = toObjectTable(TENANT_NAMESPACE_TABLE, oilProduction, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now, noHeaders: true });
    expect(table.metadata).toEqual({ resourceVersion: '42' });
    expect(table.columnDefinitions).toBeNull();
    expect(table.rows).toHaveLength(1);
  });

  it('keeps the metadata of the initial-events-end bookmark even with includeObject=None', () => {
    const bookmark: TenantNamespace = { ...bare, metadata: { name: '', resourceVersion: '99', annotations: { 'k8s.io/initial-events-end': 'true' } } };
    expect(toObjectTable(TENANT_NAMESPACE_TABLE, bookmark, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }).rows[0]!.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
  });
});

describe('AGE', () => {
  it('reads like kube’s HumanDuration', () => {
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    const d = 24 * h;
    expect(humanDuration(-5 * s)).toBe('<invalid>');
    expect(humanDuration(-1 * s)).toBe('0s');
    expect(humanDuration(0)).toBe('0s');
    expect(humanDuration(45 * s)).toBe('45s');
    expect(humanDuration(119 * s)).toBe('119s');
    expect(humanDuration(2 * m)).toBe('2m');
    expect(humanDuration(5 * m + 30 * s)).toBe('5m30s');
    expect(humanDuration(25 * m)).toBe('25m');
    expect(humanDuration(179 * m)).toBe('179m');
    expect(humanDuration(3 * h + 5 * m)).toBe('3h5m');
    expect(humanDuration(7 * h)).toBe('7h');
    expect(humanDuration(20 * h)).toBe('20h');
    expect(humanDuration(47 * h)).toBe('47h');
    expect(humanDuration(3 * d + 4 * h)).toBe('3d4h');
    expect(humanDuration(45 * d)).toBe('45d');
    expect(humanDuration(730 * d + 30 * d)).toBe('2y30d');
    expect(humanDuration(9 * 365 * d)).toBe('9y');
  });

  it('reads the same over each span humanDurationSpan gives, and its spans cover every range and bound', () => {
    const s = 1000;
    const d = 86_400_000;
    // Every range's bounds and a neighbourhood of each, then random durations up to 10 years.
    const bounds = [0, 120 * s, 600 * s, 180 * 60 * s, 8 * 3600 * s, 48 * 3600 * s, 8 * d, 730 * d, 8 * 365 * d];
    const samples = bounds.flatMap((b) => [b - 1, b, b + 1, b + 999, b + 59_999]).filter((x) => x >= 0);
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor(Math.random() * 10 * 365 * d));
    for (const ms of samples) {
      const [from, until] = humanDurationSpan(ms);
      expect(from).toBeLessThanOrEqual(ms);
      expect(until).toBeGreaterThan(ms);
      const text = humanDuration(ms);
      if (humanDuration(from) !== text || humanDuration(until - 1) !== text) throw new Error(`${ms}: ${text}, but ${humanDuration(from)} at ${from} and ${humanDuration(until - 1)} at ${until - 1}`);
    }
    expect(humanDurationSpan(-1)).toEqual([-1, -1]); // clock skew: no span
    expect(humanDurationSpan(Number.NaN)[1]).toBeNaN();
  });

  it('is <unknown> without a creation time', () => {
    expect(translateTimestampSince(undefined, now)).toBe('<unknown>');
    expect(translateTimestampSince('2026-01-02T03:08:05Z', now)).toBe('60s');
  });
});

describe('PartialObjectMetadata', () => {
  it('keeps only the metadata', () => {
    expect(toPartialObjectMetadata(oilProduction)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: oilProduction.metadata });
  });

  it('lists items each with kind and apiVersion, and the list metadata', () => {
    expect(toPartialObjectMetadataList([oilProduction, bare], { resourceVersion: '50', remainingItemCount: 0 }, 'meta.k8s.io/v1beta1')).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: { resourceVersion: '50', remainingItemCount: 0 },
      items: [
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: oilProduction.metadata },
        { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: bare.metadata },
      ],
    });
    expect(toPartialObjectMetadataList([], {}).items).toEqual([]);
  });
});
