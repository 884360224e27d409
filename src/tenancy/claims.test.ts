import type { Namespace, NamespaceClaim, Tenant, TenantSpec } from '../kube/types';
import {
  CLAIM_TOKEN_ANNOTATION, claimHolds, declaredToClaim, isProvisioned, namesTakenFromOthers, newClaim, provenByUid, selfServiceRefusal, tenantOfName,
} from './claims';
import { tenant as tenantNamed } from '../testing/tenants';

function tenant(name: string, spec: Partial<TenantSpec> = {}, claims?: NamespaceClaim[]): Tenant {
  return tenantNamed(name, spec, claims ? { claims } : undefined);
}

function namespace(name: string, uid: string, annotations: Record<string, string> = {}): Namespace {
  return { metadata: { name, uid, labels: { 'paddock.dev/tenant': 'oil' }, annotations } };
}

const claim = (name: string, origin: NamespaceClaim['origin'] = 'Declared', uid?: string): NamespaceClaim => ({ name, origin, ...(uid ? { uid } : {}) });

describe('claimHolds: a namespace is the tenant\'s only by the claim', () => {
  it('holds by UID', () => {
    expect(claimHolds(claim('oil-a', 'Declared', 'u1'), namespace('oil-a', 'u1'))).toBe(true);
  });

  it('does not hold for a namespace of the same name with another UID (deleted and re-created by someone)', () => {
    expect(claimHolds(claim('oil-a', 'Declared', 'u1'), namespace('oil-a', 'u2'))).toBe(false);
  });

  it('holds by the token Paddock put on the namespace before its UID was recorded', () => {
    const { claim: c, token } = newClaim('oil-a', 'SelfService', new Date());
    expect(c.proof).toBeDefined();
    expect(c.proof).not.toContain(token);
    expect(claimHolds(c, namespace('oil-a', 'u9', { [CLAIM_TOKEN_ANNOTATION]: token }))).toBe(true);
  });

  it('does not hold for a forged or copied token', () => {
    const { claim: c } = newClaim('oil-a', 'SelfService', new Date());
    const other = newClaim('oil-a', 'SelfService', new Date());
    expect(claimHolds(c, namespace('oil-a', 'u9', { [CLAIM_TOKEN_ANNOTATION]: other.token }))).toBe(false);
    expect(claimHolds(c, namespace('oil-a', 'u9', { [CLAIM_TOKEN_ANNOTATION]: c.proof! }))).toBe(false);
    expect(claimHolds(c, namespace('oil-a', 'u9'))).toBe(false);
  });

  it('once the UID is recorded, the token proves nothing (a namespace re-created with the copied token is not the tenant\'s)', () => {
    const { claim, token } = newClaim('oil-dev', 'Declared', new Date());
    const recorded = provenByUid(claim, 'u1');
    expect(recorded.proof).toBeUndefined();
    expect(claimHolds(recorded, namespace('oil-dev', 'u1'))).toBe(true);
    const recreated = namespace('oil-dev', 'u2', { [CLAIM_TOKEN_ANNOTATION]: token });
    expect(claimHolds(recorded, recreated)).toBe(false);
    // Even a claim that kept its hash by mistake: a recorded UID is the only proof.
    expect(claimHolds({ ...claim, uid: 'u1' }, recreated)).toBe(false);
  });

  it('a label alone proves nothing', () => {
    expect(isProvisioned(tenant('oil'), namespace('oil-a', 'u1'))).toBe(false);
    expect(isProvisioned(tenant('oil', {}, [claim('oil-a', 'Declared', 'u1')]), namespace('oil-a', 'u1'))).toBe(true);
    expect(isProvisioned(undefined, namespace('oil-a', 'u1'))).toBe(false);
  });
});

describe('tenantOfName: the longest <tenant>- prefix wins', () => {
  const tenants = new Set(['oil', 'oil-prod', 'gas']);
  const exists = (t: string) => tenants.has(t);

  it.each([
    ['oil-dev', 'oil'],
    ['oil-prod-x', 'oil-prod'],
    ['oil-prod', 'oil'],
    ['oil-production', 'oil'],
    ['gas-a-b-c', 'gas'],
    ['water-a', undefined],
    ['oil', undefined],
    ['-oil-a', undefined],
  ])('%s belongs to %s', (name, owner) => {
    expect(tenantOfName(name, exists)).toBe(owner);
  });
});

