import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join, resolve } from 'node:path';
import { b64, generatePki, type CertFiles, type Pki, FRONT_PROXY_CLIENT, USERS } from './pki';
import { freePort, isAlive, killGroup, startDetached, waitFor } from './processes';

/**
 * Everything a client of a running local control plane needs, persisted as `state.json` in its directory
 * so that another process (a test worker, `npm run demo:down`) can use or stop it.
 */
export interface ControlPlaneState {
  dir: string;
  /** https://127.0.0.1:<port> of kube-apiserver. */
  server: string;
  etcdUrl: string;
  binDir: string;
  /** Paths of the kubeconfig of each user (admin, alice, bob, carol). */
  kubeconfigs: Record<string, string>;
  pids: { etcd: number; apiserver: number; controllerManager: number };
  logs: { etcd: string; apiserver: string; controllerManager: string };
  pki: Pki;
  auditLog: string;
}

const REPO = resolve(__dirname, '..', '..');

/** Builds (or finds in the cache) etcd, kube-apiserver and kube-controller-manager; returns their directory. */
export function ensureBinaries(): string {
  const fromEnv = process.env.PADDOCK_CONTROLPLANE_BIN;
  if (fromEnv) return fromEnv;
  const out = execFileSync('bash', [join(REPO, 'test', 'controlplane', 'build-binaries.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  return out.trim().split('\n').pop()!;
}

/**
 * The address kube-apiserver advertises as the endpoint of Service `kubernetes`: the gateway of the test
 * bed's pod network, where the node relays it to 127.0.0.1 so that pods reach the API (see node.ts).
 * Without a node nothing dials it.
 */
export const ADVERTISE_ADDRESS = '10.244.0.1';
/** Pod network of the node (kube-controller-manager gives each node a /24 of it). */
export const CLUSTER_CIDR = '10.244.0.0/16';
export const SERVICE_CIDR = '10.0.0.0/24';

/** A kubeconfig for `server` that authenticates with a client certificate. */
export function clientKubeconfig(server: string, caFile: string, user: string, cert: CertFiles): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'paddock-local', cluster: { server, 'certificate-authority-data': b64(caFile) } }],
    users: [{ name: user, user: { 'client-certificate-data': b64(cert.cert), 'client-key-data': b64(cert.key) } }],
    contexts: [{ name: user, context: { cluster: 'paddock-local', user } }],
    'current-context': user,
  }, null, 2);
}

