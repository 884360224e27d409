import type { Tenant, TenantOwner } from '../kube/types';

/**
 * Owner subject keys join Tenants to callers: the cache indexes each Tenant under the key of every owner,
 * and a caller is looked up under the keys of its identity. Formats: `User:<name>`, `Group:<name>`,
 * `ServiceAccount:<namespace>/<name>`.
 */
export function ownerKey(owner: Pick<TenantOwner, 'kind' | 'name' | 'namespace'>): string {
  return owner.kind === 'ServiceAccount' ? `ServiceAccount:${owner.namespace ?? ''}/${owner.name}` : `${owner.kind}:${owner.name}`;
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/** The keys of frozen owner lists (the cache's, shared by the versions of a Tenant whose owners did not change). */
const keysOfOwners = new WeakMap<readonly TenantOwner[], readonly string[]>();

/**
 * The distinct owner subject keys of `tenant`, in spec order. For a frozen owner list, one frozen array
 * is shared by every caller (the cache's index, every view); never to be modified.
 */
export function ownerKeysOfTenant(tenant: Tenant): readonly string[] {
  const owners = tenant.spec?.owners;
  if (!owners) return NO_KEYS;
  if (!Object.isFrozen(owners)) return [...new Set(owners.map(ownerKey))];
  let keys = keysOfOwners.get(owners);
  if (!keys) keysOfOwners.set(owners, (keys = Object.freeze([...new Set(owners.map(ownerKey))])));
  return keys;
}

const SERVICE_ACCOUNT_USER = /^system:serviceaccount:([^:]+):([^:]+)$/;

/**
 * The keys under which a caller may be an owner: its user name, each of its groups and, for a
 * ServiceAccount token (`system:serviceaccount:<ns>:<name>`), the ServiceAccount itself.
 */
export function subjectKeysOfUser(user: { name: string; groups: readonly string[] }): string[] {
  const keys = [`User:${user.name}`, ...user.groups.map((g) => `Group:${g}`)];
  const sa = SERVICE_ACCOUNT_USER.exec(user.name);
  if (sa) keys.push(`ServiceAccount:${sa[1]}/${sa[2]}`);
  return keys;
}
