import { KubeApiError } from '../kube/errors';
import type { NamespaceClaim, Tenant } from '../kube/types';
import { ClaimContention, ClaimLedger, TenantGone, type TenantStatusClient } from './claim-ledger';
import { withClaim } from './claims';
import { tenant as tenantNamed } from '../testing/tenants';

/** kube-apiserver's optimistic concurrency on one Tenant, in memory: an update over a stale resourceVersion is a 409. */
class FakeTenants {
  tenant: Tenant = tenantNamed('oil', { owners: [] }, { claims: [] }, { resourceVersion: '1' });
  writes = 0;
  readonly client = {
    get: async () => structuredClone(this.tenant),
    update: async (_path: string, body: Tenant) => {
      if (body.metadata.resourceVersion !== this.tenant.metadata.resourceVersion) {
        throw new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict' });
      }
      this.writes++;
      this.tenant = { ...body, metadata: { ...body.metadata, resourceVersion: String(Number(body.metadata.resourceVersion) + 1) } };
      return structuredClone(this.tenant);
    },
  } as unknown as TenantStatusClient;
}

const claim = (name: string): NamespaceClaim => ({ name, origin: 'SelfService' });
const add = (name: string, quota: number) => (t: Tenant) => {
  const claims = t.status?.claims ?? [];
  if (claims.some((c) => c.name === name)) throw new Error('claimed');
  if (claims.length + 1 > quota) throw new Error('quota');
  return withClaim(claims, claim(name));
};

describe('ClaimLedger', () => {
  it('lets exactly quota-many of many racing claims in, each decided on the version it is written over', async () => {
    const fake = new FakeTenants();
    const ledger = new ClaimLedger(fake.client, () => undefined);
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => ledger.update('oil', add(`oil-${i}`, 6))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(6);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(Array(24).fill('quota'));
    expect(fake.tenant.status!.claims).toHaveLength(6);
  });

  it('re-checks a refusal made on a stale cached copy against a live read', async () => {
    const fake = new FakeTenants();
    const stale: Tenant = { ...fake.tenant, status: { claims: [claim('oil-a')] } }; // a claim since dropped
    const ledger = new ClaimLedger(fake.client, () => stale);
    await ledger.update('oil', add('oil-a', 6));
    expect(fake.tenant.status!.claims!.map((c) => c.name)).toEqual(['oil-a']);
  });

  it('a refusal on a live read is final', async () => {
    const fake = new FakeTenants();
    fake.tenant.status = { claims: [claim('oil-a')] };
    const ledger = new ClaimLedger(fake.client, () => undefined);
    await expect(ledger.update('oil', add('oil-a', 6))).rejects.toThrow('claimed');
    expect(fake.writes).toBe(0);
  });

  it('gives up with ClaimContention past its deadline, and reports a Tenant that is gone', async () => {
    const fake = new FakeTenants();
    const always409 = { ...fake.client, update: async () => { throw new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict' }); } } as unknown as TenantStatusClient;
    await expect(new ClaimLedger(always409, () => undefined, 50).update('oil', add('oil-a', 6))).rejects.toBeInstanceOf(ClaimContention);
    const gone = { get: async () => { throw new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound' }); } } as unknown as TenantStatusClient;
    await expect(new ClaimLedger(gone, () => undefined).update('oil', add('oil-a', 6))).rejects.toBeInstanceOf(TenantGone);
  });
});
