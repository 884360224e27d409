/**
 * Scenario 7: Paddock beside capsule-proxy (github.com/projectcapsule/capsule-proxy), the label-injecting
 * proxy of Capsule, on the same cluster, for the same owners and namespaces, in the same run.
 *
 * capsule-proxy is built from a local source checkout (PADDOCK_CAPSULE_PROXY_SRC, and PADDOCK_CAPSULE_SRC
 * for the Capsule module it imports; see bench/README.md) by build-capsule-proxy.sh and runs out of
 * cluster as a ServiceAccount with the chart's permissions. The Capsule controller does not run: the
 * benchmark installs the Capsule CRDs and writes, for each bench Tenant, a Capsule Tenant with the same
 * owners and the status the controller would write (`status.owners`, `status.namespaces`), and the
 * CapsuleConfiguration's `status.users` (the Capsule users capsule-proxy filters for).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { dirname, join, resolve } from 'node:path';
import { b64 } from '../test/controlplane/pki';
import { freePort, isAlive, killGroup, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster } from './cluster';
import { pool } from './http';
import type { ListResult } from './list';
import type { OwnerListRatios } from './capsule-proxy-scenarios';
import { ownerName, ownerOfTenant, tenantName, type BenchConfig } from './scenarios';
import type { WatchResult } from './watch';

const REPO = resolve(__dirname, '..');
const CAPSULE = '/apis/capsule.clastix.io/v1beta2';
const NAMESPACE = 'capsule-system';
/** capsule-proxy's health probe port (fixed in its source, not a flag). */
const HEALTH_PORT = 8081;

/** What the results hold about capsule-proxy. */
export interface CapsuleProxyResult {
  /** The release the binary was built from (`git describe` of the checkout). */
  version: string;
  /** When the run that measured it started (latest.json may merge it into an earlier full run). */
  startedAt?: string;
  /** Set when the scenario did not run: why, in one line. */
  skipped?: string;
  how?: string;
  /**
   * Owner list at each size: capsule-proxy's namespace list beside Paddock's tenantnamespaces. The ratios
   * are capsule-proxy ÷ Paddock through kube-apiserver (Table: `kubectl get ns` vs `kubectl get tns`) at
   * the largest size measured: higher is better for Paddock.
   */
  ownerList?: OwnerListRatios & { size: number; sizes: ListResult[] };
  adminList?: ListResult;
  watch?: WatchResult;
  ownershipChange?: OwnershipChange;
}

/** The capsule-proxy build and the Capsule sources its CRDs come from, or why there is none. */
export type CapsuleProxyBuild = { binary: string; version: string; crds: string[] } | { skipped: string };

