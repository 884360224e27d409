import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import {
  type Authentication, Authenticator, AuthConfigSource, Authorizer, type KubeRequester, reloadTlsOnChange, TokenReviewer,
  tlsServerOptions, type UserInfo,
} from '../../src/api/auth';
import { type CertFiles, generatePki, type Pki } from '../controlplane/pki';
import { controlPlane, kubectl, uniqueName, waitFor } from './env';

/** A KubeRequester speaking to the test control plane with the credentials of a kubeconfig file. */
function requester(kubeconfigPath: string): KubeRequester {
  type Kubeconfig = {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { 'client-certificate-data'?: string; 'client-key-data'?: string; token?: string } }[];
  };
  const kc = load(readFileSync(kubeconfigPath, 'utf8')) as Kubeconfig;
  const cluster = kc.clusters[0].cluster;
  const user = kc.users[0].user;
  const b64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64') : undefined);
  return {
    request<T>(method: string, path: string, body?: unknown): Promise<T> {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = request(new URL(path, cluster.server), {
          method, timeout: 10_000,
          ca: b64(cluster['certificate-authority-data']), cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']),
          headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}),
            ...(user.token ? { authorization: `Bearer ${user.token}` } : {}) },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            const code = res.statusCode ?? 0;
            if (code >= 200 && code < 300) resolve(JSON.parse(text) as T);
            else reject(new Error(`${method} ${path}: ${code} ${text.slice(0, 300)}`));
          });
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end(payload);
      });
    },
  };
}

