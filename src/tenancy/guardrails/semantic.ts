/**
 * Comparisons that several guardrail kinds share: what makes two objects "the same" to kube-apiserver
 * although their JSON differs (quantities in another unit, a set in another order, empty for absent).
 */
import type { KubeObject } from '../../kube/types';
import { diffJson, isRecord, keyPath, type FieldDiff } from '../json';
import type { QuantityEqual } from '../quantity-equal';

/** Two resource → quantity maps: the same resources, each with the same amount. */
export function diffQuantities(path: string, live: unknown, desired: unknown, eq: QuantityEqual): FieldDiff[] {
  const l = (isRecord(live) ? live : {}) as Record<string, string | number>;
  const d = (isRecord(desired) ? desired : {}) as Record<string, string | number>;
  const keys = [...new Set([...Object.keys(l), ...Object.keys(d)])].sort();
  return keys
    .filter((k) => l[k] === undefined || d[k] === undefined || !eq(l[k]!, d[k]!))
    .map((k) => ({ path: keyPath(path, k), live: l[k], desired: d[k] }));
}

/** A list whose order has no meaning, in one order. */
export function sortedStrings(list: unknown): unknown {
  return Array.isArray(list) ? [...list].map(String).sort() : list;
}

/** Integer-or-string quantities written as strings, the form kube-apiserver returns them in. */
export function quantityStrings(map: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, String(v)]));
}

/** Everything but metadata and status: what an object says, as opposed to what it is. */
export function content(obj: KubeObject): Record<string, unknown> {
  const { apiVersion: _v, kind: _k, metadata: _m, status: _s, ...rest } = obj as KubeObject & { status?: unknown };
  return rest;
}

/** The whole content, compared as JSON: for a kind written with every server default already set. */
export function diffContent(live: KubeObject, desired: KubeObject): FieldDiff[] {
  return diffJson('', content(live), content(desired));
}
