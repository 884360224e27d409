import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, httpsRequest, kubectl, uniqueName, waitFor } from './env';
import { replicas, startApiServerReplica } from './paddock-env';
import { rawRequest, type RawAnswer } from './raw-http';
import { DirectWatch, WebSocketWatch } from './watch-client';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(120_000);

const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';
const { pki } = controlPlane();
const portOf = (identity: string) => replicas().find((r) => r.identity === identity)!.port;

/**
 * A Paddock of its own: three request slots, five watches per user, a 3 s request deadline that comes
 * before its 10 s body deadline, its own certificate files.
 */
let tight: PaddockProcess;
let certDir: string;

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'paddock-http-'));
  copyFileSync(pki.paddockServing.cert, join(certDir, 'tls.crt'));
  copyFileSync(pki.paddockServing.key, join(certDir, 'tls.key'));
  tight = await startApiServerReplica('paddock-http', [
    '--max-requests-inflight=3', '--max-watchers-per-user=5', '--request-timeout=3s', '--request-body-timeout=10s', '--header-timeout=2s',
    `--tls-cert-file=${join(certDir, 'tls.crt')}`, `--tls-private-key-file=${join(certDir, 'tls.key')}`,
  ]);
});

afterAll(async () => {
  if (tight) await stopPaddock(tight);
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

function post(path: string, contentType: string, body: string, port = portOf('paddock-a')) {
  return httpsRequest(`https://127.0.0.1:${port}${path}`, { cert: pki.users.admin, method: 'POST', headers: { 'Content-Type': contentType }, body });
}

describe('bounded decoding (item 8)', () => {
  const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...'bcdefgh'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`),
    'kind: [*h,*h,*h,*h,*h,*h,*h,*h,*h]', 'metadata: {name: x-y}', 'spec: {tenant: x}'].join('\n');

  it('answers a YAML alias bomb with a small 400 at once', async () => {
    expect(Buffer.byteLength(bomb)).toBeLessThan(600);
    const started = Date.now();
    const res = await post(TNS, 'application/yaml', bomb);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(400);
    expect(res.body.length).toBeLessThan(1024);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  });

  it('answers JSON nested 20000 deep in kind with a 400', async () => {
    const res = await post(TNS, 'application/json', `{"kind":${'['.repeat(20000)}${']'.repeat(20000)}}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).message).toContain('nested deeper than 100 levels');
  });

  it('answers a 1 MB bad value with a small 422', async () => {
    const res = await post(TNS, 'application/json', JSON.stringify({ kind: 'k'.repeat(900_000), metadata: { name: 'x-y' }, spec: { tenant: 'x' } }));
    expect(res.status).toBe(422);
    expect(res.body.length).toBeLessThan(2048);
  });
});

describe('deadlines release request slots (item 9)', () => {
  it('answers a stalled body with 408 Timeout at the body deadline and closes the connection', async () => {
    // paddock-a runs with --request-body-timeout=3s (global setup).
    const started = Date.now();
    const a = await rawRequest(portOf('paddock-a'), `POST ${TNS} HTTP/1.1\r\nHost: paddock\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind":`,
      { cert: pki.users.admin, timeoutMs: 15_000, waitForClose: true });
    expect(a.timedOut).toBe(false);
    expect(a.status).toBe(408);
    expect(JSON.parse(a.body)).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 408, message: 'Timeout: the request body was not received within 3s' });
    expect(a.closed).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
  });

  it('answers requests past the request deadline with 504 Timeout and frees their slots', async () => {
    const head = `POST ${TNS} HTTP/1.1\r\nHost: paddock\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind":`;
    const stalled = [0, 1, 2].map(() => rawRequest(tight.port, head, { cert: pki.users.admin, timeoutMs: 20_000, waitForClose: true }));
    // The three are admitted (authorized, reading their bodies) once the in-flight gauge says so; /metrics
    // takes no slot. A list is then refused for want of one.
    await waitFor('the stalled bodies to hold every slot', async () => {
      const m = await httpsRequest(`https://127.0.0.1:${tight.port}/metrics`, { cert: pki.users.admin });
      return /^paddock_apiserver_inflight_requests 3$/m.test(m.body);
    }, 10_000, 50);
    expect((await httpsRequest(`https://127.0.0.1:${tight.port}${TNS}`, { cert: pki.users.admin })).status).toBe(429);
    const answers: RawAnswer[] = await Promise.all(stalled);
    for (const a of answers) {
      expect(a.timedOut).toBe(false);
      expect(a.status).toBe(504);
      expect(JSON.parse(a.body)).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504, message: 'Timeout: request did not complete within the allotted timeout' });
      expect(a.closed).toBe(true);
    }
    const after = await httpsRequest(`https://127.0.0.1:${tight.port}${TNS}`, { cert: pki.users.admin });
    expect(after.status).toBe(200);
  });
});

