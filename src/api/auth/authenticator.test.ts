import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePki, issueClientCert, type CertFiles, type Pki } from '../../../test/controlplane/pki';
import { type Authentication, Authenticator } from './authenticator';
import { AuthConfigSource, type AuthenticationConfig, parseAuthenticationConfig } from './config';
import { reloadTlsOnChange, tlsServerOptions } from './tls';
import { TokenReviewer } from './tokenreview';
import type { KubeRequester } from './types';

let pki: Pki;
let strangerPki: Pki;
let configData: Record<string, string>;
let config: AuthenticationConfig;
let server: Server;
let port: number;
let authenticator: Authenticator;
let impostor: CertFiles;
let unlistedProxy: CertFiles;

/** A TokenReview endpoint that knows one token. */
const tokens: KubeRequester = {
  async request<T>(_m: string, _p: string, body?: unknown): Promise<T> {
    const token = (body as { spec: { token: string } }).spec.token;
    return { status: token === 'sa-token' ? { authenticated: true, user: { username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] } } : { authenticated: false } } as T;
  },
};

beforeAll(async () => {
  pki = generatePki(mkdtempSync(join(tmpdir(), 'paddock-authn-')));
  strangerPki = generatePki(mkdtempSync(join(tmpdir(), 'paddock-authn-stranger-')));
  impostor = issueClientCert(pki, 'impostor', { user: 'front-proxy-client', groups: [] });
  unlistedProxy = issueClientCert({ ...pki, ca: pki.frontProxyCa }, 'unlisted-proxy', { user: 'some-other-proxy', groups: [] });
  configData = {
    'client-ca-file': readFileSync(pki.ca.cert, 'utf8'),
    'requestheader-client-ca-file': readFileSync(pki.frontProxyCa.cert, 'utf8'),
    'requestheader-allowed-names': '["front-proxy-client"]',
    'requestheader-username-headers': '["X-Remote-User"]',
    'requestheader-group-headers': '["X-Remote-Group"]',
    'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
  };
  config = parseAuthenticationConfig(configData);
  authenticator = new Authenticator({ config: () => config, tokens: new TokenReviewer(tokens) });
  const serving = { cert: readFileSync(pki.paddockServing.cert), key: readFileSync(pki.paddockServing.key) };
  server = createServer(tlsServerOptions(config, serving), (req, res) => {
    authenticator.authenticate(req).then((result) => {
      res.writeHead(result.ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    }, (err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(pki.dir, { recursive: true, force: true });
  rmSync(strangerPki.dir, { recursive: true, force: true });
});

function call(cert: CertFiles | undefined, headers: Record<string, string | string[]> = {}, agent: Agent | false = false): Promise<{ status: number; body: Authentication }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces', method: 'GET', headers, agent,
      ca: readFileSync(pki.ca.cert), servername: 'localhost',
      ...(cert ? { cert: readFileSync(cert.cert), key: readFileSync(cert.key) } : {}),
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) as Authentication }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The CA names the server's CertificateRequest offers, as `openssl s_client` prints them. */
async function acceptableCaNames(): Promise<string[]> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = execFile('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost', '-tls1_2'],
      { encoding: 'utf8', timeout: 10_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    child.stdin!.end();
  });
  const section = out.split('Acceptable client certificate CA names')[1] ?? '';
  return section.split('\n').slice(1).map((l) => l.trim()).filter((l, i, all) => l.startsWith('CN') && all.slice(0, i).every((p) => p.startsWith('CN')));
}

const remote = { 'X-Remote-User': 'alice', 'X-Remote-Group': ['oil-devs', 'gas-devs'], 'X-Remote-Extra-Acme.com%2Fproject': 'p1', 'X-Remote-Extra-Scopes': ['a', 'b'] };

describe('Authenticator over TLS', () => {
  it('takes the identity from the headers of a front proxy with an allowed CN', async () => {
    const { status, body } = await call(pki.frontProxyClient, remote);
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true, method: 'front-proxy',
      user: { name: 'alice', groups: ['oil-devs', 'gas-devs', 'system:authenticated'], extra: { 'acme.com/project': ['p1'], scopes: ['a', 'b'] } },
    });
  });

  it('ignores X-Remote-* headers without a client certificate', async () => {
    const { status, body } = await call(undefined, { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' });
    expect(status).toBe(401);
    expect(body).toEqual({ ok: false, reasons: ['no credentials'] });
  });

  it('gives a cluster-CA certificate its own identity and ignores its X-Remote-* headers', async () => {
    const { body } = await call(pki.users.bob, { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' });
    expect(body).toMatchObject({ ok: true, method: 'client-certificate', user: { name: 'bob', groups: ['gas-devs', 'system:authenticated'] } });
    if (body.ok) expect(body.user.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(/^X509SHA256=[0-9a-f]{64}$/);
  });

  it('does not take a cluster-CA certificate with CN front-proxy-client for a front proxy', async () => {
    const { body } = await call(impostor, { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' });
    expect(body).toMatchObject({ ok: true, method: 'client-certificate', user: { name: 'front-proxy-client', groups: ['system:authenticated'] } });
  });

  it('rejects a front-proxy-CA certificate whose CN is not allowed', async () => {
    const { status, body } = await call(unlistedProxy, { 'X-Remote-User': 'admin' });
    expect(status).toBe(401);
    expect(body).toEqual({ ok: false, reasons: [
      'front proxy: subject with cn=some-other-proxy is not in the allowed list',
      'client certificate: certificate signed by unknown authority',
    ] });
  });

  it('rejects a certificate of an unknown CA, even one named like ours', async () => {
    const { status } = await call(strangerPki.users.admin, { 'X-Remote-User': 'admin' });
    expect(status).toBe(401);
  });

  it('falls through to the bearer token when a front proxy asserts no user', async () => {
    const { body } = await call(pki.frontProxyClient, { Authorization: 'Bearer sa-token' });
    expect(body).toMatchObject({ ok: true, method: 'token', user: { name: 'system:serviceaccount:ci:deployer',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] } });
  });

  it('authenticates a bearer token without a certificate and rejects an unknown one', async () => {
    expect((await call(undefined, { Authorization: 'Bearer sa-token' })).body).toMatchObject({ ok: true, method: 'token' });
    expect((await call(undefined, { Authorization: 'Bearer nope' })).body).toEqual({ ok: false, reasons: ['token: invalid bearer token'] });
  });

  it('gives every request on a connection its own copy of the certificate identity', async () => {
    const issued = issueClientCert(pki, 'bob-ops', { user: 'bob', groups: ['ops'] });
    const raw = new X509Certificate(readFileSync(issued.cert)).raw;
    const socket = { getPeerCertificate: () => ({ raw }) };
    const req = () => ({ socket, headersDistinct: {} }) as unknown as IncomingMessage;
    const first = await authenticator.authenticate(req());
    expect(first).toMatchObject({ ok: true, method: 'client-certificate', user: { name: 'bob', groups: ['ops', 'system:authenticated'] } });
    if (!first.ok) return;
    first.user.groups.push('system:masters');
    first.user.extra['authentication.kubernetes.io/credential-id'].push('forged');
    const second = await authenticator.authenticate(req());
    expect(second).toMatchObject({ ok: true, user: { name: 'bob', groups: ['ops', 'system:authenticated'] } });
    if (second.ok) expect(second.user.extra['authentication.kubernetes.io/credential-id']).toHaveLength(1);
  });

  it('applies a new configuration to an open connection at its next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = config;
    try {
      expect((await call(pki.frontProxyClient, remote, agent)).status).toBe(200);
      config = parseAuthenticationConfig({ ...configData, 'requestheader-allowed-names': '["another-proxy"]' });
      expect((await call(pki.frontProxyClient, remote, agent)).status).toBe(401);
      config = parseAuthenticationConfig({ ...configData, 'requestheader-allowed-names': '[]' });
      expect((await call(unlistedProxy, remote, false)).body).toMatchObject({ ok: true, method: 'front-proxy' });
    } finally {
      config = before;
      agent.destroy();
    }
  });

  it('reloads the TLS context when the configuration source changes', async () => {
    let data = configData;
    const source = new AuthConfigSource({ request: async <T>() => ({ metadata: { name: 'x' }, data }) as T }, { intervalMs: 3_600_000 });
    const serving = { cert: readFileSync(pki.paddockServing.cert), key: readFileSync(pki.paddockServing.key) };
    const stop = reloadTlsOnChange(server, source, () => serving);
    const before = config;
    try {
      await source.start();
      expect(await acceptableCaNames()).toEqual(['CN = paddock-local-ca', 'CN = paddock-local-front-proxy-ca']);
      const { ['requestheader-client-ca-file']: _dropped, ...noProxy } = configData;
      data = { ...noProxy, 'client-ca-file': readFileSync(strangerPki.ca.cert, 'utf8') };
      expect(await source.refresh()).toBe(true);
      config = source.current;
      expect(await acceptableCaNames()).toEqual(['CN = paddock-local-ca']);
      expect((await call(strangerPki.users.carol)).body).toMatchObject({ ok: true, user: { name: 'carol' } });
      expect((await call(pki.users.carol)).status).toBe(401);
    } finally {
      source.stop();
      stop();
      server.setSecureContext(tlsServerOptions(before, serving));
      config = before;
    }
  });
});
