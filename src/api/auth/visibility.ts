import type { OwnerKind } from '../../kube/types';
import type { UserInfo } from './types';

/**
 * Owner-subject keys: one string per subject a Tenant owner entry names, so that an index
 * `key → tenants` built from `spec.owners` can be probed with the keys of a caller.
 *
 *   User:<name>                       e.g. `User:alice`
 *   Group:<group>                     e.g. `Group:gas-devs`
 *   ServiceAccount:<namespace>/<name> e.g. `ServiceAccount:ci/deployer`
 *
 * The kind prefix keeps a user and a group of the same name apart; the first `:` ends the kind, the rest
 * is taken verbatim (names may themselves contain `:`; namespaces cannot contain `/`).
 */
export type OwnerSubjectKey = string;

/** The key of one owner entry of a Tenant (`spec.owners[i]`); the index side of the lookup. */
export function ownerSubjectKey(owner: { kind: OwnerKind; name: string; namespace?: string }): OwnerSubjectKey {
  switch (owner.kind) {
    case 'User':
      return `User:${owner.name}`;
    case 'Group':
      return `Group:${owner.name}`;
    case 'ServiceAccount':
      return `ServiceAccount:${owner.namespace ?? ''}/${owner.name}`;
  }
}

const SA_PREFIX = 'system:serviceaccount:';
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Splits `system:serviceaccount:<namespace>:<name>` as kube's serviceaccount.SplitUsername does: exactly
 * two parts after the prefix, the namespace a DNS-1123 label, the name a DNS-1123 subdomain. Any other
 * user name is not a ServiceAccount (undefined).
 */
export function parseServiceAccountUser(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/**
 * The keys a caller is found under (the probe side of the lookup): `User:<name>`, `Group:<g>` for each of
 * its groups, and `ServiceAccount:<ns>/<name>` when it is a ServiceAccount. A ServiceAccount keeps its
 * `User:system:serviceaccount:...` key too, since RBAC also lets a User subject name a ServiceAccount.
 * Pure; no duplicates; order is user, groups, service account.
 */
export function subjectKeysFor(user: Pick<UserInfo, 'name' | 'groups'>): OwnerSubjectKey[] {
  const keys = new Set<OwnerSubjectKey>([ownerSubjectKey({ kind: 'User', name: user.name })]);
  for (const group of user.groups) keys.add(ownerSubjectKey({ kind: 'Group', name: group }));
  const sa = parseServiceAccountUser(user.name);
  if (sa) keys.add(ownerSubjectKey({ kind: 'ServiceAccount', ...sa }));
  return [...keys];
}
