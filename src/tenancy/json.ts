/**
 * Structural comparison of plain JSON values as Kubernetes serializes them: Go's `omitempty` drops
 * empty maps and lists, so `{}` / `[]` / `null` under a key mean the same as the key being absent.
 * List elements are never dropped: `ingress: [{}]` (allow everything) is not `ingress: []`.
 */

/** One field whose live value is not the desired one, at a kube-style path (`spec.hard[cpu]`). */
export interface FieldDiff {
  path: string;
  live: unknown;
  desired: unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for what an `omitempty` field would not serialize. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/**
 * `value` with empty members removed from every object, recursively (list elements kept). The result
 * is a fresh value; the input is not touched.
 */
export function normalizeJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeJson);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = normalizeJson(value[key]);
    if (!isEmpty(v)) out[key] = v;
  }
  return out;
}

/** `base` extended by a map key, as kube's field.Path renders it: `metadata.labels[app]`. */
export function keyPath(base: string, key: string): string {
  return `${base}[${key}]`;
}

/**
 * The leaves at which two JSON values differ, after {@link normalizeJson}. Lists of different lengths
 * differ as a whole; lists of the same length are compared element by element.
 */
export function diffJson(path: string, live: unknown, desired: unknown): FieldDiff[] {
  return diffNormalized(path, normalizeJson(live), normalizeJson(desired));
}

function diffNormalized(path: string, live: unknown, desired: unknown): FieldDiff[] {
  if (isRecord(live) && isRecord(desired)) {
    const keys = [...new Set([...Object.keys(live), ...Object.keys(desired)])].sort();
    return keys.flatMap((k) => diffNormalized(path === '' ? k : `${path}.${k}`, live[k], desired[k]));
  }
  if (Array.isArray(live) && Array.isArray(desired) && live.length === desired.length) {
    return live.flatMap((item, i) => diffNormalized(`${path}[${i}]`, item, desired[i]));
  }
  if (live === desired) return [];
  if (isEmpty(live) && isEmpty(desired)) return [];
  return [{ path, live, desired }];
}

/** Deep equality under the same rules as {@link diffJson}. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return diffJson('', a, b).length === 0;
}

/** A deep copy of plain JSON data, so that desired objects never share structure with the Tenant. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
