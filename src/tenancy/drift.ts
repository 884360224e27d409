/**
 * Semantic comparison of a live object with the desired one: which fields Paddock must write back.
 * "Semantic" means a converged cluster reads as converged — amounts compare as quantities (`1000m` is
 * `1`), server defaults count as set on both sides, empty equals absent, set-like lists compare as
 * sets, and labels, annotations and ownerReferences that others added are not drift. Only what
 * Paddock owns is compared: its labels, its controller reference, and the object's content.
 */
import type { ClusterRole, KubeObject, LimitRange, Namespace, NetworkPolicy, ResourceQuota, RoleBinding, Subject } from '../kube/types';
import type { ClusterRoleBinding } from './cluster-roles';
import { defaultLimitRangeSpec, defaultNetworkPolicySpec, defaultRoleRef, defaultSubject } from './defaults';
import { diffJson, isRecord, keyPath, type FieldDiff } from './json';
import { diffNamespace } from './namespace';
import { sameControllerRef } from './ownership';
import { quantityEqual as defaultQuantityEqual, type QuantityEqual } from './quantity-equal';

export type { FieldDiff } from './json';

/** Everything Paddock writes and then watches for drift. */
export type ManagedObject = Namespace | ResourceQuota | LimitRange | NetworkPolicy | RoleBinding | ClusterRole | ClusterRoleBinding;

export interface DiffOptions {
  /** Quantity comparison; defaults to the built-in one (see quantity-equal.ts). */
  quantityEqual?: QuantityEqual;
}

/**
 * The fields of `live` that differ from `desired` (same kind, same name), as paths with both values,
 * for Events and the Ready condition's message. Empty means nothing to write.
 */
export function diff(live: ManagedObject, desired: ManagedObject, options: DiffOptions = {}): FieldDiff[] {
  const eq = options.quantityEqual ?? defaultQuantityEqual;
  switch (desired.kind) {
    case 'Namespace':
      return diffNamespace(live as Namespace, desired as Namespace);
    case 'ResourceQuota':
      return [...diffMetadata(live, desired), ...diffResourceQuota(live as ResourceQuota, desired as ResourceQuota, eq)];
    case 'LimitRange':
      return [...diffMetadata(live, desired), ...diffLimitRange(live as LimitRange, desired as LimitRange, eq)];
    case 'NetworkPolicy':
      return [...diffMetadata(live, desired), ...diffNetworkPolicy(live as NetworkPolicy, desired as NetworkPolicy)];
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return [...diffMetadata(live, desired), ...diffBinding(live as RoleBinding, desired as RoleBinding)];
    case 'ClusterRole':
      return [...diffMetadata(live, desired), ...diffClusterRole(live as ClusterRole, desired as ClusterRole)];
    default:
      return [...diffMetadata(live, desired), ...diffJson('', content(live), content(desired))];
  }
}

/** True when `live` must be written to match `desired`. */
export function needsUpdate(live: ManagedObject, desired: ManagedObject, options: DiffOptions = {}): boolean {
  return diff(live, desired, options).length > 0;
}

/**
 * True when `live` cannot be updated into `desired` and must be deleted and created again: a
 * binding's roleRef is immutable.
 */
export function requiresRecreate(live: ManagedObject, desired: ManagedObject): boolean {
  if (desired.kind !== 'RoleBinding' && desired.kind !== 'ClusterRoleBinding') return false;
  return diffJson('roleRef', defaultRoleRef((live as RoleBinding).roleRef), defaultRoleRef((desired as RoleBinding).roleRef)).length > 0;
}

/** Paddock's labels must hold their values and its controller reference must be there; the rest is others'. */
function diffMetadata(live: KubeObject, desired: KubeObject): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const have = live.metadata.labels ?? {};
  for (const [key, value] of Object.entries(desired.metadata.labels ?? {})) {
    if (have[key] !== value) diffs.push({ path: keyPath('metadata.labels', key), live: have[key], desired: value });
  }
  const refs = live.metadata.ownerReferences ?? [];
  for (const ref of desired.metadata.ownerReferences ?? []) {
    if (!refs.some((r) => sameControllerRef(r, ref))) diffs.push({ path: 'metadata.ownerReferences', live: live.metadata.ownerReferences, desired: ref });
  }
  return diffs;
}

