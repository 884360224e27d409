import { X509Certificate, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * Just enough X.509 to issue Paddock's own serving certificate: a self-signed CA and a serving leaf, both
 * EC P-256 with ECDSA-SHA256, DER-encoded by hand (Node can parse certificates but not create them, and
 * the runtime image has no openssl).
 */

function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, content]);
}

const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
const explicit = (n: number, inner: Buffer) => der(0xa0 + n, inner);
const octets = (b: Buffer) => der(0x04, b);
const bitString = (b: Buffer, unusedBits = 0) => der(0x03, Buffer.concat([Buffer.from([unusedBits]), b]));
const bool = (v: boolean) => der(0x01, Buffer.from([v ? 0xff : 0x00]));
const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'));

function integer(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const trimmed = b.subarray(i);
  return der(0x02, trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return d.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(iso.slice(2))) : der(0x18, Buffer.from(iso));
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const name = (cn: string) => seq(set(seq(oid(OID.commonName), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function keyId(publicKey: KeyObject): Buffer {
  return createHash('sha1').update(publicKey.export({ type: 'spki', format: 'der' })).digest();
}

function ipBytes(ip: string): Buffer | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  return m ? Buffer.from(m.slice(1).map(Number)) : undefined;
}

/** A certificate and its private key, PEM. */
export interface KeyPair {
  cert: string;
  key: string;
}

interface CertSpec {
  commonName: string;
  publicKey: KeyObject;
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  /** DNS names and IPv4 addresses (serving certificates only). */
  sans?: string[];
  issuer: { commonName: string; key: KeyObject; publicKey: KeyObject };
}

function certificate(spec: CertSpec): string {
  const extensions = [
    extension(OID.basicConstraints, true, spec.isCa ? seq(bool(true)) : seq()),
    // CA: digitalSignature, keyCertSign, cRLSign; leaf: digitalSignature, keyEncipherment.
    extension(OID.keyUsage, true, spec.isCa ? bitString(Buffer.from([0x86]), 1) : bitString(Buffer.from([0xa0]), 5)),
    extension(OID.subjectKeyIdentifier, false, octets(keyId(spec.publicKey))),
  ];
  if (!spec.isCa) {
    extensions.push(extension(OID.authorityKeyIdentifier, false, seq(der(0x80, keyId(spec.issuer.publicKey)))));
    extensions.push(extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))));
    const names = (spec.sans ?? []).map((s) => {
      const ip = ipBytes(s);
      return ip ? der(0x87, ip) : der(0x82, Buffer.from(s, 'ascii'));
    });
    if (names.length) extensions.push(extension(OID.subjectAltName, false, seq(...names)));
  }
  const serial = randomBytes(16);
  serial[0] &= 0x7f;
  const algorithm = seq(oid(OID.ecdsaWithSha256));
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    name(spec.issuer.commonName),
    seq(time(spec.notBefore), time(spec.notAfter)),
    name(spec.commonName),
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, spec.issuer.key);
  const body = seq(tbs, algorithm, bitString(signature)).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function newKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
}

const pem = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }) as string;

/** Certificates are valid from a little before `now` (clock skew between machines): a minute, or a tenth of a short lifetime. */
const backdate = (validityMs: number) => Math.min(60_000, Math.floor(validityMs / 10));

/** A self-signed CA valid from a moment ago (see backdate) until `validityMs` from `now`. */
export function createCa(commonName: string, validityMs: number, now = new Date()): KeyPair {
  const { privateKey, publicKey } = newKey();
  const cert = certificate({
    commonName, publicKey, isCa: true, notBefore: new Date(now.getTime() - backdate(validityMs)), notAfter: new Date(now.getTime() + validityMs),
    issuer: { commonName, key: privateKey, publicKey },
  });
  return { cert, key: pem(privateKey) };
}

/** A serving certificate for `sans` signed by `ca` (one made by {@link createCa}), valid from a moment ago until `validityMs` from `now`. */
export function createServingCert(ca: KeyPair, commonName: string, sans: string[], validityMs: number, now = new Date()): KeyPair {
  const { privateKey, publicKey } = newKey();
  const caKey = createPrivateKey(ca.key);
  const caCommonName = new X509Certificate(ca.cert).subject.replace(/^CN=/, '');
  const cert = certificate({
    commonName, publicKey, isCa: false, sans, notBefore: new Date(now.getTime() - backdate(validityMs)), notAfter: new Date(now.getTime() + validityMs),
    issuer: { commonName: caCommonName, key: caKey, publicKey: createPublicKey(caKey) },
  });
  return { cert, key: pem(privateKey) };
}

/**
 * `key` once it parses as a private key (PEM, as the TLS server reads it); throws otherwise. What derives
 * secrets from a key file checks it first: a file caught empty or half written would yield secrets anyone
 * can compute.
 */
export function checkedPrivateKey<K extends Buffer | string>(key: K): K {
  createPrivateKey(key);
  return key;
}