async function must(user: string, args: string[], input?: string): Promise<string> {
  const r = await kubectl(user, args, input);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

jest.setTimeout(60_000);

const state = controlPlane();
const pki = state.pki;
const admin = requester(state.kubeconfigs.admin);
const ns = uniqueName('authn');
const sa = 'deployer';
let stranger: Pki;
let source: AuthConfigSource;
let server: Server;
let port: number;
let stopReload: () => void;

beforeAll(async () => {
  stranger = generatePki(mkdtempSync(join(tmpdir(), 'paddock-stranger-')));
  source = new AuthConfigSource(admin);
  await source.start();
  const authenticator = new Authenticator({ config: () => source.current, tokens: new TokenReviewer(admin) });
  const serving = { cert: readFileSync(pki.paddockServing.cert), key: readFileSync(pki.paddockServing.key) };
  server = createServer(tlsServerOptions(source.current, serving), (req, res) => {
    if (req.url?.startsWith('/openapi')) {
      res.writeHead(404).end();
      return;
    }
    authenticator.authenticate(req).then((result) => {
      res.writeHead(result.ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    }, (err: Error) => res.writeHead(500).end(err.message));
  });
  stopReload = reloadTlsOnChange(server, source, () => serving);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  await must('admin', ['create', 'namespace', ns]);
  await must('admin', ['-n', ns, 'create', 'serviceaccount', sa]);
});

afterAll(async () => {
  stopReload?.();
  source?.stop();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (stranger) rmSync(stranger.dir, { recursive: true, force: true });
  await kubectl('admin', ['delete', 'namespace', ns, '--wait=false']);
});

function call(cert: CertFiles | undefined, headers: Record<string, string | string[]> = {}, path = '/'): Promise<{ status: number; body: Authentication }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path, headers, agent: false, ca: readFileSync(pki.ca.cert), servername: 'localhost',
      ...(cert ? { cert: readFileSync(cert.cert), key: readFileSync(cert.key) } : {}),
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Authentication }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication against the local control plane', () => {
  it('reads its configuration from the real extension-apiserver-authentication ConfigMap', () => {
    const config = source.current;
    expect(config.resourceVersion).toMatch(/^\d+$/);
    expect(config.clientCA?.certs.map((c) => c.fingerprint256)).toContain(
      new X509Certificate(readFileSync(pki.ca.cert)).fingerprint256);
    expect(config.requestHeader).toMatchObject({
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['x-remote-user'],
      groupHeaders: ['x-remote-group'],
      extraHeaderPrefixes: ['x-remote-extra-'],
    });
    expect(config.requestHeader?.ca.certs[0].subject).toBe('CN=paddock-local-front-proxy-ca');
  });

  it('takes alice and both groups from the headers of the front proxy', async () => {
    const { status, body } = await call(pki.frontProxyClient, { 'X-Remote-User': 'alice', 'X-Remote-Group': ['oil-devs', 'gas-devs'] });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, method: 'front-proxy', user: { name: 'alice', groups: ['oil-devs', 'gas-devs', 'system:authenticated'], extra: {} } });
  });

  it('answers 401 to X-Remote-User: admin without a client certificate', async () => {
    const { status, body } = await call(undefined, { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' });
    expect(status).toBe(401);
    expect(body.ok).toBe(false);
  });

  it('gives a cluster-CA certificate its own identity and ignores its X-Remote-* headers', async () => {
    const { body } = await call(pki.users.alice, { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' });
    expect(body).toMatchObject({ ok: true, method: 'client-certificate', user: { name: 'alice', groups: ['system:authenticated'] } });
    const bob = await call(pki.users.bob);
    expect(bob.body).toMatchObject({ ok: true, user: { name: 'bob', groups: ['gas-devs', 'system:authenticated'] } });
  });

  it('answers 401 to a certificate of an unknown CA', async () => {
    const { status } = await call(stranger.users.admin, { 'X-Remote-User': 'admin' });
    expect(status).toBe(401);
    expect((await call(stranger.frontProxyClient, { 'X-Remote-User': 'admin' })).status).toBe(401);
  });

  it('identifies a ServiceAccount by its token through TokenReview, and refuses a forged one', async () => {
    const token = (await must('admin', ['-n', ns, 'create', 'token', sa, '--duration=10m'])).trim();
    const { status, body } = await call(undefined, { Authorization: `Bearer ${token}` });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ok: true, method: 'token',
      user: { name: `system:serviceaccount:${ns}:${sa}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] },
    });
    if (body.ok) expect(body.user.uid).toMatch(/^[0-9a-f-]{36}$/);
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await call(undefined, { Authorization: `Bearer ${forged}` })).status).toBe(401);
  });
});

describe('authorization against the local control plane', () => {
  const asCert = async (cert: CertFiles): Promise<UserInfo> => {
    const { body } = await call(cert);
    if (!body.ok) throw new Error(body.reasons.join('; '));
    return body.user;
  };

  it('lets admin list namespaces and denies alice, by SubjectAccessReview', async () => {
    const authz = new Authorizer(admin, { alwaysAllowGroups: [] });
    const adminUser = await asCert(pki.users.admin);
    const alice = await asCert(pki.users.alice);
    expect(await authz.canListAllNamespaces(adminUser)).toBe(true);
    expect(await authz.canListAllNamespaces(alice)).toBe(false);
    const decision = await authz.authorize(alice, { verb: 'get', group: '', resource: 'namespaces', name: ns });
    expect(decision.allowed).toBe(false);
    expect(await authz.authorize(alice, { verb: 'get', path: '/healthz' })).toMatchObject({ allowed: true });
  });

  it('follows RBAC for a ServiceAccount user, groups included', async () => {
    const role = uniqueName('authn-ns-reader');
    const saUser: UserInfo = { name: `system:serviceaccount:${ns}:${sa}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'], extra: {} };
    expect(await new Authorizer(admin).canListAllNamespaces(saUser)).toBe(false);
    await must('admin', ['create', 'clusterrole', role, '--verb=list', '--resource=namespaces']);
    try {
      await must('admin', ['create', 'clusterrolebinding', role, `--clusterrole=${role}`, `--group=system:serviceaccounts:${ns}`]);
      await waitFor('RBAC grants list namespaces', () => new Authorizer(admin).canListAllNamespaces(saUser), 10_000);
      expect(await new Authorizer(admin).canListAllNamespaces({ ...saUser, groups: ['system:authenticated'] })).toBe(false);
    } finally {
      await kubectl('admin', ['delete', 'clusterrolebinding,clusterrole', role, '--ignore-not-found']);
    }
  });
});

describe('configuration reload', () => {
  it('stops trusting the front proxy within the poll bound once its CN is no longer allowed', async () => {
    const copy = uniqueName('authn-config');
    const real = await admin.request<{ data: Record<string, string> }>('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
    await admin.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: copy }, data: real.data });
    const local = new AuthConfigSource(admin, { namespace: ns, name: copy, intervalMs: 500 });
    await local.start();
    try {
      const authn = new Authenticator({ config: () => local.current });
      const asProxy = {
        peerCertificates: [new X509Certificate(readFileSync(pki.frontProxyClient.cert))],
        headers: { 'x-remote-user': ['alice'] },
      };
      expect(await authn.authenticateCredentials(asProxy)).toMatchObject({ ok: true, method: 'front-proxy' });
      await must('admin', ['-n', ns, 'patch', 'configmap', copy, '--type=merge', '-p',
        JSON.stringify({ data: { 'requestheader-allowed-names': '["someone-else"]' } })]);
      const took = await waitFor('front proxy refused', async () => !(await authn.authenticateCredentials(asProxy)).ok, 3_000);
      expect(took).toBeLessThan(3_000);
    } finally {
      local.stop();
    }
  });
});

describe('behind the real aggregator', () => {
  it('sees the caller kube-apiserver authenticated, as the front proxy passes it on', async () => {
    const group = `${uniqueName('authn')}.test.paddock.dev`;
    const svc = 'auth-test';
    await must('admin', ['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [
        { apiVersion: 'v1', kind: 'Service', metadata: { name: svc, namespace: ns }, spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ port }] } },
        { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `v1.${group}` },
          spec: { group, version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, insecureSkipTLSVerify: true,
            service: { namespace: ns, name: svc, port } } },
      ],
    }));
    try {
      let seen: Authentication | undefined;
      let last = '';
      await waitFor('aggregated call reaches the test server', async () => {
        const r = await kubectl('bob', ['get', '--raw', `/apis/${group}/v1`]);
        if (r.code !== 0) {
          last = r.stderr + (await kubectl('admin', ['get', 'apiservice', `v1.${group}`, '-o', 'jsonpath={.status}'])).stdout;
          return false;
        }
        seen = JSON.parse(r.stdout) as Authentication;
        return true;
      }, 30_000).catch((err: Error) => {
        throw new Error(`${err.message}; last answer: ${last}`);
      });
      // kube-apiserver authenticated bob by his certificate; the aggregator forwards name, groups and extras.
      expect(seen).toMatchObject({ ok: true, method: 'front-proxy', user: {
        name: 'bob', groups: ['gas-devs', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [expect.stringMatching(/^X509SHA256=[0-9a-f]{64}$/)] },
      } });
    } finally {
      await kubectl('admin', ['delete', 'apiservice', `v1.${group}`, '--ignore-not-found']);
    }
  });
});