/** GET over HTTPS trusting the cluster CA, authenticating with `cert`. */
export function httpsGet(url: string, pki: Pki, cert: CertFiles, verify = true): Promise<{ status: number; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request(url, {
      ca: readFileSync(pki.ca.cert), cert: readFileSync(cert.cert), key: readFileSync(cert.key),
      timeout: 5000, rejectUnauthorized: verify,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolveGet({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  verbs: [create, update, patch, delete, deletecollection]
- level: None
`;

/** The kube-controller-manager controllers the local control plane runs. */
export const DEFAULT_CONTROLLERS = [
  'namespace-controller', 'garbage-collector-controller', 'resourcequota-controller',
  'serviceaccount-controller', 'serviceaccount-token-controller', 'clusterrole-aggregation-controller',
  'root-ca-certificate-publisher-controller',
  // what a node needs: workloads, Service endpoints, PodDisruptionBudgets, pod CIDRs, node readiness
  // (it lifts the not-ready taint a new node registers with), pod cleanup
  'deployment-controller', 'replicaset-controller', 'endpointslice-controller', 'endpointslice-mirroring-controller',
  'disruption-controller', 'node-ipam-controller', 'node-lifecycle-controller', 'pod-garbage-collector-controller',
];

export interface StartOptions {
  /** Directory for PKI, data, logs and state; wiped first. */
  dir: string;
  /** Extra kube-apiserver flags, e.g. `--v=2`. */
  apiserverArgs?: string[];
  /** Extra environment of kube-apiserver, e.g. a `GOMEMLIMIT` on a machine it shares. */
  apiserverEnv?: Record<string, string>;
  /** kube-controller-manager's controllers, replacing the default list (e.g. fewer for a large benchmark). */
  controllers?: string[];
  /** Extra kube-controller-manager flags, after the defaults (a later duration flag wins). */
  controllerManagerArgs?: string[];
  log?: (line: string) => void;
}

/**
 * Starts etcd, kube-apiserver (aggregation layer on, audit log of writes) and kube-controller-manager on
 * free ports of 127.0.0.1 and resolves once kube-apiserver is ready and the controller manager serves.
 * On failure everything started is stopped and the error names the log to read.
 */
export async function startControlPlane(opts: StartOptions): Promise<ControlPlaneState> {
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const dir = resolve(opts.dir);
  await stopControlPlane(dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const binDir = ensureBinaries();
  const t0 = Date.now();
  const pki = generatePki(join(dir, 'pki'));
  const [etcdPort, peerPort, apiPort, kcmPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const server = `https://127.0.0.1:${apiPort}`;
  const logs = {
    etcd: join(dir, 'logs', 'etcd.log'),
    apiserver: join(dir, 'logs', 'kube-apiserver.log'),
    controllerManager: join(dir, 'logs', 'kube-controller-manager.log'),
  };
  const auditLog = join(dir, 'logs', 'audit.log');
  writeFileSync(join(dir, 'audit-policy.yaml'), AUDIT_POLICY);

  const kubeconfigs: Record<string, string> = {};
  for (const name of Object.keys(USERS)) {
    kubeconfigs[name] = join(dir, `kubeconfig-${name}`);
    writeFileSync(kubeconfigs[name], clientKubeconfig(server, pki.ca.cert, USERS[name].user, pki.users[name]), { mode: 0o600 });
  }
  const kcmKubeconfig = join(dir, 'kubeconfig-kube-controller-manager');
  writeFileSync(kcmKubeconfig, clientKubeconfig(server, pki.ca.cert, 'system:kube-controller-manager', pki.controllerManager));

  const pids = { etcd: 0, apiserver: 0, controllerManager: 0 };
  const state: ControlPlaneState = { dir, server, etcdUrl, binDir, kubeconfigs, pids, logs, pki, auditLog };
  const save = () => writeFileSync(join(dir, 'state.json'), JSON.stringify(state, null, 2));
  try {
    pids.etcd = startDetached(join(binDir, 'etcd'), [
      '--name=paddock-local', `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`, `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=paddock-local=http://127.0.0.1:${peerPort}`,
      '--unsafe-no-fsync=true', '--log-level=warn', '--quota-backend-bytes=8589934592',
    ], logs.etcd);
    save();
    await waitFor('etcd', async () => {
      const res = await fetch(`${etcdUrl}/health`);
      return res.ok;
    }, 20_000);

    pids.apiserver = startDetached(join(binDir, 'kube-apiserver'), [
      `--etcd-servers=${etcdUrl}`, `--secure-port=${apiPort}`, '--bind-address=127.0.0.1',
      `--advertise-address=${ADVERTISE_ADDRESS}`, `--cert-dir=${join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.apiserverServing.cert}`, `--tls-private-key-file=${pki.apiserverServing.key}`,
      `--client-ca-file=${pki.ca.cert}`, '--authorization-mode=RBAC', '--allow-privileged=true',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      // For a node: logs and exec reach the kubelet at its InternalIP, never through a DNS lookup.
      `--kubelet-client-certificate=${pki.kubeletClient.cert}`, `--kubelet-client-key=${pki.kubeletClient.key}`,
      '--kubelet-preferred-address-types=InternalIP',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${pki.serviceAccount.publicKey}`,
      `--service-account-signing-key-file=${pki.serviceAccount.privateKey}`,
      `--requestheader-client-ca-file=${pki.frontProxyCa.cert}`,
      `--requestheader-allowed-names=${FRONT_PROXY_CLIENT}`,
      '--requestheader-username-headers=X-Remote-User', '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      `--proxy-client-cert-file=${pki.frontProxyClient.cert}`, `--proxy-client-key-file=${pki.frontProxyClient.key}`,
      `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${auditLog}`,
      '--audit-log-format=json', '--audit-log-mode=blocking',
      ...(opts.apiserverArgs ?? []),
    ], logs.apiserver, { ...process.env, ...opts.apiserverEnv });
    save();
    await waitFor('kube-apiserver /readyz', async () => {
      if (!isAlive(pids.apiserver)) throw new Error('kube-apiserver exited');
      return (await httpsGet(`${server}/readyz`, pki, pki.users.admin)).status === 200;
    }, 60_000, 200);

    pids.controllerManager = startDetached(join(binDir, 'kube-controller-manager'), [
      `--kubeconfig=${kcmKubeconfig}`, `--authentication-kubeconfig=${kcmKubeconfig}`,
      `--authorization-kubeconfig=${kcmKubeconfig}`, `--secure-port=${kcmPort}`, '--bind-address=127.0.0.1',
      `--cert-dir=${join(dir, 'kcm-certs')}`, '--leader-elect=false',
      `--controllers=${(opts.controllers ?? DEFAULT_CONTROLLERS).join(',')}`,
      '--allocate-node-cidrs=true', `--cluster-cidr=${CLUSTER_CIDR}`, '--node-cidr-mask-size=24',
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      `--service-account-private-key-file=${pki.serviceAccount.privateKey}`, `--root-ca-file=${pki.ca.cert}`,
      '--resource-quota-sync-period=10s',
      ...(opts.controllerManagerArgs ?? []),
    ], logs.controllerManager);
    save();
    await waitFor('kube-controller-manager /healthz', async () => {
      if (!isAlive(pids.controllerManager)) throw new Error('kube-controller-manager exited');
      const res = await httpsGet(`https://127.0.0.1:${kcmPort}/healthz`, pki, pki.users.admin, false).catch(() => undefined);
      return res?.status === 200;
    }, 30_000, 200);
    log(`control plane ready at ${server} in ${Date.now() - t0} ms (logs: ${join(dir, 'logs')})`);
    return state;
  } catch (err) {
    await stopControlPlane(dir);
    throw new Error(`local control plane failed to start: ${(err as Error).message}; logs are kept in ${join(dir, 'logs')}`);
  }
}

/** Reads the state of a control plane started in `dir`, if there is one. */
export function readState(dir: string): ControlPlaneState | undefined {
  const file = join(resolve(dir), 'state.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ControlPlaneState) : undefined;
}

/** Stops every process of the control plane in `dir` (controller manager first, etcd last). */
export async function stopControlPlane(dir: string): Promise<void> {
  const state = readState(dir);
  if (!state) return;
  for (const pid of [state.pids.controllerManager, state.pids.apiserver, state.pids.etcd]) {
    if (pid) await killGroup(pid);
  }
}
