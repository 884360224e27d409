import type { Namespace, ResourceQuota, Tenant } from '../../../kube/types';
import { StatusError } from '../../status';
import { tryParseQuantity as parseQuantity, type Quantity } from '../../../quantity/quantity';
import {
  deriveResourceVersion,
  fieldsOf,
  isSupportedFieldLabel,
  mergeQuotas,
  SUPPORTED_FIELD_LABELS,
  toTenantNamespace,
  unsupportedFieldLabel,
} from './index';
import { tenant as tenantNamed } from '../../../testing/tenants';

const compareQuantities = (a: Quantity, b: Quantity) => a.cmp(b);

const namespace: Namespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: {
    name: 'oil-production',
    uid: 'ns-uid-1',
    resourceVersion: '120',
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { 'paddock.dev/tenant': 'oil', 'app.kubernetes.io/managed-by': 'paddock', 'pod-security.kubernetes.io/enforce': 'baseline' },
    annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'kubernetes.io/os=linux', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
  },
  status: { phase: 'Active' },
};

const tenant: Tenant = tenantNamed('oil', {
  owners: [
    { kind: 'User', name: 'alice' },
    { kind: 'Group', name: 'oil-devs', role: 'operator' },
    { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'viewer' },
  ],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
}, undefined, { resourceVersion: '130' });

function quota(name: string, hard: Record<string, string>, used?: Record<string, string>, rv = '100'): ResourceQuota {
  return { metadata: { name, namespace: 'oil-production', resourceVersion: rv }, spec: { hard }, status: used ? { hard, used } : undefined };
}

