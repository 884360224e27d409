import type { ResourceQuota, Tenant } from '../kube/types';
import { tenantSample, usedRatio } from './tenant-samples';

const quota = (hard: Record<string, string>, used: Record<string, string>): ResourceQuota => ({ metadata: { name: 'q', namespace: 'oil-a' }, status: { hard, used } });
const tenant = (status?: Tenant['status']): Tenant => ({ metadata: { name: 'oil' }, spec: { owners: [] } as unknown as Tenant['spec'], status });

describe('usedRatio', () => {
  it('is the highest used/hard over the resources, quantities read as kube-apiserver writes them', () => {
    expect(usedRatio(quota({ 'requests.cpu': '8', 'requests.memory': '16Gi', pods: '20' }, { 'requests.cpu': '6500m', 'requests.memory': '4Gi', pods: '2' }))).toBeCloseTo(6.5 / 8);
  });

  it('counts 0 for a hard of 0, a resource not yet used, or no status', () => {
    expect(usedRatio(quota({ pods: '0', 'requests.cpu': '1' }, { pods: '0' }))).toBe(0);
    expect(usedRatio({ metadata: { name: 'q' } })).toBe(0);
  });
});

describe('tenantSample', () => {
  it('reads phase, Ready and namespaces from the status, and the fullest quota of all its namespaces', () => {
    const t = tenant({ phase: 'Active', namespaces: ['oil-a', 'oil-b'], conditions: [{ type: 'Ready', status: 'True' }] });
    expect(tenantSample(t, [quota({ pods: '10' }, { pods: '9' }), quota({ pods: '10' }, { pods: '1' })])).toEqual({ tenant: 'oil', phase: 'Active', ready: 1, namespaces: 2, quotaUsedRatio: 0.9 });
  });

  it('is Pending and not ready before the first pass', () => {
    expect(tenantSample(tenant(), [])).toEqual({ tenant: 'oil', phase: 'Pending', ready: 0, namespaces: 0, quotaUsedRatio: 0 });
  });

  it('is not ready while Ready is False or Unknown', () => {
    expect(tenantSample(tenant({ conditions: [{ type: 'Ready', status: 'Unknown' }] }), []).ready).toBe(0);
  });
});
