import type { ResourceQuota } from '../../../kube/types';
import { tenant as tenantNamed } from '../../../testing/tenants';
import { deriveResourceVersion, mergeQuotas, toTenantNamespace } from './index';
import { tenantQuotaOf } from './tenant-quota';

const budgeted = tenantNamed('oil', { quota: { hard: { pods: '20', 'requests.cpu': '4' } } });
const unbudgeted = tenantNamed('oil', {});

function share(spec: Record<string, string>, status?: { hard: Record<string, string>; used: Record<string, string> }, rv = '200'): ResourceQuota {
  return { metadata: { name: 'paddock-tenant-quota', namespace: 'oil-a', resourceVersion: rv }, spec: { hard: spec }, ...(status ? { status } : {}) };
}
const tenantQuota = (hard: Record<string, string>, used: Record<string, string>, rv = '100'): ResourceQuota =>
  ({ metadata: { name: 'paddock-quota-0', namespace: 'oil-a', resourceVersion: rv }, spec: { hard }, status: { hard, used } });

describe('status.tenantQuota', () => {
  it('shows the share in force (status.hard) and its use, keys sorted', () => {
    const q = share({ pods: '5', 'requests.cpu': '1' }, { hard: { 'requests.cpu': '1', pods: '5' }, used: { pods: '3', 'requests.cpu': '200m' } });
    expect(tenantQuotaOf(budgeted, [tenantQuota({ pods: '10' }, { pods: '3' }), q])).toEqual({ share: { pods: '5', 'requests.cpu': '1' }, used: { pods: '3', 'requests.cpu': '200m' } });
  });

  it('shows a share moved but not yet in force at its old amount, the new one pending', () => {
    const moving = share({ pods: '2', 'requests.cpu': '1000m' }, { hard: { pods: '5', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '0' } });
    // 1000m is 1: only the amount that differs is pending, however it is spelled.
    expect(tenantQuotaOf(budgeted, [moving])).toEqual({ share: { pods: '5', 'requests.cpu': '1' }, used: { pods: '1', 'requests.cpu': '0' }, pending: { pods: '2' } });
  });

  it('shows an empty share while none of it is in force: just created, or missing', () => {
    expect(tenantQuotaOf(budgeted, [share({ pods: '0', 'requests.cpu': '0' })])).toEqual({ share: {}, used: {}, pending: { pods: '0', 'requests.cpu': '0' } });
    expect(tenantQuotaOf(budgeted, [tenantQuota({ pods: '10' }, {})])).toEqual({ share: {}, used: {} });
  });

  it('is absent when the Tenant has no budget, even while a share is still there', () => {
    expect(tenantQuotaOf(unbudgeted, [share({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '0' } })])).toBeUndefined();
    expect(tenantQuotaOf(undefined, [share({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '0' } })])).toBeUndefined();
    expect(toTenantNamespace({ namespace: { metadata: { name: 'oil-a', labels: { 'paddock.dev/tenant': 'oil' } } }, tenant: unbudgeted, quotas: [] }).status).not.toHaveProperty('tenantQuota', expect.anything());
  });
});

describe('status.quota beside a share', () => {
  it('counts the share as one of the namespace\'s quotas: it binds where it is the tighter', () => {
    const quotas = [tenantQuota({ pods: '10', 'requests.memory': '1Gi' }, { pods: '3', 'requests.memory': '0' }), share({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '3' } })];
    expect(mergeQuotas(quotas)).toEqual({ hard: { pods: '5', 'requests.memory': '1Gi' }, used: { pods: '3', 'requests.memory': '0' } });
    // A share above the namespace's own quota does not loosen it.
    expect(mergeQuotas([quotas[0]!, share({ pods: '12' }, { hard: { pods: '12' }, used: { pods: '3' } })])?.hard.pods).toBe('10');
  });
});

describe('the derived resourceVersion of a row with a share', () => {
  it('moves when the share moves, and with it the row', () => {
    const namespace = { metadata: { name: 'oil-a', resourceVersion: '50', labels: { 'paddock.dev/tenant': 'oil' } } };
    const at = (q: ResourceQuota) => toTenantNamespace({ namespace, tenant: { ...budgeted, metadata: { ...budgeted.metadata, resourceVersion: '60' } }, quotas: [q] });
    const before = at(share({ pods: '5' }, { hard: { pods: '5' }, used: { pods: '0' } }, '200'));
    const after = at(share({ pods: '2' }, { hard: { pods: '2' }, used: { pods: '0' } }, '210'));
    expect(before.metadata.resourceVersion).toBe('200');
    expect(after.metadata.resourceVersion).toBe('210');
    expect(after.status?.tenantQuota?.share).toEqual({ pods: '2' });
    // Served rows are immutable: the share is frozen with the status that holds it.
    expect(Object.isFrozen(after.status!.tenantQuota!.share)).toBe(true);
    expect(deriveResourceVersion([namespace, share({}, undefined, '300')])).toBe('300');
  });
});
