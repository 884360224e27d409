import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedPrivateKey, createCa, createServingCert } from './x509';

const DAY = 86_400_000;

describe('x509', () => {
  const now = new Date('2026-11-23T00:00:00Z');
  const ca = createCa('paddock-serving-ca', 3650 * DAY, now);
  const leaf = createServingCert(ca, 'paddock-apiserver.paddock-system.svc',
    ['paddock-apiserver.paddock-system.svc', 'paddock-apiserver.paddock-system.svc.cluster.local', '10.0.0.7'], 90 * DAY, now);

  test('the CA is a self-signed CA certificate for its validity', () => {
    const c = new X509Certificate(ca.cert);
    expect(c.ca).toBe(true);
    expect(c.subject).toBe('CN=paddock-serving-ca');
    expect(c.issuer).toBe('CN=paddock-serving-ca');
    expect(c.verify(c.publicKey)).toBe(true);
    expect(new Date(c.validTo).getTime()).toBe(Math.floor((now.getTime() + 3650 * DAY) / 1000) * 1000);
    expect(createPublicKey(createPrivateKey(ca.key)).export({ type: 'spki', format: 'pem' })).toBe(c.publicKey.export({ type: 'spki', format: 'pem' }));
  });

  test('the serving certificate is signed by the CA and names every SAN', () => {
    const c = new X509Certificate(leaf.cert);
    const caCert = new X509Certificate(ca.cert);
    expect(c.ca).toBe(false);
    expect(c.verify(caCert.publicKey)).toBe(true);
    expect(c.checkIssued(caCert)).toBe(true);
    expect(c.checkHost('paddock-apiserver.paddock-system.svc')).toBe('paddock-apiserver.paddock-system.svc');
    expect(c.checkIP('10.0.0.7')).toBe('10.0.0.7');
    expect(c.checkHost('other.example')).toBeUndefined();
    expect(c.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(c.checkPrivateKey(createPrivateKey(leaf.key))).toBe(true);
    expect(new Date(c.validFrom).getTime()).toBe(now.getTime() - 60_000);
  });

  test('openssl verifies the chain for server use', () => {
    const dir = mkdtempSync(join(tmpdir(), 'x509-'));
    writeFileSync(join(dir, 'ca.crt'), ca.cert);
    writeFileSync(join(dir, 'leaf.crt'), leaf.cert);
    const out = execFileSync('openssl', ['verify', '-purpose', 'sslserver', '-attime', String(now.getTime() / 1000 + 3600),
      '-CAfile', join(dir, 'ca.crt'), join(dir, 'leaf.crt')], { encoding: 'utf8' });
    expect(out.trim()).toBe(`${join(dir, 'leaf.crt')}: OK`);
  });

  test('dates from 2050 on are GeneralizedTime', () => {
    const late = createCa('late', 40 * 365 * DAY, now);
    expect(new Date(new X509Certificate(late.cert).validTo).getUTCFullYear()).toBe(2066);
  });

  test('a private key is checked before secrets are derived from it: an empty or half-written one is refused', () => {
    expect(checkedPrivateKey(leaf.key)).toBe(leaf.key);
    const pem = Buffer.from(leaf.key);
    expect(checkedPrivateKey(pem)).toBe(pem);
    expect(() => checkedPrivateKey('')).toThrow();
    expect(() => checkedPrivateKey(Buffer.alloc(0))).toThrow();
    expect(() => checkedPrivateKey(leaf.key.slice(0, Math.floor(leaf.key.length / 2)))).toThrow();
    // A certificate is not a private key.
    expect(() => checkedPrivateKey(leaf.cert)).toThrow();
  });
});
