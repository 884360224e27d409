/**
 * IP addresses and CIDRs read exactly as kube-apiserver's CEL library reads them (`ip()`, `isIP()`,
 * `cidr()`, `isCIDR()` of k8s.io/apiserver/pkg/cel/library), which is how the restrictions policy reads
 * a Service's externalIPs and the CIDRs a Tenant allows: Go's `netip.ParseAddr` and `netip.ParsePrefix`,
 * less IPv6 zones and IPv4-mapped IPv6 addresses. That is:
 *
 * - IPv4: four decimal fields of 0–255, none with a leading zero (`010.0.0.1` is refused: kube's older
 *   "sloppy" parser reads it as 10.0.0.1, libc as 8.0.0.1);
 * - IPv6: hex groups of one to four digits (any case), at most one `::` standing for at least one group,
 *   an optional dotted IPv4 tail in place of the last two groups; no `%zone`;
 * - not IPv4-mapped (`::ffff:0:0/96`, however written: `::ffff:10.0.0.1`, `::ffff:a00:1`), which some
 *   readers take as IPv4 and others as IPv6;
 * - a prefix length of decimal digits without a leading zero (or `0`), at most 32 or 128.
 *
 * Every string this accepts, kube's own lenient parser (`netutils.ParseIPSloppy`, as kube-proxy reads
 * externalIPs) accepts too and reads as the same address. Pure.
 */

/** An address: 4 bytes (IPv4) or 16 (IPv6). */
export type Address = readonly number[];

const IPV4_FIELD = /^(0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function parseIPv4(s: string): Address | undefined {
  const fields = s.split('.');
  if (fields.length !== 4 || !fields.every((f) => IPV4_FIELD.test(f) && Number(f) <= 255)) return undefined;
  return fields.map(Number);
}

/** Groups of one side of a `::` (or of an address without one): hex groups, the last maybe dotted IPv4. */
function groupBytes(groups: string[], last: boolean): number[] | undefined {
  const out: number[] = [];
  for (const [i, g] of groups.entries()) {
    if (last && i === groups.length - 1 && g.includes('.')) {
      const v4 = parseIPv4(g);
      if (!v4) return undefined;
      out.push(...v4);
    } else if (HEX_GROUP.test(g)) {
      const n = parseInt(g, 16);
      out.push(n >> 8, n & 0xff);
    } else {
      return undefined;
    }
  }
  return out;
}

function parseIPv6(s: string): Address | undefined {
  if (s.includes('%')) return undefined; // a zone: refused by the CEL library
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const ellipsis = halves.length === 2;
  const head = groupBytes(groups(halves[0]!), !ellipsis);
  const tail = ellipsis ? groupBytes(groups(halves[1]!), true) : [];
  if (!head || !tail) return undefined;
  const given = head.length + tail.length;
  // Without `::` the groups fill the address; with it, `::` stands for at least one group of zeros.
  if (ellipsis ? given > 14 : given !== 16) return undefined;
  return [...head, ...new Array<number>(16 - given).fill(0), ...tail];
}

const isIPv4Mapped = (a: Address) => a.length === 16 && a.slice(0, 10).every((b) => b === 0) && a[10] === 0xff && a[11] === 0xff;

/** The address `s` names, or undefined where the CEL library's `ip()` refuses it (`isIP()` is false). */
export function parseIP(s: string): Address | undefined {
  // netip.ParseAddr decides the family by the first '.' or ':' (a '%' first is a zone without an address).
  const first = /[.:%]/.exec(s)?.[0];
  const addr = first === '.' ? parseIPv4(s) : first === ':' ? parseIPv6(s) : undefined;
  return addr && !isIPv4Mapped(addr) ? addr : undefined;
}

/** A CIDR: its address as written and its prefix length. */
export interface Cidr {
  address: Address;
  bits: number;
}

/** The CIDR `s` names, or undefined where the CEL library's `cidr()` refuses it (`isCIDR()` is false). */
export function parseCidr(s: string): Cidr | undefined {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return undefined;
  const address = parseIP(s.slice(0, slash));
  const bitsText = s.slice(slash + 1);
  if (!address || !/^(0|[1-9][0-9]*)$/.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  return bits <= address.length * 8 ? { address, bits } : undefined;
}

/** Whether `cidr` has no bit set past its prefix length (`cidr(s) == cidr(s).masked()`). */
export function isMasked({ address, bits }: Cidr): boolean {
  return address.every((byte, i) => {
    const kept = Math.min(8, Math.max(0, bits - i * 8));
    return (byte & (0xff >> kept)) === 0;
  });
}
