/**
 * IP addresses and CIDRs, and whether kube-apiserver's CEL library reads each (`isIP()`; `isCIDR()` and
 * no bit set past the prefix length): what the restrictions policy and the Tenant CRD rely on. The
 * integration suite (services.test.ts) has kube-apiserver judge every row; the unit tests hold the
 * TypeScript reading (src/tenancy/restrictions/ip-address.ts) to the same table.
 *
 * Rows marked `sloppy` are read by kube's lenient parser (`netutils.ParseIPSloppy`, which kube-proxy
 * uses for externalIPs, and which kube-apiserver's Service validation accepted before
 * StrictIPCIDRValidation, still for a value an update keeps) — the forms the policy must refuse itself.
 */
export interface AddressCase {
  text: string;
  valid: boolean;
  about: string;
  /** Read by netutils.ParseIPSloppy though `ip()` refuses it. */
  sloppy?: true;
}

export const ADDRESSES: AddressCase[] = [
  { text: '192.0.2.1', valid: true, about: 'IPv4' },
  { text: '0.0.0.0', valid: true, about: 'the unspecified IPv4 address (kube refuses it as an externalIP, but reads it)' },
  { text: '255.255.255.255', valid: true, about: 'the largest IPv4 address' },
  { text: '192.0.2.01', valid: false, about: 'a leading zero', sloppy: true },
  { text: '010.0.0.1', valid: false, about: 'a leading zero: 10.0.0.1 to kube, 8.0.0.1 to libc', sloppy: true },
  { text: '00.0.0.0', valid: false, about: 'a field of two zeros', sloppy: true },
  { text: '192.0.2.256', valid: false, about: 'a field over 255' },
  { text: '192.0.2', valid: false, about: 'three fields' },
  { text: '192.0.2.1.5', valid: false, about: 'five fields' },
  { text: '192.0.2.', valid: false, about: 'an empty last field' },
  { text: '.192.0.2.1', valid: false, about: 'an empty first field' },
  { text: '192.0.2.1/32', valid: false, about: 'a CIDR is not an address' },
  { text: ' 192.0.2.1', valid: false, about: 'a leading space' },
  { text: '192.0.2.1 ', valid: false, about: 'a trailing space' },
  { text: '0x7f.0.0.1', valid: false, about: 'a hex field' },
  { text: '3221225985', valid: false, about: 'an address as one integer' },
  { text: '', valid: false, about: 'empty' },
  { text: 'localhost', valid: false, about: 'a host name' },
  { text: '2001:db8::1', valid: true, about: 'IPv6' },
  { text: '2001:DB8::1', valid: true, about: 'IPv6 in upper case (not canonical, the same address)' },
  { text: '2001:0db8:0000:0000:0000:0000:0000:0001', valid: true, about: 'IPv6 written out in full' },
  { text: '::', valid: true, about: 'the unspecified IPv6 address' },
  { text: '::1', valid: true, about: 'a leading ::' },
  { text: '1::', valid: true, about: 'a trailing ::' },
  { text: '1:2:3:4:5:6:7:8', valid: true, about: 'eight groups' },
  { text: '1:2:3:4:5:6:7::8', valid: false, about: ':: standing for no group' },
  { text: '1:2:3:4:5:6:7:8:9', valid: false, about: 'nine groups' },
  { text: '00001::1', valid: false, about: 'a group of five digits', sloppy: true },
  { text: '12345::1', valid: false, about: 'a group over ffff' },
  { text: '2001:db8::g', valid: false, about: 'not a hex digit' },
  { text: ':1::2', valid: false, about: 'a single leading colon' },
  { text: '1:::2', valid: false, about: 'three colons' },
  { text: '1::2::3', valid: false, about: 'two ::' },
  { text: '1:', valid: false, about: 'a single trailing colon' },
  { text: ':::', valid: false, about: 'colons only' },
  { text: '[2001:db8::1]', valid: false, about: 'in brackets' },
  { text: '2001:db8::1%eth0', valid: false, about: 'a zone' },
  { text: '::ffff:192.0.2.1', valid: false, about: 'IPv4-mapped IPv6: 192.0.2.1 to kube-proxy', sloppy: true },
  { text: '::FFFF:192.0.2.1', valid: false, about: 'IPv4-mapped IPv6 in upper case', sloppy: true },
  { text: '::ffff:c000:201', valid: false, about: 'IPv4-mapped IPv6 written in hex', sloppy: true },
  { text: '0:0:0:0:0:ffff:192.0.2.1', valid: false, about: 'IPv4-mapped IPv6 written out', sloppy: true },
  { text: '::ffff:192.0.2.01', valid: false, about: 'IPv4-mapped IPv6 with a leading zero', sloppy: true },
  { text: '::192.0.2.1', valid: true, about: 'IPv4-compatible IPv6 (::c000:201), an IPv6 address' },
  { text: '::192.0.2.01', valid: false, about: 'a leading zero in an IPv4 tail', sloppy: true },
  { text: '64:ff9b::192.0.2.1', valid: true, about: 'an IPv4 tail after ::' },
  { text: '1:2:3:4:5:6:192.0.2.1', valid: true, about: 'an IPv4 tail in place of the last two groups' },
  { text: '1:2:3:4:5:192.0.2.1', valid: false, about: 'an IPv4 tail too early' },
  { text: '1:2:3:4:5:6:7:192.0.2.1', valid: false, about: 'an IPv4 tail too late' },
  { text: '::1:2:3:4:5:6:192.0.2.1', valid: false, about: ':: standing for no group before an IPv4 tail' },
  { text: '192.0.2.1::', valid: false, about: 'an IPv4 head' },
];