/** Builds capsule-proxy (cached); a one-line reason when it cannot. */
export function buildCapsuleProxy(): CapsuleProxyBuild {
  const src = process.env.PADDOCK_CAPSULE_PROXY_SRC;
  if (!src) return { skipped: 'PADDOCK_CAPSULE_PROXY_SRC is not set (a checkout of github.com/projectcapsule/capsule-proxy; see bench/README.md)' };
  if (!existsSync(join(src, 'go.mod'))) return { skipped: `PADDOCK_CAPSULE_PROXY_SRC=${src} holds no go.mod` };
  let binary: string;
  try {
    const out = execFileSync('bash', [join(REPO, 'bench', 'build-capsule-proxy.sh')], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    binary = out.trim().split('\n').pop()!;
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n');
    return { skipped: `capsule-proxy did not build: ${stderr.filter((l) => !l.startsWith('go: downloading')).slice(-1)[0] ?? 'unknown error'}` };
  }
  const version = readFileSync(join(dirname(binary), 'VERSION'), 'utf8').trim();
  let capsuleDir = process.env.PADDOCK_CAPSULE_SRC;
  if (!capsuleDir) {
    // Not from source: the module capsule-proxy requires, from the Go module cache.
    const required = /github\.com\/projectcapsule\/capsule (v\S+)/.exec(readFileSync(join(src, 'go.mod'), 'utf8'))?.[1];
    try {
      capsuleDir = (JSON.parse(execFileSync('go', ['mod', 'download', '-json', `github.com/projectcapsule/capsule@${required}`], { cwd: src, encoding: 'utf8' })) as { Dir: string }).Dir;
    } catch {
      return { skipped: `the Capsule CRDs: github.com/projectcapsule/capsule@${required} is not in the Go module proxy; set PADDOCK_CAPSULE_SRC to a checkout` };
    }
  }
  const capsuleCrds = ['tenants', 'capsuleconfigurations'].map((n) => join(capsuleDir, 'charts', 'capsule', 'crds', `capsule.clastix.io_${n}.yaml`));
  const proxyCrdDir = join(src, 'charts', 'capsule-proxy', 'crds');
  const proxyCrds = existsSync(proxyCrdDir) ? readdirSync(proxyCrdDir).filter((f) => f.endsWith('.yaml')).map((f) => join(proxyCrdDir, f)) : [];
  const crds = [...capsuleCrds, ...proxyCrds];
  const missing = crds.find((f) => !existsSync(f));
  if (missing || proxyCrds.length === 0) return { skipped: `a Capsule CRD is missing: ${missing ?? proxyCrdDir}` };
  return { binary, version, crds };
}

/** The Capsule users: every owner of the benchmark (and carol, who gets a tenant in the ownership-change check). */
function capsuleUsers(config: BenchConfig): string[] {
  return ['alice', 'carol', ...Array.from({ length: config.owners }, (_, i) => ownerName(i))];
}

/** capsule-proxy running out of cluster against the bench cluster. */
export class CapsuleProxy {
  /** Bench Tenants 0..tenants-1 have their Capsule Tenant. */
  tenants = 0;

  private constructor(readonly cluster: BenchCluster, readonly pid: number, readonly port: number, readonly log: string, readonly version: string) {}

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  /**
   * Installs the CRDs, the CapsuleConfiguration with its users, capsule-proxy's ServiceAccount and RBAC,
   * and starts capsule-proxy on a free port; resolves once it answers.
   */
  static async start(cluster: BenchCluster, build: { binary: string; version: string; crds: string[] }, config: BenchConfig): Promise<CapsuleProxy> {
    const state = cluster.state;
    const kubectl = (args: string[], input?: string) => execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs.admin, ...args], { input, stdio: 'pipe', encoding: 'utf8' });
    kubectl(['apply', '--server-side', ...build.crds.flatMap((f) => ['-f', f])]);
    kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/tenants.capsule.clastix.io', 'crd/capsuleconfigurations.capsule.clastix.io']);
    const rbac = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'capsule-proxy', namespace: NAMESPACE } },
      {
        // The permissions of capsule-proxy's chart (its default ClusterRole).
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'capsule-proxy' },
        rules: [
          { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
          { nonResourceURLs: ['*'], verbs: ['get'] },
          { apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts', 'userextras/*'], verbs: ['impersonate'] },
          { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create', 'get', 'list', 'watch'] },
          { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
          { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
          { apiGroups: ['capsule.clastix.io'], resources: ['proxysettings/status', 'globalproxysettings/status'], verbs: ['update', 'patch'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'capsule-proxy' },
        subjects: [{ kind: 'ServiceAccount', name: 'capsule-proxy', namespace: NAMESPACE }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'capsule-proxy' },
      },
      { apiVersion: 'capsule.clastix.io/v1beta2', kind: 'CapsuleConfiguration', metadata: { name: 'default' }, spec: { cacheInvalidation: '24h', enableTLSReconciler: false, rbac: {} } },
    ];
    kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rbac }));
    // What the Capsule controller would write: the users capsule-proxy filters for.
    const users = capsuleUsers(config).map((name) => ({ kind: 'User', name }));
    const patched = await cluster.admin.patchJson<{ message?: string }>(`${CAPSULE}/capsuleconfigurations/default/status`, { status: { users } });
    if (patched.status !== 200) throw new Error(`CapsuleConfiguration status: ${patched.status} ${patched.body.message ?? ''}`);
    const token = kubectl(['create', 'token', 'capsule-proxy', '-n', NAMESPACE, '--duration=48h']).trim();
    const kubeconfig = join(state.dir, 'kubeconfig-capsule-proxy');
    writeFileSync(kubeconfig, JSON.stringify({
      apiVersion: 'v1', kind: 'Config',
      clusters: [{ name: 'local', cluster: { server: state.server, 'certificate-authority-data': b64(state.pki.ca.cert) } }],
      users: [{ name: 'capsule-proxy', user: { token } }],
      contexts: [{ name: 'capsule-proxy', context: { cluster: 'local', user: 'capsule-proxy' } }],
      'current-context': 'capsule-proxy',
    }), { mode: 0o600 });

    if (!(await portFree(HEALTH_PORT))) throw new Error(`port ${HEALTH_PORT} (capsule-proxy's fixed health-probe port) is in use`);
    const port = await freePort();
    const log = join(state.dir, 'logs', 'capsule-proxy.log');
    // Its serving certificate: Paddock's (the cluster CA signed it for 127.0.0.1 too); clients present
    // certificates of the cluster CA, which capsule-proxy trusts from its kubeconfig.
    const pid = startDetached(build.binary, [
      `--listening-port=${port}`, '--enable-ssl=true',
      `--ssl-cert-path=${state.pki.paddockServing.cert}`, `--ssl-key-path=${state.pki.paddockServing.key}`,
      '--metrics-addr=0', '--client-connection-qps=100', '--client-connection-burst=200',
    ], log, { ...process.env, NAMESPACE, KUBECONFIG: kubeconfig });
    const probe = cluster.client(`https://127.0.0.1:${port}`, state.pki.users.admin, 2);
    try {
      await waitFor(`capsule-proxy /_healthz (log: ${log})`, async () => {
        if (!isAlive(pid)) throw new Error(`capsule-proxy exited; see ${log}`);
        const res = await probe.get('/_healthz').catch(() => undefined);
        return res?.status === 200;
      }, 60_000, 250);
    } catch (err) {
      await killGroup(pid);
      throw err;
    } finally {
      probe.close();
    }
    return new CapsuleProxy(cluster, pid, port, log, build.version);
  }

  async stop(): Promise<void> {
    if (isAlive(this.pid)) await killGroup(this.pid);
  }

  /**
   * Capsule Tenants for bench Tenants `from`..`to`-1: same name, same owner, the same namespaces in
   * `status.namespaces`, the owner in `status.owners` (what the Capsule controller would write).
   */
  async syncTenants(config: BenchConfig, from: number, to: number): Promise<void> {
    const indices = Array.from({ length: to - from }, (_, i) => from + i);
    await pool(indices, 16, async (i) => {
      const name = tenantName(i);
      const owner = ownerOfTenant(config, i);
      const namespaces = Array.from({ length: config.namespacesPerTenant }, (_, n) => `${name}-n${n}`);
      await this.setTenant(name, owner, namespaces);
    });
    this.tenants = Math.max(this.tenants, to);
  }

  /** Creates or updates one Capsule Tenant and its status. */
  async setTenant(name: string, owner: string, namespaces: string[]): Promise<void> {
    const admin = this.cluster.admin;
    const owners = [{ kind: 'User', name: owner }];
    const created = await admin.postJson<{ message?: string }>(`${CAPSULE}/tenants`, { apiVersion: 'capsule.clastix.io/v1beta2', kind: 'Tenant', metadata: { name }, spec: { owners } });
    if (created.status === 409) {
      const res = await admin.patchJson<{ message?: string }>(`${CAPSULE}/tenants/${name}`, { spec: { owners } });
      if (res.status !== 200) throw new Error(`Capsule Tenant ${name}: ${res.status} ${res.body.message ?? ''}`);
    } else if (created.status !== 201) throw new Error(`Capsule Tenant ${name}: ${created.status} ${created.body.message ?? ''}`);
    const status = { state: 'Active', size: namespaces.length, namespaces, owners: owners.map((o) => ({ ...o, clusterRoles: ['admin', 'capsule-namespace-deleter'] })), conditions: [] };
    const res = await admin.patchJson<{ message?: string }>(`${CAPSULE}/tenants/${name}/status`, { status });
    if (res.status !== 200) throw new Error(`Capsule Tenant ${name} status: ${res.status} ${res.body.message ?? ''}`);
  }

  /** Waits until `user`'s namespace list through capsule-proxy has `rows` items (its cache caught up). */
  async waitRows(user: string, rows: number, timeoutMs = 120_000): Promise<void> {
    const client = this.cluster.client(this.url, this.cluster.userCert(user), 2);
    try {
      await waitFor(`capsule-proxy to list ${rows} namespaces for ${user} (log: ${this.log})`, async () => {
        if (!isAlive(this.pid)) throw new Error(`capsule-proxy exited; see ${this.log}`);
        const res = await client.get('/api/v1/namespaces');
        if (res.status !== 200) return false;
        return (JSON.parse(res.body.toString('utf8')) as { items: unknown[] }).items.length === rows;
      }, timeoutMs, 250);
    } finally {
      client.close();
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const req = request({ host: '127.0.0.1', port, path: '/', timeout: 1000, rejectUnauthorized: false });
    req.on('error', (err: NodeJS.ErrnoException) => resolvePort(err.code === 'ECONNREFUSED'));
    req.on('timeout', () => req.destroy());
    req.on('response', (res) => {
      res.resume();
      resolvePort(false);
    });
    req.end();
  });
}

/** What one open watch saw after the ownership of a tenant moved from one user to another. */
export interface WatchObservation {
  watch: string;
  /** Events about the moved tenant's namespaces after the change, by type (ADDED, MODIFIED, DELETED). */
  events: Record<string, number>;
  /** Whether the label change made after the move reached this watch. */
  sawLaterChange: boolean;
}

export interface OwnershipChange {
  tenant: string;
  from: string;
  to: string;
  /** Each watch was open before the change; should see = Paddock's contract (SPEC), observed = what arrived. */
  observations: WatchObservation[];
  /** Rows of a list (or a new watch) by the new owner after the change, through capsule-proxy. */
  newOwnerListRows: number;
  summary: string;
}
