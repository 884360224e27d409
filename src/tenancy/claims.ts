/**
 * Claims: how Paddock proves that a namespace is a tenant's (SPEC §6). A label proves nothing — anyone
 * who may label namespaces can write `paddock.dev/tenant: oil`. What proves it is a *claim* recorded in
 * the Tenant's status, which only Paddock writes (owners cannot write Tenants, let alone their status):
 *
 * - a claim names a namespace and, once it exists, its UID: the namespace is the tenant's exactly when
 *   its UID is the claim's;
 * - between writing the claim and learning the UID (a crash in that window), the claim holds the hash
 *   of a secret token that Paddock put into the namespace it created (annotation {@link CLAIM_TOKEN_ANNOTATION}).
 *   The token is drawn with the claim and only its hash is stored, so nobody can have created a
 *   namespace carrying it beforehand; once the UID is recorded the hash is dropped and only the UID
 *   proves (the token on the namespace is readable, so it must not prove a namespace re-created later).
 *   The token is checked against the namespace read live, never a cached copy (the cache does not keep
 *   it), and the reconcile that finds it records the UID;
 * - claims are written with optimistic concurrency (the Tenant's resourceVersion), so kube-apiserver's
 *   409 serialises every writer — both API replicas and the reconciler — and namespaceQuota is checked
 *   against the claims list itself: it cannot be double-spent.
 *
 * Names: a namespace name belongs to the tenant with the longest `<tenant>-` prefix among the Tenants
 * that exist. A tenant claims only names that are its own by that rule, and a Tenant whose name would
 * take a namespace already claimed by another tenant is refused (it provisions nothing until renamed).
 */
import { createHash, randomBytes } from 'node:crypto';
import { metaTime } from '../kube/time';
import type { Namespace, NamespaceClaim, Tenant } from '../kube/types';

/** Annotation on a namespace Paddock created: the secret whose hash is in the claim's `proof`. */
export const CLAIM_TOKEN_ANNOTATION = 'paddock.dev/claim-token';

/**
 * A self-service claim whose namespace never appeared (the replica that wrote it died before creating
 * it) is dropped after this long: longer than any create request may take.
 */
export const PENDING_CLAIM_TTL_MS = 120_000;

/**
 * Whether `claim` is a self-service claim whose namespace may still be on its way: no UID yet, and
 * written less than {@link PENDING_CLAIM_TTL_MS} before `now`.
 */
export function isPendingClaim(claim: NamespaceClaim, now: Date): boolean {
  if (claim.uid || claim.origin !== 'SelfService') return false;
  const at = Date.parse(claim.claimedAt ?? '');
  return Number.isFinite(at) && now.getTime() - at < PENDING_CLAIM_TTL_MS;
}

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A fresh claim for `name` (no UID yet) and the token to put on the namespace created for it. */
export function newClaim(name: string, origin: NamespaceClaim['origin'], now: Date): { claim: NamespaceClaim; token: string } {
  const token = randomBytes(24).toString('base64url');
  return { claim: { name, origin, proof: hash(token), claimedAt: metaTime(now) }, token };
}

/**
 * `claim` once its namespace's UID is known: the UID is the proof from now on, and the token's hash is
 * dropped (the token is on the namespace, readable by anyone who may read it, so it must stop proving
 * anything the moment the UID does).
 */
export function provenByUid(claim: NamespaceClaim, uid: string): NamespaceClaim {
  const { proof: _token, ...rest } = claim;
  return { ...rest, uid };
}

/** The claims recorded on `tenant`, never undefined. */
export function claimsOf(tenant: Tenant): NamespaceClaim[] {
  return Array.isArray(tenant.status?.claims) ? tenant.status.claims : [];
}

export function claimOf(tenant: Tenant, name: string): NamespaceClaim | undefined {
  return claimsOf(tenant).find((c) => c.name === name);
}

/** `claims` with the claim for `claim.name` replaced (or added at the end). */
export function withClaim(claims: readonly NamespaceClaim[], claim: NamespaceClaim): NamespaceClaim[] {
  const i = claims.findIndex((c) => c.name === claim.name);
  return i < 0 ? [...claims, claim] : claims.map((c, j) => (j === i ? claim : c));
}

/** `tenant`'s claims without the one for `name`; undefined when it has none (nothing to write). */
export function withoutClaim(tenant: Tenant, name: string, onlyIf: (c: NamespaceClaim) => boolean = () => true): NamespaceClaim[] | undefined {
  const claims = claimsOf(tenant);
  const keep = claims.filter((c) => c.name !== name || !onlyIf(c));
  return keep.length === claims.length ? undefined : keep;
}

