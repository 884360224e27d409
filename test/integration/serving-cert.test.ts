import { X509Certificate } from 'node:crypto';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCa, createServingCert } from '../../src/certs/x509';
import { connect } from 'node:tls';
import { freePort, isAlive, killGroup, startDetached } from '../controlplane/processes';
import { controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';

// --manage-serving-cert on a Paddock process: the certificate it makes is kept in its Secret, served, and
// renewed before it expires without a restart. (The install suite covers the APIService's caBundle.)
// Without it, certificate files that change (a renewed Secret volume) are served anew, also without a restart.

jest.setTimeout(120_000);

const MAIN = resolve(__dirname, '..', '..', 'dist', 'main.js');

/** The certificate a TLS server on 127.0.0.1:`port` presents. */
function peerCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolvePeer, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: 'paddock-apiserver.paddock-system.svc', rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolvePeer(new X509Certificate(raw));
    });
    socket.on('error', reject);
  });
}

/** Starts a Paddock API server of the test's own with `flags`, and waits until it serves TLS. */
async function startServing(name: string, flags: string[]): Promise<{ pid: number; port: number }> {
  const cp = controlPlane();
  const port = await freePort();
  const log = join(cp.dir, 'logs', `${name}.log`);
  const pid = startDetached(process.execPath, [MAIN, '--mode=apiserver', `--kubeconfig=${cp.kubeconfigs.admin}`, '--bind-address=127.0.0.1',
    `--secure-port=${port}`, `--identity=${name}`, ...flags], log);
  await waitFor(`Paddock serving on ${port} (log: ${log})`, async () => {
    if (!isAlive(pid)) throw new Error(`Paddock exited; see ${log}`);
    return !!(await peerCertificate(port).catch(() => undefined));
  }, 60_000, 200);
  return { pid, port };
}

describe('a self-managed serving certificate', () => {
  const secret = uniqueName('serving-cert');
  let pid = 0;
  let port = 0;

  beforeAll(async () => {
    ({ pid, port } = await startServing(secret, ['--manage-serving-cert=true', `--serving-cert-secret=paddock-system/${secret}`,
      '--serving-cert-validity=30s', '--apiservice=v1alpha1.not-registered.paddock.dev']));
  });

  afterAll(async () => {
    if (pid) await killGroup(pid);
    await kubectl('admin', ['delete', 'secret', secret, '-n', 'paddock-system', '--ignore-not-found']);
  });

  async function stored(): Promise<{ leaf: X509Certificate; ca: X509Certificate }> {
    const s = await kubectlJson('admin', ['get', 'secret', secret, '-n', 'paddock-system']);
    return { leaf: new X509Certificate(Buffer.from(s.data['tls.crt'], 'base64')), ca: new X509Certificate(Buffer.from(s.data['ca.crt'], 'base64')) };
  }

  test('is made, kept in its Secret and served; renewed before it expires and served without a restart', async () => {
    const first = await stored();
    const served = await peerCertificate(port);
    expect(served.fingerprint256).toBe(first.leaf.fingerprint256);
    expect(served.verify(first.ca.publicKey)).toBe(true);
    expect(served.checkHost('paddock-apiserver.paddock-system.svc')).toBe('paddock-apiserver.paddock-system.svc');

    let renewed: X509Certificate | undefined;
    await waitFor('the serving certificate renewed in the Secret', async () => {
      const now = await stored();
      if (now.leaf.fingerprint256 === first.leaf.fingerprint256) return false;
      renewed = now.leaf;
      return true;
    }, 60_000, 500);
    // Renewed while the old one was still valid, by the same CA.
    expect(Date.now()).toBeLessThan(new Date(first.leaf.validTo).getTime());
    expect(renewed!.verify(first.ca.publicKey)).toBe(true);
    await waitFor('the renewed certificate served', async () => (await peerCertificate(port)).fingerprint256 === renewed!.fingerprint256, 10_000, 100);
    expect(isAlive(pid)).toBe(true);
  });
});

describe('serving certificate files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paddock-serving-'));
  const names = ['paddock-apiserver.paddock-system.svc'];
  const ca = createCa('files-ca', 3_600_000);
  const first = createServingCert(ca, names[0], names, 3_600_000);
  const second = createServingCert(ca, names[0], names, 3_600_000);
  let pid = 0;
  let port = 0;

  /** Replaces a file the way a Secret volume does: write beside it, then rename over it. */
  function replace(path: string, content: string): void {
    writeFileSync(`${path}.new`, content);
    renameSync(`${path}.new`, path);
  }

  beforeAll(async () => {
    replace(join(dir, 'tls.crt'), first.cert);
    replace(join(dir, 'tls.key'), first.key);
    ({ pid, port } = await startServing('paddock-files', [`--tls-cert-file=${join(dir, 'tls.crt')}`, `--tls-private-key-file=${join(dir, 'tls.key')}`]));
  });

  afterAll(async () => {
    if (pid) await killGroup(pid);
  });

  test('a replaced certificate is served to new connections within 30 seconds, without a restart', async () => {
    expect((await peerCertificate(port)).fingerprint256).toBe(new X509Certificate(first.cert).fingerprint256);
    replace(join(dir, 'tls.key'), second.key);
    replace(join(dir, 'tls.crt'), second.cert);
    const expected = new X509Certificate(second.cert).fingerprint256;
    await waitFor('the replaced certificate served', async () => (await peerCertificate(port)).fingerprint256 === expected, 45_000, 250);
    expect(isAlive(pid)).toBe(true);
  });
});