describe('toTenantNamespace', () => {
  const tns = toTenantNamespace({
    namespace,
    tenant,
    quotas: [quota('paddock-quota-0', { cpu: '8', memory: '16Gi', pods: '10' }, { cpu: '250m', memory: '1Gi', pods: '3' })],
    guardrails: { inSync: true, lastTransitionTime: '2026-01-02T03:05:00Z' },
    resourceVersion: '777',
  });

  it('is a tenancy.paddock.dev/v1alpha1 TenantNamespace named and identified like its namespace', () => {
    expect(tns.apiVersion).toBe('tenancy.paddock.dev/v1alpha1');
    expect(tns.kind).toBe('TenantNamespace');
    expect(tns.metadata).toEqual({
      name: 'oil-production',
      uid: 'ns-uid-1',
      resourceVersion: '777',
      creationTimestamp: '2026-01-02T03:04:05Z',
      labels: namespace.metadata.labels,
    });
    expect(tns.metadata.labels).not.toBe(namespace.metadata.labels);
  });

  it('shows the Tenant\'s nodeSelector (admission merges it into every pod) and none of the namespace\'s annotations', () => {
    expect(tns.status?.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(tns.metadata.annotations).toBeUndefined();
  });

  it('names its tenant in spec and lists the owners with roles defaulted to admin', () => {
    expect(tns.spec).toEqual({ tenant: 'oil' });
    expect(tns.status?.owners).toEqual([
      { kind: 'User', name: 'alice', role: 'admin' },
      { kind: 'Group', name: 'oil-devs', role: 'operator' },
      { kind: 'ServiceAccount', name: 'deployer', namespace: 'ci', role: 'viewer' },
    ]);
  });

  it('reports phase, quota and a GuardrailsReady condition', () => {
    expect(tns.status).toMatchObject({
      phase: 'Active',
      quota: { hard: { cpu: '8', memory: '16Gi', pods: '10' }, used: { cpu: '250m', memory: '1Gi', pods: '3' } },
      conditions: [{ type: 'GuardrailsReady', status: 'True', reason: 'InSync', lastTransitionTime: '2026-01-02T03:05:00Z' }],
    });
  });

  it('derives the resourceVersion from its sources when none is given', () => {
    const derived = toTenantNamespace({ namespace, tenant, quotas: [quota('q', { pods: '1' }, undefined, '125')] });
    expect(derived.metadata.resourceVersion).toBe('130');
  });

  it('is Terminating while its namespace is being deleted', () => {
    const terminating = toTenantNamespace({
      namespace: { ...namespace, metadata: { ...namespace.metadata, deletionTimestamp: '2026-01-03T00:00:00Z' }, status: undefined },
      tenant,
      quotas: [],
    });
    expect(terminating.status?.phase).toBe('Terminating');
    expect(terminating.metadata.deletionTimestamp).toBe('2026-01-03T00:00:00Z');
    expect(terminating.status?.quota).toBeUndefined();
  });

  it('still answers when the Tenant is gone: no owners, GuardrailsReady False with TenantNotFound', () => {
    const orphan = toTenantNamespace({ namespace, tenant: undefined, quotas: [] });
    expect(orphan.spec.tenant).toBe('oil');
    expect(orphan.status?.owners).toEqual([]);
    expect(orphan.status?.conditions).toEqual([{ type: 'GuardrailsReady', status: 'False', reason: 'TenantNotFound', message: 'Tenant "oil" not found' }]);
  });

  it('reports drifted guardrails and unknown ones', () => {
    const drifted = toTenantNamespace({ namespace, tenant, quotas: [], guardrails: { inSync: false, reason: 'Drifted', message: 'NetworkPolicy paddock-isolation differs' } });
    expect(drifted.status?.conditions).toEqual([{ type: 'GuardrailsReady', status: 'False', reason: 'Drifted', message: 'NetworkPolicy paddock-isolation differs' }]);
    const pending = toTenantNamespace({ namespace, tenant, quotas: [] });
    expect(pending.status?.conditions?.[0]).toMatchObject({ status: 'Unknown', reason: 'Pending' });
  });
});

describe('mergeQuotas', () => {
  it('takes for each resource the most restrictive limit and the usage of that quota', () => {
    expect(
      mergeQuotas([
        quota('a', { cpu: '8', memory: '16Gi', pods: '10' }, { cpu: '250m', memory: '1Gi', pods: '3' }),
        quota('b', { cpu: '4000m', memory: '32Gi', 'requests.storage': '100Gi' }, { cpu: '300m', memory: '2Gi', 'requests.storage': '0' }),
      ]),
    ).toEqual({
      hard: { cpu: '4000m', memory: '16Gi', pods: '10', 'requests.storage': '100Gi' },
      used: { cpu: '300m', memory: '1Gi', pods: '3', 'requests.storage': '0' },
    });
  });

  it('prefers the larger usage on equal limits', () => {
    expect(mergeQuotas([quota('a', { pods: '10' }, { pods: '2' }), quota('b', { pods: '10' }, { pods: '5' })])).toEqual({ hard: { pods: '10' }, used: { pods: '5' } });
  });

  it('reads spec.hard until the quota controller reports, without usage', () => {
    expect(mergeQuotas([{ metadata: { name: 'new' }, spec: { hard: { pods: 10 } } }])).toEqual({ hard: { pods: '10' }, used: {} });
  });

  it('ignores scoped quotas when an unscoped one exists', () => {
    const scoped: ResourceQuota = { metadata: { name: 'best-effort' }, spec: { hard: { pods: '1' }, scopes: ['BestEffort'] }, status: { hard: { pods: '1' }, used: { pods: '0' } } };
    expect(mergeQuotas([scoped, quota('a', { pods: '10' }, { pods: '3' })])).toEqual({ hard: { pods: '10' }, used: { pods: '3' } });
  });

  it('is undefined without quotas', () => {
    expect(mergeQuotas([])).toBeUndefined();
  });
});

describe('quantities', () => {
  it('compare across suffixes', () => {
    const q = (s: string) => parseQuantity(s)!;
    expect(compareQuantities(q('250m'), q('0.25'))).toBe(0);
    expect(compareQuantities(q('1Gi'), q('1G'))).toBe(1);
    expect(compareQuantities(q('1e3'), q('1k'))).toBe(0);
    expect(compareQuantities(q('500Mi'), q('1Gi'))).toBe(-1);
    expect(compareQuantities(q('1.5'), q('1500m'))).toBe(0);
    expect(parseQuantity('abc')).toBeUndefined();
    expect(parseQuantity('')).toBeUndefined();
  });
});

describe('deriveResourceVersion', () => {
  it('is the largest numeric resourceVersion of the sources', () => {
    expect(deriveResourceVersion([{ metadata: { name: 'a', resourceVersion: '99' } }, undefined, { metadata: { name: 'b', resourceVersion: '100' } }])).toBe('100');
    expect(deriveResourceVersion([])).toBe('0');
  });
});

describe('field selectors', () => {
  it('select by name, tenant and phase', () => {
    const tns = toTenantNamespace({ namespace, tenant, quotas: [] });
    expect(fieldsOf(tns)).toEqual({ 'metadata.name': 'oil-production', 'spec.tenant': 'oil', 'status.phase': 'Active' });
    expect(SUPPORTED_FIELD_LABELS).toEqual(['metadata.name', 'spec.tenant', 'status.phase']);
    expect(isSupportedFieldLabel('spec.tenant')).toBe(true);
    expect(isSupportedFieldLabel('metadata.namespace')).toBe(false);
  });

  it('refuse other labels with a 400', () => {
    const err = unsupportedFieldLabel('spec.owner');
    expect(err).toBeInstanceOf(StatusError);
    expect(err.status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'field label not supported: spec.owner' });
  });
});
