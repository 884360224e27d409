import type { PaddockCache } from '../cache/paddock-cache';
import type { KubeObject, Namespace, NamespaceClaim } from '../kube/types';
import { CLAIM_TOKEN_ANNOTATION, newClaim } from '../tenancy/claims';
import { tenant as tenantNamed } from '../testing/tenants';
import { updateClaims } from './claim-update';
import type { Writer } from './writer';

const NOW = new Date();

const namespace = (name: string, uid: string, token?: string): Namespace => ({
  apiVersion: 'v1', kind: 'Namespace',
  metadata: { name, uid, labels: { 'paddock.dev/tenant': 'oil' }, ...(token ? { annotations: { [CLAIM_TOKEN_ANNOTATION]: token } } : {}) },
});

/** A cache holding `cached` (what the informer keeps) and a kube-apiserver holding `live`; the names read live are recorded. */
function world(cached: Namespace[], live: Namespace[]) {
  const read: string[] = [];
  const cache = {
    namespaces: { store: { get: (name: string) => cached.find((n) => n.metadata.name === name) } },
    tenants: { store: { get: () => undefined } },
  } as unknown as PaddockCache;
  const writer = {
    get: async (like: KubeObject) => {
      read.push(like.metadata.name);
      return live.find((n) => n.metadata.name === like.metadata.name);
    },
  } as unknown as Writer;
  return { cache, writer, read };
}

const selfService = (name: string) => newClaim(name, 'SelfService', NOW);
const withClaims = (...claims: NamespaceClaim[]) => tenantNamed('oil', {}, { claims });

describe('updateClaims: a claim without a UID', () => {
  it('is proven by the token on the namespace read live, and gets its UID without a write of its own', async () => {
    const { claim, token } = selfService('oil-a');
    const { cache, writer, read } = world([], [namespace('oil-a', 'u-a', token)]);
    const update = await updateClaims(withClaims(claim), cache, writer);
    expect(update.claims).toEqual([{ name: 'oil-a', origin: 'SelfService', claimedAt: claim.claimedAt, uid: 'u-a' }]);
    // The UID goes out with the pass's status: an early write from a stale Tenant would earn a 409.
    expect(update.changed).toBe(false);
    expect(update.unproven.size).toBe(0);
    expect(read).toEqual(['oil-a']);
  });

  it('is never proven by a cached copy, and the cached namespace does not stand in for the live one', async () => {
    const { claim, token } = selfService('oil-a');
    // The cache keeps no token, but even a copy that had one proves nothing: the namespace is gone.
    const { cache, writer } = world([namespace('oil-a', 'u-a', token)], []);
    const update = await updateClaims(withClaims(claim), cache, writer);
    expect(update.claims).toEqual([claim]); // pending: its create may still come
    expect(update.unproven.size).toBe(0);
  });

  it('names a namespace that exists with another token as unproven, and leaves the claim as it was', async () => {
    const { claim } = selfService('oil-a');
    const { cache, writer } = world([], [namespace('oil-a', 'u-a', 'someone-elses')]);
    const update = await updateClaims(withClaims(claim), cache, writer);
    expect(update.claims).toEqual([claim]);
    expect([...update.unproven]).toEqual(['oil-a']);
  });

  it('is not read live once its UID is recorded', async () => {
    const claim: NamespaceClaim = { name: 'oil-a', origin: 'SelfService', uid: 'u-a' };
    const { cache, writer, read } = world([namespace('oil-a', 'u-a')], []);
    const update = await updateClaims(withClaims(claim), cache, writer);
    expect(update.claims).toEqual([claim]);
    expect(update.changed).toBe(false);
    expect(read).toEqual([]);
  });
});
