import type { SourcePosition } from '../../cache/history';

/**
 * The resourceVersions of a view: where a client stands in each source collection the view is joined
 * from (for TenantNamespaces: Namespaces, Tenants, ResourceQuotas), as `<rev>-<fingerprint>` per
 * source, joined by `.` — e.g. `8812-3fa4c0de11b2a7e9.8790-c2d1...`.
 *
 * The fingerprint names the state of the collection (see cache/history.ts), so a resourceVersion that
 * one replica issued means the same on every replica, and on this one after a restart. The revision is
 * the highest kube-apiserver revision the issuing replica had reached in that collection: a replica that
 * does not know the fingerprint and has not reached that revision is behind (it waits), one that has is
 * past it (410 Expired). Clients treat resourceVersions as opaque strings, as the API conventions ask.
 */
export function formatResourceVersion(positions: readonly SourcePosition[]): string {
  return positions.map((p) => `${p.rev}-${p.fingerprint}`).join('.');
}

const POSITION = /^(\d{1,16})-([0-9a-f]{16})$/;

/**
 * Reads a resourceVersion a client sent, for a view of `sources` collections: its positions;
 * `'foreign'` for one that is well-formed but not this view's (kube's, an earlier version's integer,
 * another view's); `'invalid'` for anything else.
 */
export function parseResourceVersion(rv: string, sources: number): SourcePosition[] | 'foreign' | 'invalid' {
  if (/^\d{1,19}$/.test(rv)) return 'foreign';
  if (rv.length > 40 * sources + 40) return 'invalid';
  const parts = rv.split('.');
  const positions: SourcePosition[] = [];
  for (const part of parts) {
    const m = POSITION.exec(part);
    if (!m) return 'invalid';
    positions.push({ rev: Number(m[1]), fingerprint: m[2] });
  }
  return positions.length === sources ? positions : 'foreign';
}