function diffResourceQuota(live: ResourceQuota, desired: ResourceQuota, eq: QuantityEqual): FieldDiff[] {
  const l = live.spec ?? {};
  const d = desired.spec ?? {};
  return [
    ...diffQuantities('spec.hard', l.hard, d.hard, eq),
    ...diffJson('spec.scopes', sortedStrings(l.scopes), sortedStrings(d.scopes)),
    ...diffJson('spec.scopeSelector', l.scopeSelector, d.scopeSelector),
  ];
}

const LIMIT_MAPS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'];

function diffLimitRange(live: LimitRange, desired: LimitRange, eq: QuantityEqual): FieldDiff[] {
  const l = defaultLimitRangeSpec(live.spec ?? { limits: [] }).limits;
  const d = defaultLimitRangeSpec(desired.spec ?? { limits: [] }).limits;
  if (l.length !== d.length) return [{ path: 'spec.limits', live: live.spec?.limits, desired: desired.spec?.limits }];
  return d.flatMap((item, i) => {
    const path = `spec.limits[${i}]`;
    const have = l[i]!;
    const rest = (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([k]) => !LIMIT_MAPS.includes(k)));
    return [...diffJson(path, rest(have), rest(item)), ...LIMIT_MAPS.flatMap((k) => diffQuantities(`${path}.${k}`, have[k], item[k], eq))];
  });
}

function diffNetworkPolicy(live: NetworkPolicy, desired: NetworkPolicy): FieldDiff[] {
  const l = defaultNetworkPolicySpec(live.spec ?? {});
  const d = defaultNetworkPolicySpec(desired.spec ?? {});
  return diffJson('spec', { ...l, policyTypes: sortedStrings(l.policyTypes) }, { ...d, policyTypes: sortedStrings(d.policyTypes) });
}

/** Subjects compare as a set once defaulted: their order has no meaning to the authorizer. */
function diffBinding(live: RoleBinding, desired: RoleBinding): FieldDiff[] {
  const subjects = (b: RoleBinding) => (b.subjects ?? []).map(defaultSubject).sort(compareSubjects);
  return [...diffJson('roleRef', defaultRoleRef(live.roleRef), defaultRoleRef(desired.roleRef)), ...diffJson('subjects', subjects(live), subjects(desired))];
}

function diffClusterRole(live: ClusterRole, desired: ClusterRole): FieldDiff[] {
  return [...diffJson('rules', live.rules ?? [], desired.rules ?? []), ...diffJson('aggregationRule', live.aggregationRule, desired.aggregationRule)];
}

/** Two resource → quantity maps: the same resources, each with the same amount. */
function diffQuantities(path: string, live: unknown, desired: unknown, eq: QuantityEqual): FieldDiff[] {
  const l = (isRecord(live) ? live : {}) as Record<string, string | number>;
  const d = (isRecord(desired) ? desired : {}) as Record<string, string | number>;
  const keys = [...new Set([...Object.keys(l), ...Object.keys(d)])].sort();
  return keys
    .filter((k) => l[k] === undefined || d[k] === undefined || !eq(l[k]!, d[k]!))
    .map((k) => ({ path: keyPath(path, k), live: l[k], desired: d[k] }));
}

function sortedStrings(list: unknown): unknown {
  return Array.isArray(list) ? [...list].map(String).sort() : list;
}

function compareSubjects(a: Subject, b: Subject): number {
  const key = (s: Subject) => `${s.kind}\u0000${s.namespace ?? ''}\u0000${s.name}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** Everything but metadata and status: what an object says, as opposed to what it is. */
function content(obj: KubeObject): Record<string, unknown> {
  const { apiVersion: _v, kind: _k, metadata: _m, status: _s, ...rest } = obj as KubeObject & { status?: unknown };
  return rest;
}