/**
 * Whether `claim` proves `ns` is the claiming tenant's: by its UID once recorded (and then by nothing
 * else), before that by the token Paddock put on the namespace it created for the claim. The cache keeps
 * no token (tenancy/cache-options.ts): a claim without a UID holds only against the namespace read live,
 * as a reconcile reads it and then records the UID (controller/claim-update.ts, proveByToken).
 */
export function claimHolds(claim: NamespaceClaim, ns: Namespace): boolean {
  if (claim.uid) return ns.metadata.uid === claim.uid;
  const token = ns.metadata.annotations?.[CLAIM_TOKEN_ANNOTATION];
  return typeof token === 'string' && claim.proof !== undefined && hash(token) === claim.proof;
}

/** Whether `ns` is proven to be `tenant`'s: it carries the tenant's label and a claim of the tenant holds. */
export function isProvisioned(tenant: Tenant | undefined, ns: Namespace): boolean {
  if (!tenant) return false;
  const claim = claimOf(tenant, ns.metadata.name);
  return claim !== undefined && claimHolds(claim, ns);
}

/**
 * The tenant a namespace name belongs to: the longest `<tenant>-` prefix among existing Tenants
 * (`exists` answers for a tenant name). Undefined when no Tenant's prefix matches.
 */
export function tenantOfName(name: string, exists: (tenant: string) => boolean): string | undefined {
  for (let i = name.lastIndexOf('-'); i > 0; i = name.lastIndexOf('-', i - 1)) {
    const candidate = name.slice(0, i);
    if (exists(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The namespaces of other tenants that `tenant`'s name would take from them: claims of a tenant
 * `<a>` where `tenant` is `<a>-<b>` and the claimed name starts with `<tenant>-`. Non-empty means the
 * Tenant is refused (TenantNameConflict): a name never changes hands because a Tenant was created.
 */
export function namesTakenFromOthers(tenant: string, lookup: (name: string) => Tenant | undefined): string[] {
  const taken: string[] = [];
  for (let i = tenant.indexOf('-'); i > 0; i = tenant.indexOf('-', i + 1)) {
    const shorter = lookup(tenant.slice(0, i));
    if (!shorter) continue;
    for (const c of claimsOf(shorter)) if (c.name.startsWith(`${tenant}-`)) taken.push(c.name);
  }
  return taken.sort();
}

/** Declared names (`<tenant>-<name>`) in spec order. */
export function declaredNames(tenant: Tenant): string[] {
  return (tenant.spec?.namespaces ?? []).map((n) => `${tenant.metadata.name}-${n}`);
}

/**
 * Why a new self-service claim for `name` may not be added to `tenant` (undefined: it may). The
 * namespaces counted against namespaceQuota are the claimed ones plus the declared ones not claimed
 * yet (their places are kept for them), so a self-service claim never takes a declared namespace's place.
 */
export function selfServiceRefusal(tenant: Tenant, name: string): 'claimed' | 'quota' | undefined {
  const claims = claimsOf(tenant);
  if (claims.some((c) => c.name === name)) return 'claimed';
  const quota = tenant.spec.namespaceQuota;
  if (quota === undefined) return undefined;
  const counted = new Set([...claims.map((c) => c.name), ...declaredNames(tenant)]);
  counted.add(name);
  return counted.size > quota ? 'quota' : undefined;
}

/**
 * Declared names to claim now, in spec order, while the claims stay within namespaceQuota, and those
 * left out because of it. `claimable` says whether a name may be claimed at all (it is the tenant's by
 * prefix and no namespace of that name exists that the claim could not hold).
 */
export function declaredToClaim(tenant: Tenant, claimable: (name: string) => boolean): { claim: string[]; overQuota: string[] } {
  const claimed = new Set(claimsOf(tenant).map((c) => c.name));
  const quota = tenant.spec.namespaceQuota ?? Infinity;
  let count = claimed.size;
  const claim: string[] = [];
  const overQuota: string[] = [];
  for (const name of declaredNames(tenant)) {
    if (claimed.has(name) || !claimable(name)) continue;
    if (count + 1 > quota) overQuota.push(name);
    else {
      claim.push(name);
      count++;
    }
  }
  return { claim, overQuota };
}