describe('WebSocket handshakes (item 10)', () => {
  const handshake = (extra: string) => `GET ${TNS}?watch=true HTTP/1.1\r\nHost: paddock\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    `Sec-WebSocket-Version: 13\r\nOrigin: https://paddock\r\n${extra}\r\n`;

  it('gives the watch slot back after 150 failed handshakes', async () => {
    for (let i = 0; i < 150; i += 10) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => rawRequest(tight.port, handshake(''), { cert: pki.users.alice })));
      for (const a of answers) expect(a.status).toBe(400);
    }
    const w = await WebSocketWatch.open(tight.port, 'allowWatchBookmarks=true', pki.users.alice);
    w.close();
  });

  it('refuses a handshake without Origin with 403, as kube-apiserver does', async () => {
    const a = await rawRequest(tight.port, `GET ${TNS}?watch=true HTTP/1.1\r\nHost: paddock\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n', { cert: pki.users.alice });
    expect(a.status).toBe(403);
    expect(JSON.parse(a.body)).toMatchObject({ kind: 'Status', code: 403 });
    await expect(WebSocketWatch.open(tight.port, '', pki.users.alice, { origin: 'null' })).rejects.toThrow('answered 403');
  });

  it('accepts one subprotocol and never echoes the bearer token', async () => {
    const token = (await kubectl('admin', ['-n', 'paddock-system', 'create', 'token', 'paddock', '--duration=10m'])).stdout.trim();
    expect(token).not.toBe('');
    const bearer = `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`;
    const w = await WebSocketWatch.open(tight.port, '', pki.users.alice, { protocols: [bearer, 'base64.binary.k8s.io'] });
    expect(w.protocol).toBe('base64.binary.k8s.io');
    w.close();
  });

  it('answers a malformed path with a 4xx Status as the plain HTTP path does, and nothing before authentication', async () => {
    const path = '/apis/tenancy.paddock.dev/v1alpha1/%ZZ?watch=true';
    const upgrade = `GET ${path} HTTP/1.1\r\nHost: paddock\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: https://paddock\r\n\r\n';
    const plain = await rawRequest(tight.port, `GET ${path} HTTP/1.1\r\nHost: paddock\r\nConnection: close\r\n\r\n`, { cert: pki.users.alice });
    const ws = await rawRequest(tight.port, upgrade, { cert: pki.users.alice });
    for (const a of [plain, ws]) expect(a.status).toBe(400);
    expect((await rawRequest(tight.port, upgrade)).status).toBe(401);
  });
});

describe('malformed HTTP gets an answer (item 11)', () => {
  const cases: [string, string, number][] = [
    ['a 20 KB header', `GET ${TNS} HTTP/1.1\r\nHost: paddock\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a bad Content-Length', `POST ${TNS} HTTP/1.1\r\nHost: paddock\r\nContent-Length: abc\r\n\r\n`, 400],
    ['Content-Length and Transfer-Encoding both', `POST ${TNS} HTTP/1.1\r\nHost: paddock\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
    ['an unknown Transfer-Encoding', `POST ${TNS} HTTP/1.1\r\nHost: paddock\r\nTransfer-Encoding: gzip, identity\r\n\r\n`, 400],
    ['an invalid method', `G@T ${TNS} HTTP/1.1\r\nHost: paddock\r\n\r\n`, 400],
    ['a control character in the request line', `GET /apis\x01 HTTP/1.1\r\nHost: paddock\r\n\r\n`, 400],
  ];
  it.each(cases)('answers %s, then closes', async (_what, payload, status) => {
    const a = await rawRequest(portOf('paddock-a'), payload, { cert: pki.users.admin, waitForClose: true });
    expect(a.status).toBe(status);
    expect(a.closed).toBe(true);
    expect(a.bytes).toBeLessThan(1024);
  });
});

describe('watch timeoutSeconds and certificate rotation (item 14)', () => {
  it('keeps a watch with timeoutSeconds=0 open (the server default), delivering later changes', async () => {
    const name = uniqueName('tzero');
    const w = await DirectWatch.open(portOf('paddock-a'), `timeoutSeconds=0&fieldSelector=spec.tenant=${name}`, pki.users.admin);
    try {
      expect(w.status).toBe(200);
      await applyObject(tenant(name, { namespaces: ['a'] }));
      await w.waitFor('the new namespace', (ev) => ev.some((e) => e.type === 'ADDED' && e.object.metadata.name === `${name}-a`));
      expect(w.ended).toBe(false);
    } finally {
      w.close();
      await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    }
  });

  it('serves a rotated certificate on new connections without a restart', async () => {
    const served = () => new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port: tight.port, servername: 'localhost', rejectUnauthorized: false }, () => {
        const fp = s.getPeerX509Certificate()?.fingerprint256 ?? '';
        s.destroy();
        resolve(fp);
      });
      s.on('error', reject);
    });
    const before = await served();
    expect(before).toBe(new X509Certificate(readFileSync(pki.paddockServing.cert)).fingerprint256);
    const dir = mkdtempSync(join(tmpdir(), 'paddock-rotate-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=rotated',
        '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'k'), '-out', join(dir, 'c')], { stdio: 'pipe' });
      const rotated = new X509Certificate(readFileSync(join(dir, 'c'))).fingerprint256;
      writeFileSync(join(certDir, 'tls.key'), readFileSync(join(dir, 'k')));
      writeFileSync(join(certDir, 'tls.crt'), readFileSync(join(dir, 'c')));
      await waitFor('the rotated certificate to be served', async () => (await served()) === rotated, 15_000, 200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
