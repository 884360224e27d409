import type { SourcePosition } from '../../cache/history';

/**
 * What a view's resourceVersion says, before it is sealed (see version-seal.ts): where a client stands in
 * each source collection the view is joined from (for TenantNamespaces: Namespaces, Tenants,
 * ResourceQuotas) — the revision the issuing replica had reached there and the fingerprint of the state
 * it held — and, for the resourceVersion of one change, which row of the latest change of which source
 * it is (`mark`).
 *
 * The fingerprint names the state of the collection (see cache/history.ts), so a resourceVersion that
 * one replica issued means the same on every replica, and on this one after a restart. The revision is
 * the highest kube-apiserver revision the issuing replica had reached in that collection: a replica that
 * does not know the fingerprint and has not reached that revision is behind (it waits), one that has is
 * past it (410 Expired).
 *
 * Bytes: one header byte (format in the high four bits, the number of sources in the low four), then per
 * source 8 bytes of revision and 8 of fingerprint, then for a change's mark the source's index and the
 * row's name (UTF-8). Every field has a fixed place and size, so nothing about a position shows in the
 * length of a sealed resourceVersion — only a change's row name does, and that row is the reader's.
 */
export interface VersionBody {
  readonly positions: readonly SourcePosition[];
  readonly mark?: { readonly source: number; readonly row: string };
}

const FORMAT = 1;
const POSITION_BYTES = 16;
const MAX_SOURCES = 15;
const FINGERPRINT = /^[0-9a-f]{16}$/;

export function encodeVersion(positions: readonly SourcePosition[], mark?: VersionBody['mark']): Buffer {
  if (positions.length < 1 || positions.length > MAX_SOURCES) throw new RangeError(`a view has 1 to ${MAX_SOURCES} sources, not ${positions.length}`);
  const name = mark ? Buffer.from(mark.row, 'utf8') : undefined;
  const out = Buffer.alloc(1 + POSITION_BYTES * positions.length + (name ? 1 + name.length : 0));
  out[0] = (FORMAT << 4) | positions.length;
  positions.forEach((p, i) => {
    const at = 1 + POSITION_BYTES * i;
    if (!Number.isSafeInteger(p.rev) || p.rev < 0) throw new RangeError(`revision ${p.rev} is not a whole number`);
    if (!FINGERPRINT.test(p.fingerprint)) throw new RangeError(`fingerprint ${p.fingerprint} is not 16 hex digits`);
    out.writeUInt32BE(Math.floor(p.rev / 2 ** 32), at);
    out.writeUInt32BE(p.rev % 2 ** 32, at + 4);
    out.write(p.fingerprint, at + 8, 'hex');
  });
  if (mark && name) {
    const at = 1 + POSITION_BYTES * positions.length;
    out[at] = mark.source;
    name.copy(out, at + 1);
  }
  return out;
}

/**
 * What `bytes` (an opened resourceVersion) says, for a view of `sources` collections; `'foreign'` when
 * they are not a resourceVersion of such a view (another view's, another format's).
 */
export function decodeVersion(bytes: Buffer, sources: number): VersionBody | 'foreign' {
  const size = 1 + POSITION_BYTES * sources;
  if (bytes.length < size || bytes[0] !== ((FORMAT << 4) | sources)) return 'foreign';
  // A mark holds a source and a name of at least one byte.
  if (bytes.length === size + 1) return 'foreign';
  const positions: SourcePosition[] = [];
  for (let i = 0; i < sources; i++) {
    const at = 1 + POSITION_BYTES * i;
    const rev = bytes.readUInt32BE(at) * 2 ** 32 + bytes.readUInt32BE(at + 4);
    positions.push({ rev, fingerprint: bytes.toString('hex', at + 8, at + 16) });
  }
  if (bytes.length === size) return { positions };
  const source = bytes[size];
  if (source >= sources) return 'foreign';
  return { positions, mark: { source, row: bytes.toString('utf8', size + 1) } };
}

/**
 * The readable resourceVersions of earlier versions (`<rev>-<fingerprint>` per source, an optional row
 * mark, and a MAC): never served again — they showed the positions — but a client that holds one is
 * told 410 Expired and relists once, rather than a 400 it would retry forever.
 */
export const EARLIER_FORMAT = /^\d{1,16}-[0-9a-f]{16}(?:\.\d{1,16}-[0-9a-f]{16})*(?:~\d~.*)?\.[A-Za-z0-9_-]{22}$/s;