describe('namesTakenFromOthers: a new Tenant never takes a namespace from another', () => {
  it('names the claims of a shorter tenant that fall under the new tenant\'s prefix', () => {
    const oil = tenant('oil', {}, [claim('oil-prod-x', 'SelfService', 'u1'), claim('oil-dev', 'SelfService', 'u2'), claim('oil-prodx', 'SelfService', 'u3')]);
    const lookup = (n: string) => (n === 'oil' ? oil : undefined);
    expect(namesTakenFromOthers('oil-prod', lookup)).toEqual(['oil-prod-x']);
    expect(namesTakenFromOthers('oil-dev', lookup)).toEqual([]);
    expect(namesTakenFromOthers('gas', lookup)).toEqual([]);
  });

  it('looks at every shorter tenant (a-b-c checks a and a-b)', () => {
    const a = tenant('a', {}, [claim('a-b-c-1')]);
    const ab = tenant('a-b', {}, [claim('a-b-c-2')]);
    const lookup = (n: string) => ({ a, 'a-b': ab })[n];
    expect(namesTakenFromOthers('a-b-c', lookup)).toEqual(['a-b-c-1', 'a-b-c-2']);
  });
});

describe('namespaceQuota is counted on the claims', () => {
  it('refuses a self-service claim past the quota, keeping places for unclaimed declared names', () => {
    const t = tenant('oil', { namespaces: ['a', 'b'], namespaceQuota: 3 }, [claim('oil-a')]);
    expect(selfServiceRefusal(t, 'oil-x')).toBeUndefined();
    const full = tenant('oil', { namespaces: ['a', 'b'], namespaceQuota: 3 }, [claim('oil-a'), claim('oil-x', 'SelfService', 'u')]);
    expect(selfServiceRefusal(full, 'oil-y')).toBe('quota');
  });

  it('refuses a name already claimed, whatever the quota', () => {
    expect(selfServiceRefusal(tenant('oil', {}, [claim('oil-x', 'SelfService')]), 'oil-x')).toBe('claimed');
  });

  it('has no limit without namespaceQuota', () => {
    const many = Array.from({ length: 100 }, (_, i) => claim(`oil-${i}`, 'SelfService', `u${i}`));
    expect(selfServiceRefusal(tenant('oil', {}, many), 'oil-new')).toBeUndefined();
  });

  it('claims declared names in spec order while the claims fit the quota', () => {
    const t = tenant('oil', { namespaces: ['a', 'b', 'c'], namespaceQuota: 2 }, [claim('oil-x', 'SelfService', 'u')]);
    expect(declaredToClaim(t, () => true)).toEqual({ claim: ['oil-a'], overQuota: ['oil-b', 'oil-c'] });
  });

  it('claims nothing with a quota of zero and everything without one', () => {
    expect(declaredToClaim(tenant('oil', { namespaces: ['a'], namespaceQuota: 0 }), () => true)).toEqual({ claim: [], overQuota: ['oil-a'] });
    expect(declaredToClaim(tenant('oil', { namespaces: ['a', 'b'] }), () => true).claim).toEqual(['oil-a', 'oil-b']);
  });

  it('skips names that may not be claimed (another tenant\'s, or an existing foreign namespace)', () => {
    expect(declaredToClaim(tenant('oil', { namespaces: ['a', 'b'] }), (n) => n !== 'oil-a').claim).toEqual(['oil-b']);
  });

  it('a claim over a lowered quota stays (lowering a quota never deletes), and nothing new is claimed', () => {
    const t = tenant('oil', { namespaces: ['a', 'b'], namespaceQuota: 1 }, [claim('oil-a'), claim('oil-b')]);
    expect(declaredToClaim(t, () => true)).toEqual({ claim: [], overQuota: [] });
    expect(selfServiceRefusal(t, 'oil-z')).toBe('quota');
  });
});