export interface CidrCase {
  text: string;
  /** `ok`; `hostBits`: read, but with bits set past the prefix length; `invalid`: not read. */
  verdict: 'ok' | 'hostBits' | 'invalid';
  about: string;
}

export const CIDRS: CidrCase[] = [
  { text: '192.0.2.0/24', verdict: 'ok', about: 'IPv4' },
  { text: '192.0.2.1/32', verdict: 'ok', about: 'one IPv4 address' },
  { text: '0.0.0.0/0', verdict: 'ok', about: 'every IPv4 address' },
  { text: '192.0.2.1/24', verdict: 'hostBits', about: 'an address, not a network' },
  { text: '192.0.2.0/33', verdict: 'invalid', about: 'a prefix over 32' },
  { text: '192.0.2.0/024', verdict: 'invalid', about: 'a leading zero in the prefix length' },
  { text: '192.0.2.0/+24', verdict: 'invalid', about: 'a signed prefix length' },
  { text: '192.0.2.0/-1', verdict: 'invalid', about: 'a negative prefix length' },
  { text: '192.0.2.0/', verdict: 'invalid', about: 'no prefix length' },
  { text: '192.0.2.0', verdict: 'invalid', about: 'no slash' },
  { text: '192.0.2.0/24/24', verdict: 'invalid', about: 'two slashes' },
  { text: '192.0.2.0 /24', verdict: 'invalid', about: 'a space' },
  { text: '010.0.0.0/8', verdict: 'invalid', about: 'a leading zero in the address' },
  { text: '2001:db8::/32', verdict: 'ok', about: 'IPv6' },
  { text: '2001:DB8::/32', verdict: 'ok', about: 'IPv6 in upper case' },
  { text: '::/0', verdict: 'ok', about: 'every IPv6 address' },
  { text: '::/128', verdict: 'ok', about: 'one IPv6 address' },
  { text: '2001:db8::1/64', verdict: 'hostBits', about: 'an IPv6 address, not a network' },
  { text: '2001:db8::/129', verdict: 'invalid', about: 'a prefix over 128' },
  { text: '::ffff:0:0/96', verdict: 'invalid', about: 'the IPv4-mapped IPv6 network' },
  { text: '::ffff:192.0.2.0/120', verdict: 'invalid', about: 'an IPv4-mapped IPv6 network' },
  { text: '2001:db8::%eth0/64', verdict: 'invalid', about: 'a zone' },
];
