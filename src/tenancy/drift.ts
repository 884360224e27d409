/**
 * Semantic comparison of a live object with the desired one: which fields Paddock must write back.
 * "Semantic" means a converged cluster reads as converged — amounts compare as quantities (`1000m` is
 * `1`), server defaults count as set on both sides, empty equals absent, set-like lists compare as
 * sets, and labels, annotations and ownerReferences that others added are not drift. Only what
 * Paddock owns is compared: its labels, its controller reference, and the object's content — judged by
 * the kind's own rule (a guardrail kind's `diff`, see guardrails/kind.ts).
 */
import type { ClusterRole, KubeObject, Namespace } from '../kube/types';
import type { ClusterRoleBinding } from './cluster-roles';
import { diffBinding, roleRefChanged } from './guardrails/role-binding';
import { guardrailKind } from './guardrails/registry';
import { diffContent } from './guardrails/semantic';
import { diffJson, keyPath, type FieldDiff } from './json';
import { diffNamespace } from './namespace';
import { sameControllerRef } from './ownership';
import { quantityEqual as defaultQuantityEqual, type QuantityEqual } from './quantity-equal';

export type { FieldDiff } from './json';

/**
 * Everything Paddock writes and then watches for drift: Namespaces, objects of the guardrail kinds, the
 * shipped ClusterRoles and ClusterRoleBinding, and the admission policies.
 */
export type ManagedObject = KubeObject;

export interface DiffOptions {
  /** Quantity comparison; defaults to the built-in one (see quantity-equal.ts). */
  quantityEqual?: QuantityEqual;
}

type ContentDiff = (live: KubeObject, desired: KubeObject, eq: QuantityEqual) => FieldDiff[];

/** The content rules of the kinds Paddock keeps that are not guardrails (the shipped RBAC). */
const SHIPPED_RBAC: Readonly<Record<string, ContentDiff>> = {
  ClusterRole: (live, desired) => diffClusterRole(live as ClusterRole, desired as ClusterRole),
  ClusterRoleBinding: (live, desired) => diffBinding(live as ClusterRoleBinding, desired as ClusterRoleBinding),
};

/**
 * The fields of `live` that differ from `desired` (same kind, same name), as paths with both values,
 * for Events and the Ready condition's message. Empty means nothing to write. A kind with no rule of
 * its own (the admission policies, written with every default set) compares its content as JSON.
 */
export function diff(live: ManagedObject, desired: ManagedObject, options: DiffOptions = {}): FieldDiff[] {
  const eq = options.quantityEqual ?? defaultQuantityEqual;
  if (desired.kind === 'Namespace') return diffNamespace(live as Namespace, desired as Namespace);
  const content: ContentDiff = guardrailKind(desired.kind)?.diff ?? SHIPPED_RBAC[desired.kind ?? ''] ?? diffContent;
  return [...diffMetadata(live, desired), ...content(live, desired, eq)];
}

/** True when `live` must be written to match `desired`. */
export function needsUpdate(live: ManagedObject, desired: ManagedObject, options: DiffOptions = {}): boolean {
  return diff(live, desired, options).length > 0;
}

/**
 * True when `live` cannot be updated into `desired` and must be deleted and created again: an
 * immutable field differs (a binding's roleRef).
 */
export function requiresRecreate(live: ManagedObject, desired: ManagedObject): boolean {
  if (desired.kind === 'ClusterRoleBinding') return roleRefChanged(live as ClusterRoleBinding, desired as ClusterRoleBinding);
  return guardrailKind(desired.kind)?.requiresRecreate?.(live, desired) ?? false;
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

function diffClusterRole(live: ClusterRole, desired: ClusterRole): FieldDiff[] {
  return [...diffJson('rules', live.rules ?? [], desired.rules ?? []), ...diffJson('aggregationRule', live.aggregationRule, desired.aggregationRule)];
}
