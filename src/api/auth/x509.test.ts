import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certSubject, parseCertBundle, verifyClientChain } from './x509';

let dir: string;
const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
const load = (name: string) => new X509Certificate(readFileSync(join(dir, `${name}.crt`)));

function key(name: string): void {
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
}

function ca(name: string, cn: string): X509Certificate {
  key(name);
  openssl(['req', '-x509', '-new', '-key', `${name}.key`, '-out', `${name}.crt`, '-days', '30', '-subj', `/CN=${cn}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  return load(name);
}

/** Issues `name` from `issuer` with the given subject and extension lines. */
function issue(name: string, issuer: string, subject: string, ext: string[]): X509Certificate {
  key(name);
  openssl(['req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  writeFileSync(join(dir, `${name}.ext`), ext.join('\n') + '\n');
  openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`, '-CAcreateserial',
    '-out', `${name}.crt`, '-days', '30', '-extfile', `${name}.ext`]);
  return load(name);
}

const CLIENT = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=clientAuth'];
const INTERMEDIATE = ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign'];

let clusterCa: X509Certificate;
let proxyCa: X509Certificate;
let otherCa: X509Certificate;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'paddock-x509-'));
  clusterCa = ca('cluster-ca', 'cluster-ca');
  proxyCa = ca('proxy-ca', 'front-proxy-ca');
  otherCa = ca('other-ca', 'cluster-ca'); // same subject as the cluster CA, different key
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('verifyClientChain', () => {
  it('accepts a client certificate signed by the CA it is checked against', () => {
    const leaf = issue('alice', 'cluster-ca', '/CN=alice', CLIENT);
    const result = verifyClientChain([leaf], [clusterCa]);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.chain.map((c) => certSubject(c).commonName)).toEqual(['alice', 'cluster-ca']);
  });

  it('rejects a certificate of another CA, even when both CAs are trusted for something', () => {
    const leaf = issue('fp-from-cluster', 'cluster-ca', '/CN=front-proxy-client', CLIENT);
    expect(verifyClientChain([leaf], [proxyCa])).toEqual({ ok: false, reason: 'certificate signed by unknown authority' });
  });

  it('rejects a certificate from a CA with the same name but another key', () => {
    const leaf = issue('impostor', 'other-ca', '/CN=admin/O=system:masters', CLIENT);
    expect(verifyClientChain([leaf], [clusterCa]).ok).toBe(false);
    expect(verifyClientChain([leaf], [otherCa]).ok).toBe(true);
  });

  it('finds the right root in a bundle of several', () => {
    const leaf = issue('bundled', 'proxy-ca', '/CN=front-proxy-client', CLIENT);
    expect(verifyClientChain([leaf], [clusterCa, otherCa, proxyCa]).ok).toBe(true);
  });

  it('rejects a certificate outside its validity period', () => {
    const leaf = issue('timed', 'cluster-ca', '/CN=timed', CLIENT);
    expect(verifyClientChain([leaf], [clusterCa], new Date(Date.now() + 90 * 86400_000))).toMatchObject({ ok: false, reason: expect.stringMatching(/expired/) });
    expect(verifyClientChain([leaf], [clusterCa], new Date(Date.now() - 86400_000)).ok).toBe(false);
  });

  it('rejects a certificate whose extended key usage excludes client authentication', () => {
    const leaf = issue('server', 'cluster-ca', '/CN=server', ['basicConstraints=critical,CA:FALSE', 'extendedKeyUsage=serverAuth']);
    expect(verifyClientChain([leaf], [clusterCa])).toEqual({ ok: false, reason: 'certificate specifies an incompatible key usage' });
  });

  it('accepts a certificate without extended key usage (any usage)', () => {
    const leaf = issue('noeku', 'cluster-ca', '/CN=noeku', ['basicConstraints=critical,CA:FALSE']);
    expect(verifyClientChain([leaf], [clusterCa]).ok).toBe(true);
  });

  it('builds a chain through an intermediate the peer presents, and only then', () => {
    const intermediate = issue('intermediate', 'cluster-ca', '/CN=intermediate', INTERMEDIATE);
    const leaf = issue('via-intermediate', 'intermediate', '/CN=carol', CLIENT);
    const result = verifyClientChain([leaf, intermediate], [clusterCa]);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.chain).toHaveLength(3);
    expect(verifyClientChain([leaf], [clusterCa]).ok).toBe(false);
    expect(verifyClientChain([leaf, intermediate], [proxyCa]).ok).toBe(false);
  });

  it('refuses a non-CA certificate as an intermediate', () => {
    const notCa = issue('not-ca', 'cluster-ca', '/CN=not-ca', ['basicConstraints=critical,CA:FALSE']);
    const leaf = issue('under-not-ca', 'not-ca', '/CN=mallory', CLIENT);
    expect(verifyClientChain([leaf, notCa], [clusterCa]).ok).toBe(false);
  });

  it('fails without roots or without a certificate', () => {
    const leaf = issue('lonely', 'cluster-ca', '/CN=lonely', CLIENT);
    expect(verifyClientChain([leaf], [])).toEqual({ ok: false, reason: 'no trusted certificate authority configured' });
    expect(verifyClientChain([], [clusterCa])).toEqual({ ok: false, reason: 'no client certificate' });
  });
});

describe('certSubject', () => {
  it('reads every O in order, the CN and the UID as decoded values', () => {
    const leaf = issue('subject', 'cluster-ca', '/O=a\\, b/O=gas-devs/UID=1234/CN=bob', CLIENT);
    expect(certSubject(leaf)).toEqual({ commonName: 'bob', organizations: ['a, b', 'gas-devs'], uids: ['1234'] });
  });

  it('keeps an escaped newline inside the CN instead of inventing a group', () => {
    const leaf = issue('inject', 'cluster-ca', '/CN=eve\nO=system:masters', CLIENT);
    const subject = certSubject(leaf);
    expect(subject.organizations).toEqual([]);
    expect(subject.commonName).not.toBe('eve');
  });
});

describe('parseCertBundle', () => {
  it('parses every certificate of a bundle and skips other blocks', () => {
    const pem = readFileSync(join(dir, 'cluster-ca.crt'), 'utf8') + readFileSync(join(dir, 'cluster-ca.key'), 'utf8') +
      readFileSync(join(dir, 'proxy-ca.crt'), 'utf8');
    expect(parseCertBundle(pem).map((c) => certSubject(c).commonName)).toEqual(['cluster-ca', 'front-proxy-ca']);
  });

  it('returns nothing for an empty bundle and throws for garbage', () => {
    expect(parseCertBundle('  \n')).toEqual([]);
    expect(() => parseCertBundle('hello')).toThrow(/no certificate/);
    expect(() => parseCertBundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow(/does not parse/);
  });
});
