import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { b64 } from './pki';
import { httpsGet, type ControlPlaneState } from './controlplane';
import { freePort, isAlive, killGroup, startDetached, waitFor } from './processes';

const REPO = resolve(__dirname, '..', '..');
const MAIN = join(REPO, 'dist', 'main.js');

function kubectl(state: ControlPlaneState, args: string[], input?: string): string {
  return execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs.admin, ...args], { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * Compiles src/ into a fresh dist/ (what the Dockerfile runs). Fresh: a module that moved would
 * otherwise leave its old output behind, and `dist/api/server.js` beside `dist/api/server/index.js`
 * is the one Node.js loads.
 */
export function buildPaddock(): void {
  rmSync(join(REPO, 'dist'), { recursive: true, force: true });
  execFileSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', join(REPO, 'tsconfig.build.json')], { stdio: 'inherit' });
}

/**
 * Installs what Paddock needs before it runs, from the same manifests as a cluster install: namespace,
 * ServiceAccount and RBAC of `apiservice/`. Returns a kubeconfig that authenticates as that ServiceAccount
 * with a real token from the TokenRequest API, so local runs have exactly the permissions of a deployed one.
 */
export function installPaddockIdentity(state: ControlPlaneState): string {
  for (const f of ['namespace.yaml', 'serviceaccount.yaml', 'rbac.yaml', 'tenant-roles.yaml']) kubectl(state, ['apply', '-f', join(REPO, 'apiservice', f)]);
  const token = kubectl(state, ['create', 'token', 'paddock', '-n', 'paddock-system', '--duration=48h']).trim();
  const path = join(state.dir, 'kubeconfig-paddock');
  writeFileSync(path, JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: { server: state.server, 'certificate-authority-data': b64(state.pki.ca.cert) } }],
    users: [{ name: 'paddock', user: { token } }],
    contexts: [{ name: 'paddock', context: { cluster: 'local', user: 'paddock' } }],
    'current-context': 'paddock',
  }), { mode: 0o600 });
  return path;
}

export interface PaddockProcess {
  pid: number;
  port: number;
  log: string;
  identity: string;
}

export interface StartPaddockOptions {
  /** Name for the log file and the leader-election identity. */
  name?: string;
  mode?: 'all' | 'controller' | 'apiserver';
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  /** How long /readyz (or /healthz: see waitReady) may take; 180 s unless given. */
  readyTimeoutMs?: number;
  /** false: resolve once the port answers /healthz, without waiting for the caches (a test of what it serves before). */
  waitReady?: boolean;
}

/** Starts `node dist/main.js` against the local control plane; resolves once its /readyz (or /healthz: see waitReady) answers 200. */
export async function startPaddock(state: ControlPlaneState, kubeconfig: string, opts: StartPaddockOptions = {}): Promise<PaddockProcess> {
  if (!existsSync(MAIN)) buildPaddock();
  const name = opts.name ?? 'paddock';
  const port = await freePort();
  const log = join(state.dir, 'logs', `${name}.log`);
  const pid = startDetached(process.execPath, ['--enable-source-maps', MAIN,
    `--mode=${opts.mode ?? 'all'}`, `--kubeconfig=${kubeconfig}`, '--bind-address=127.0.0.1', `--secure-port=${port}`,
    `--tls-cert-file=${state.pki.paddockServing.cert}`, `--tls-private-key-file=${state.pki.paddockServing.key}`,
    `--identity=${name}`, '--log-level=debug', ...(opts.extraArgs ?? [])], log, { ...process.env, ...opts.env });
  if (opts.mode !== 'controller') {
    const probe = opts.waitReady === false ? '/healthz' : '/readyz';
    await waitFor(`${name} ${probe} (log: ${log})`, async () => {
      if (!isAlive(pid)) throw new Error(`${name} exited; see ${log}`);
      const res = await httpsGet(`https://127.0.0.1:${port}${probe}`, state.pki, state.pki.users.admin).catch(() => undefined);
      return res?.status === 200;
    }, opts.readyTimeoutMs ?? 180_000, 200).catch(async (err) => {
      await killGroup(pid);
      throw err;
    });
  }
  return { pid, port, log, identity: name };
}

export async function stopPaddock(p: PaddockProcess): Promise<void> {
  await killGroup(p.pid);
}

/**
 * Points the APIService v1alpha1.tenancy.paddock.dev at a Paddock listening on 127.0.0.1:`port`: an
 * ExternalName Service to localhost (kube-aggregator rejects loopback endpoints) and the cluster CA,
 * which signed Paddock's serving certificate, as caBundle. Resolves once the APIService is Available.
 */
export async function registerApiService(state: ControlPlaneState, port: number): Promise<void> {
  const service = {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'paddock-apiserver', namespace: 'paddock-system' },
    spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ name: 'https', port, protocol: 'TCP' }] },
  };
  const apiService = {
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
    metadata: { name: 'v1alpha1.tenancy.paddock.dev' },
    spec: {
      group: 'tenancy.paddock.dev', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15,
      service: { name: 'paddock-apiserver', namespace: 'paddock-system', port },
      caBundle: b64(state.pki.ca.cert),
    },
  };
  kubectl(state, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [service, apiService] }));
  await waitFor('APIService v1alpha1.tenancy.paddock.dev Available', async () => {
    const out = kubectl(state, ['get', 'apiservice', 'v1alpha1.tenancy.paddock.dev', '-o',
      'jsonpath={.status.conditions[?(@.type=="Available")].status}']);
    return out.trim() === 'True';
  }, 60_000, 250);
}
