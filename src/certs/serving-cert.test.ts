import { X509Certificate } from 'node:crypto';
import { desiredSecretData, serviceNames, type ServingCertOptions } from './serving-cert';

const DAY = 86_400_000;
const opts: ServingCertOptions = {
  namespace: 'paddock-system', secretName: 'paddock-serving-cert', serviceName: 'paddock-apiserver',
  apiServiceName: 'v1alpha1.tenancy.paddock.dev', validityMs: 90 * DAY, caValidityMs: 900 * DAY, checkIntervalMs: 60_000,
};
const pem = (data: Record<string, string>, key: string) => Buffer.from(data[key], 'base64').toString('utf8');
const certs = (bundle: string) => bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!.map((c) => new X509Certificate(c));

describe('desiredSecretData', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  const first = desiredSecretData(undefined, opts, t0)!;

  test('an empty Secret gets a CA and a serving certificate for the Service names, signed by it', () => {
    const [ca] = certs(pem(first, 'ca.crt'));
    const leaf = new X509Certificate(pem(first, 'tls.crt'));
    expect(ca.ca).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    for (const n of serviceNames('paddock-apiserver', 'paddock-system')) expect(leaf.checkHost(n)).toBe(n);
    expect(pem(first, 'tls.key')).toMatch(/BEGIN PRIVATE KEY/);
    expect(pem(first, 'ca.key')).toMatch(/BEGIN PRIVATE KEY/);
  });

  test('nothing changes while both have more than a third of their lifetime left', () => {
    expect(desiredSecretData(first, opts, new Date(t0.getTime() + 59 * DAY))).toBeUndefined();
  });

  test('the serving certificate is renewed with a third of its lifetime left; the CA stays', () => {
    const renewed = desiredSecretData(first, opts, new Date(t0.getTime() + 61 * DAY))!;
    expect(pem(renewed, 'ca.crt')).toBe(pem(first, 'ca.crt'));
    expect(pem(renewed, 'tls.crt')).not.toBe(pem(first, 'tls.crt'));
    expect(new X509Certificate(pem(renewed, 'tls.crt')).verify(certs(pem(first, 'ca.crt'))[0].publicKey)).toBe(true);
  });

  test('a renewed CA keeps the previous one in ca.crt while it is valid, and re-issues the serving certificate', () => {
    const at = new Date(t0.getTime() + 601 * DAY);
    const renewed = desiredSecretData(first, opts, at)!;
    const bundle = certs(pem(renewed, 'ca.crt'));
    expect(bundle).toHaveLength(2);
    expect(bundle[1].fingerprint256).toBe(certs(pem(first, 'ca.crt'))[0].fingerprint256);
    expect(new X509Certificate(pem(renewed, 'tls.crt')).verify(bundle[0].publicKey)).toBe(true);
    // Once the old CA has expired it leaves the bundle.
    const later = desiredSecretData(renewed, opts, new Date(t0.getTime() + 901 * DAY))!;
    expect(certs(pem(later, 'ca.crt'))).toHaveLength(1);
  });

  test('a serving certificate not signed by the CA (e.g. another issuer) is replaced', () => {
    const other = desiredSecretData(undefined, opts, t0)!;
    const mixed = { ...first, 'tls.crt': other['tls.crt'], 'tls.key': other['tls.key'] };
    const fixed = desiredSecretData(mixed, opts, t0)!;
    expect(new X509Certificate(pem(fixed, 'tls.crt')).verify(certs(pem(first, 'ca.crt'))[0].publicKey)).toBe(true);
  });
});
