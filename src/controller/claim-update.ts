import type { PaddockCache } from '../cache/paddock-cache';
import { PADDOCK, type Namespace, type NamespaceClaim, type Tenant } from '../kube/types';
import { claimHolds, claimsOf, declaredNames, declaredToClaim, isPendingClaim, newClaim, provenByUid, tenantOfName, withClaim } from '../tenancy/claims';
import { namespaceRef } from '../tenancy/namespace';
import type { Writer } from './writer';

/**
 * Annotation that marked self-service namespaces before claims recorded their origin; read only to
 * migrate a Tenant that has no claims yet.
 */
const LEGACY_SELF_SERVICE_ANNOTATION = 'paddock.dev/self-service';

/** A Tenant's claims brought up to date (see {@link updateClaims}). */
export interface ClaimUpdate {
  claims: NamespaceClaim[];
  /**
   * Whether claims were added, dropped or rewritten (an origin, a migration): they are to be written
   * before any namespace is created. A UID recorded alone does not count: it goes out with the pass's
   * status (see {@link proveByToken}).
   */
  changed: boolean;
  /** The token of each fresh claim, by namespace name: the namespace is created with it. */
  tokens: Map<string, string>;
  /** Declared names not claimed because of namespaceQuota, in spec order. */
  overQuota: string[];
  /** Declared names held by a namespace Paddock cannot prove it created, or declared by another tenant. */
  conflicts: string[];
  /** Claims without a UID whose namespace exists and is not proven by the token (see {@link TokenProof}). */
  unproven: ReadonlySet<string>;
}

/** What a pass learned of the claims without a UID by reading their namespaces live. */
export interface TokenProof {
  /** The claims, each one whose namespace its token proves now with that namespace's UID. */
  claims: NamespaceClaim[];
  /** The namespaces read, by name; undefined: there is none of that name. */
  live: ReadonlyMap<string, Namespace | undefined>;
  /**
   * Names of claims without a UID whose namespace existed when read and is not proven by the token (made
   * by someone else, or released since). One that did not exist yet may still be on its way (a
   * self-service create).
   */
  unproven: ReadonlySet<string>;
}

/**
 * The claims without a UID, checked against their namespaces read live: the cache keeps no token (see
 * claimHolds). One the token proves gets the namespace's UID, which proves it from then on. Nothing is
 * written here: the UIDs go out with the pass's status, and a pass that runs on a Tenant whose last
 * status write the cache has not seen yet writes none (an early write of its own would earn a 409).
 */
export async function proveByToken(claims: readonly NamespaceClaim[], writer: Writer): Promise<TokenProof> {
  const live = new Map<string, Namespace | undefined>();
  const unproven = new Set<string>();
  let out = [...claims];
  for (const claim of claims) {
    if (claim.uid) continue;
    const ns = await writer.get<Namespace>(namespaceRef(claim.name));
    live.set(claim.name, ns);
    if (ns?.metadata.uid && claimHolds(claim, ns)) out = withClaim(out, provenByUid(claim, ns.metadata.uid));
    else if (ns) unproven.add(claim.name);
  }
  return { claims: out, live, unproven };
}

/**
 * Brings the tenant's claims up to date, without writing: records the UID of a namespace proven by its
 * token (read live, {@link proveByToken}), draws a fresh proof for a declared namespace that must be
 * (re)created, claims the declared names that fit namespaceQuota, and drops claims that are over (a
 * self-service namespace that is gone, a pending one that never came). Tokens are only ever held in
 * memory: the namespace created with one proves itself by it even if this process dies before recording
 * its UID, and the next pass records it.
 */
export async function updateClaims(tenant: Tenant, cache: PaddockCache, writer: Writer): Promise<ClaimUpdate> {
  const now = new Date();
  const tokens = new Map<string, string>();
  const conflicts: string[] = [];
  const declared = new Set(declaredNames(tenant));
  const migrated = tenant.status?.claims === undefined ? legacyClaims(tenant, cache) : undefined;
  const proof = await proveByToken(migrated ?? claimsOf(tenant), writer);
  let claims: NamespaceClaim[] = proof.claims;
  let changed = migrated !== undefined;
  const fresh = (name: string, origin: NamespaceClaim['origin']) => {
    const { claim, token } = newClaim(name, origin, now);
    tokens.set(name, token);
    claims = withClaim(claims, claim);
    changed = true;
  };

  const drop = (claim: NamespaceClaim) => {
    claims = claims.filter((c) => c.name !== claim.name);
    changed = true;
  };

  for (let claim of [...claims]) {
    // A self-service namespace later declared in spec.namespaces is a declared one from then on.
    if (claim.origin === 'SelfService' && declared.has(claim.name)) {
      claim = { ...claim, origin: 'Declared' };
      claims = withClaim(claims, claim);
      changed = true;
    }
    const stillDeclared = claim.origin === 'Declared' && declared.has(claim.name);
    // As read live above; otherwise cached, or asked for when the cache does not have it (created
    // moments ago: its watch is not the Tenant's).
    const ns = proof.live.has(claim.name) ? proof.live.get(claim.name) : (cache.namespaces.store.get(claim.name) ?? (await writer.get<Namespace>(namespaceRef(claim.name))));
    if (ns && claimHolds(claim, ns)) continue;
    if (ns) {
      // The name is held by a namespace Paddock cannot prove it created: never adopted.
      if (stillDeclared) conflicts.push(claim.name);
      else if (!isPendingClaim(claim, now)) drop(claim);
    } else if (stillDeclared) {
      fresh(claim.name, 'Declared'); // gone: re-created under a new claim, proven by its own token
    } else if (claim.origin === 'Declared' || !isPendingClaim(claim, now)) {
      drop(claim); // a self-service namespace deleted, or one whose create never came
    }
  }

  const exists = (n: string) => cache.tenants.store.get(n) !== undefined;
  const withClaims = { ...tenant, status: { ...tenant.status, claims } };
  const { claim, overQuota } = declaredToClaim(withClaims, (name) => {
    if (tenantOfName(name, exists) !== tenant.metadata.name || cache.namespaces.store.get(name)) {
      conflicts.push(name);
      return false;
    }
    return true;
  });
  for (const name of claim) fresh(name, 'Declared');
  return { claims, changed, tokens, overQuota, conflicts, unproven: proof.unproven };
}

/**
 * Claims for a Tenant written before claims existed: the namespaces its status listed (only Paddock
 * writes status) that still carry its label, by their current UID.
 */
function legacyClaims(tenant: Tenant, cache: PaddockCache): NamespaceClaim[] {
  const claims: NamespaceClaim[] = [];
  for (const name of tenant.status?.namespaces ?? []) {
    const ns = cache.namespaces.store.get(name);
    if (!ns?.metadata.uid || ns.metadata.labels?.[PADDOCK.tenantLabel] !== tenant.metadata.name) continue;
    claims.push({ name, origin: ns.metadata.annotations?.[LEGACY_SELF_SERVICE_ANNOTATION] === 'true' ? 'SelfService' : 'Declared', uid: ns.metadata.uid });
  }
  return claims;
}
