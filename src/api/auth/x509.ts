import { createHash, X509Certificate } from 'node:crypto';

/** extendedKeyUsage OIDs that allow a certificate to authenticate a TLS client. */
const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EKU_OID = '2.5.29.37.0';
/** Longest chain (leaf, intermediates, root) accepted; real chains have two or three links. */
const MAX_CHAIN_LENGTH = 8;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * Parses every CERTIFICATE block of a PEM bundle (other blocks are skipped, as client-go's ParseCertsPEM
 * does). An empty bundle yields no certificates; a bundle with text but no parsable certificate throws.
 */
export function parseCertBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    if (pem.trim() === '') return [];
    throw new Error('no certificate found in PEM data');
  }
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new Error(`certificate ${i + 1} of the bundle does not parse: ${(err as Error).message}`);
    }
  });
}

/** The subject fields kube maps to an identity. */
export interface CertSubject {
  /** The last CN of the subject (Go's pkix.Name keeps the last one), '' when there is none. */
  commonName: string;
  /** Every O, in order. */
  organizations: string[];
  /** Every UID attribute (OID 0.9.2342.19200300.100.1.1). */
  uids: string[];
}

/**
 * Reads CN, O and UID from a certificate's subject as decoded values (never from the escaped one-line
 * form, so a CN like `bob\nO=system:masters` stays one CN).
 */
export function certSubject(cert: X509Certificate): CertSubject {
  const subject = cert.toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>;
  const all = (key: string): string[] => {
    const v = subject[key];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const cns = all('CN');
  return { commonName: cns.length ? cns[cns.length - 1] : '', organizations: all('O'), uids: all('UID') };
}

/** `X509SHA256=<hex>` of a certificate's DER, the credential id kube records for certificate users. */
export function certCredentialId(cert: X509Certificate): string {
  return 'X509SHA256=' + createHash('sha256').update(cert.raw).digest('hex');
}

export type ChainVerification =
  | { ok: true; leaf: X509Certificate; chain: X509Certificate[] }
  | { ok: false; reason: string };

function validAt(cert: X509Certificate, now: Date): boolean {
  return cert.validFromDate.getTime() <= now.getTime() && now.getTime() <= cert.validToDate.getTime();
}

/** No extendedKeyUsage extension means any usage, as in Go's crypto/x509. */
function allowsClientAuth(cert: X509Certificate): boolean {
  const eku = cert.keyUsage as string[] | undefined;
  return eku === undefined || eku.includes(CLIENT_AUTH_OID) || eku.includes(ANY_EKU_OID);
}

/** `issuer` signed `cert`: names and key identifiers match (and keyCertSign if key usage is set), and the signature verifies. */
function issuedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Verifies a client certificate chain as Go's `x509.Certificate.Verify` with `ExtKeyUsageClientAuth` does,
 * against `roots` alone: `presented[0]` is the leaf and the rest are untrusted intermediates offered by
 * the peer. Each link must be within its validity period and allow client authentication (or carry no
 * extendedKeyUsage); intermediates must be CAs; the chain must end at one of `roots` (a leaf that is
 * itself one of the roots is accepted). Roots are tried in isolation from any other trust bundle, so a
 * certificate of one CA never passes as one of another.
 */
export function verifyClientChain(presented: readonly X509Certificate[], roots: readonly X509Certificate[],
  now: Date = new Date()): ChainVerification {
  const leaf = presented[0];
  if (!leaf) return { ok: false, reason: 'no client certificate' };
  if (roots.length === 0) return { ok: false, reason: 'no trusted certificate authority configured' };
  if (!validAt(leaf, now)) {
    return { ok: false, reason: `certificate has expired or is not yet valid: current time ${now.toISOString()} is outside ${leaf.validFromDate.toISOString()}..${leaf.validToDate.toISOString()}` };
  }
  if (!allowsClientAuth(leaf)) return { ok: false, reason: 'certificate specifies an incompatible key usage' };
  const intermediates = presented.slice(1);

  const extend = (chain: X509Certificate[]): X509Certificate[] | undefined => {
    const cert = chain[chain.length - 1];
    for (const root of roots) {
      if (root.raw.equals(cert.raw)) return chain;
    }
    for (const root of roots) {
      if (validAt(root, now) && allowsClientAuth(root) && issuedBy(cert, root)) return [...chain, root];
    }
    if (chain.length + 1 >= MAX_CHAIN_LENGTH) return undefined;
    for (const candidate of intermediates) {
      if (chain.some((c) => c.raw.equals(candidate.raw))) continue;
      if (!candidate.ca || !validAt(candidate, now) || !allowsClientAuth(candidate)) continue;
      if (!issuedBy(cert, candidate)) continue;
      const found = extend([...chain, candidate]);
      if (found) return found;
    }
    return undefined;
  };

  const chain = extend([leaf]);
  if (!chain) return { ok: false, reason: 'certificate signed by unknown authority' };
  return { ok: true, leaf, chain };
}

