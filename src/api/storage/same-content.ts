/**
 * Whether two rows are served as the same JSON apart from `metadata.resourceVersion`: what decides
 * whether a recomputed row is a change. It compares as JSON.stringify writes them — the same keys in
 * the same order (keys whose value JSON leaves out, undefined or a function, skipped), equal numbers,
 * strings and booleans, arrays element by element, an object with `toJSON` (a flat record) as what that
 * returns — so it agrees with comparing their JSON texts, and
 * keeps no text or hash of a row. Parts shared between rows (interned, or unchanged since the last
 * state) compare by identity at once.
 */
import type { KubeObject } from '../../kube/types';

export function sameContent(a: KubeObject, b: KubeObject): boolean {
  return a === b || sameObject(written(a) as Record<string, unknown>, written(b) as Record<string, unknown>, true);
}

/** JSON.stringify(a) === JSON.stringify(b), for data without cycles (an object with `toJSON` compares as what that returns). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  a = written(a);
  b = written(b);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(inArray(a[i]), inArray(other[i]))) return false;
    return true;
  }
  return sameObject(a as Record<string, unknown>, b as Record<string, unknown>, false);
}

/** Objects: top level of a row when `row` (its metadata compared without resourceVersion). */
function sameObject(a: Record<string, unknown>, b: Record<string, unknown>, row: boolean): boolean {
  const ka = writtenKeys(a, undefined);
  const kb = writtenKeys(b, undefined);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    const k = ka[i];
    const same = row && k === 'metadata' ? sameMetadata(a[k], b[k]) : sameJson(a[k], b[k]);
    if (!same) return false;
  }
  return true;
}

function sameMetadata(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return sameJson(a, b);
  const ma = a as Record<string, unknown>;
  const mb = b as Record<string, unknown>;
  const ka = writtenKeys(ma, 'resourceVersion');
  const kb = writtenKeys(mb, 'resourceVersion');
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameJson(ma[ka[i]], mb[ka[i]])) return false;
  return true;
}

/** What JSON writes for an object with a `toJSON` method (a flat record): what that returns; else the value. */
function written(v: unknown): unknown {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function' ? (v as { toJSON(): unknown }).toJSON() : v;
}

/** Whether JSON writes a value as an object member (undefined and functions are left out). */
function isWritten(v: unknown): boolean {
  const w = written(v);
  return w !== undefined && typeof w !== 'function' && typeof w !== 'symbol';
}

/** A value as JSON writes it inside an array: what it leaves out of an object is null there. */
function inArray(v: unknown): unknown {
  return isWritten(v) ? v : null;
}

function writtenKeys(o: Record<string, unknown>, skip: string | undefined): string[] {
  const out: string[] = [];
  for (const k of Object.keys(o)) if (k !== skip && isWritten(o[k])) out.push(k);
  return out;
}
