import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installCrds } from '../test/controlplane/crds';
import { startControlPlane, stopControlPlane, type ControlPlaneState, type StartOptions } from '../test/controlplane/controlplane';
import { installPaddockIdentity, registerApiService, startPaddock, stopPaddock, type PaddockProcess } from '../test/controlplane/paddock';
import { issueClientCert, type CertFiles } from '../test/controlplane/pki';
import { sleep } from '../test/controlplane/processes';
import { Client, pool } from './http';
import { heapOf, metricSum, type HeapSample } from './proc';

const REPO = resolve(__dirname, '..');
const PROBE = join(REPO, 'bench', 'probe', 'heap-probe.cjs');
const CPU_PROBE = join(REPO, 'bench', 'probe', 'cpu-probe.cjs');
const STALL_PROBE = join(REPO, 'bench', 'probe', 'stall-probe.cjs');

/** The audit log is read this many bytes at a time. */
const AUDIT_SLICE_BYTES = 16 << 20;

/** The user kube-apiserver knows Paddock as (its ServiceAccount). */
export const PADDOCK_USER = 'system:serviceaccount:paddock-system:paddock';
export const TENANT_LABEL = 'paddock.dev/tenant';
const TENANTS = '/apis/paddock.dev/v1alpha1/tenants';
export const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';

/** Flags of one Paddock run: the client rate limit and worker count it was given. */
export interface PaddockFlags {
  qps: number;
  burst: number;
  workers: number;
  resyncPeriod: string;
}

type Log = (line: string) => void;

/**
 * The benchmark's cluster: a local control plane, Paddock running from dist/ as its ServiceAccount and
 * registered through the APIService, and HTTPS clients for the identities the scenarios use.
 */
export class BenchCluster {
  paddock: PaddockProcess | undefined;
  flags: PaddockFlags | undefined;
  /** kube-apiserver as admin (system:masters). */
  readonly admin: Client;
  /** Paddock's port directly, as admin; replaced on each Paddock start. */
  paddockAdmin: Client | undefined;
  readonly #userCerts = new Map<string, CertFiles>();
  readonly #clients: Client[] = [];
  readonly heapFile: string;
  /** Every GC pause and event-loop stall of each Paddock this cluster started (probe/stall-probe.cjs; tails.ts reads it). */
  readonly stallsFile: string;
  readonly #reviews: PaddockReview[] = [];
  #reviewsRead = 0;

  private constructor(readonly state: ControlPlaneState, readonly paddockKubeconfig: string, readonly log: Log) {
    this.admin = this.client(state.server, state.pki.users.admin, 32);
    this.heapFile = join(state.dir, 'paddock-heap.json');
    this.stallsFile = join(state.dir, 'paddock-stalls.jsonl');
    rmSync(this.stallsFile, { force: true });
  }

  static async up(dir: string, log: Log, opts: Pick<StartOptions, 'controllers' | 'controllerManagerArgs' | 'apiserverArgs' | 'apiserverEnv'> = {}): Promise<BenchCluster> {
    // One audit file for the whole run (kube-apiserver rotates at 100 MB by default; 10k namespaces write more).
    const state = await startControlPlane({
      dir, log, ...opts, apiserverArgs: ['--audit-log-maxsize=100000', '--audit-log-maxbackup=1', ...(opts.apiserverArgs ?? [])],
    });
    try {
      await installCrds(state.kubeconfigs.admin);
      return new BenchCluster(state, installPaddockIdentity(state), log);
    } catch (err) {
      await stopControlPlane(dir);
      throw err;
    }
  }

  /** A keep-alive HTTPS client for `cert`, closed with the cluster. */
  client(base: string, cert: CertFiles, maxSockets = 16): Client {
    const c = new Client(base, this.state.pki.ca.cert, cert, maxSockets);
    this.#clients.push(c);
    return c;
  }

  get paddockUrl(): string {
    if (!this.paddock) throw new Error('Paddock is not running');
    return `https://127.0.0.1:${this.paddock.port}`;
  }

  /** A client certificate for a user of the cluster CA (minted once per name). */
  userCert(user: string): CertFiles {
    const known = this.state.pki.users[user] ?? this.#userCerts.get(user);
    if (known) return known;
    const cert = issueClientCert(this.state.pki, `bench-${user}`, { user, groups: [] });
    this.#userCerts.set(user, cert);
    return cert;
  }

  /**
   * Starts Paddock (mode all, no leader election: one replica) with `flags`, the heap probe preloaded,
   * and points the APIService at it. Resolves once /readyz answers (caches synced) and the APIService is
   * Available.
   */
  /**
   * Starts Paddock; resolves once /readyz answers. `profileFromStart`: with PADDOCK_BENCH_PROFILE_DIR set,
   * its CPU profile starts with the process (a cold start), and the next toggleProfile ends it.
   */
  async startPaddock(flags: PaddockFlags, name = 'paddock', readyTimeoutMs?: number, register = true, profileFromStart = false): Promise<PaddockProcess> {
    if (this.paddock) throw new Error('Paddock is already running');
    this.paddock = await startPaddock(this.state, this.paddockKubeconfig, {
      name,
      extraArgs: ['--leader-elect=false', '--log-level=info', `--qps=${flags.qps}`, `--burst=${flags.burst}`,
        `--workers=${flags.workers}`, `--resync-period=${flags.resyncPeriod}`],
      env: {
        NODE_OPTIONS: `--expose-gc --require=${PROBE} --require=${CPU_PROBE} --require=${STALL_PROBE}`, PADDOCK_BENCH_HEAP_FILE: this.heapFile, PADDOCK_BENCH_STALLS_FILE: this.stallsFile,
        ...(profileFromStart ? { PADDOCK_BENCH_PROFILE_AT_START: '1' } : {}),
      },
      // Listing a 10k-namespace cluster takes seconds alone, minutes on a machine others load too.
      readyTimeoutMs: readyTimeoutMs ?? 10 * 60_000,
    });
    this.flags = flags;
    this.paddockAdmin = this.client(this.paddockUrl, this.state.pki.users.admin, 16);
    if (register) await registerApiService(this.state, this.paddock.port);
    return this.paddock;
  }

  async stopPaddock(): Promise<void> {
    if (!this.paddock) return;
    await stopPaddock(this.paddock);
    this.paddock = undefined;
    this.paddockAdmin?.close();
    this.paddockAdmin = undefined;
  }

  /** Everything down: clients, Paddock, the control plane. Safe to call twice. */
  async down(): Promise<void> {
    for (const c of this.#clients) c.close();
    await this.stopPaddock();
    await stopControlPlane(this.state.dir);
  }

  async paddockMetrics(): Promise<string> {
    const res = await this.paddockAdmin!.get('/metrics', 'text/plain');
    if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
    return res.body.toString('utf8');
  }

  /** Paddock's heap after a full GC (min of a few samples). */
  heap(): Promise<HeapSample> {
    return heapOf(this.paddock!.pid, this.heapFile);
  }

  /**
   * Starts, or stops and writes, a CPU profile of Paddock with its GC pauses and event-loop delay, when
   * PADDOCK_BENCH_PROFILE_DIR names a directory (see probe/cpu-probe.cjs); otherwise does nothing.
   */
  toggleProfile(): void {
    if (process.env.PADDOCK_BENCH_PROFILE_DIR && this.paddock) process.kill(this.paddock.pid, 'SIGWINCH');
  }

  /** Creates Tenants through kube-apiserver (AlreadyExists is fine). */
  async createTenants(tenants: object[], concurrency = 16): Promise<void> {
    await pool(tenants, concurrency, async (t) => {
      const res = await this.admin.postJson<{ message?: string }>(TENANTS, t);
      if (res.status !== 201 && res.status !== 409) throw new Error(`creating a Tenant: ${res.status} ${res.body.message ?? ''}`);
    });
  }

  /** Names of the Tenants, among `names`, that are Ready=True and observed at their generation. */
  async readyTenants(names: ReadonlySet<string>): Promise<number> {
    const list = await this.admin.getJson<{ items: TenantObject[] }>(TENANTS);
    let n = 0;
    for (const t of list.items) {
      if (!names.has(t.metadata.name)) continue;
      const ready = t.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready?.status === 'True' && t.status?.observedGeneration === t.metadata.generation) n++;
    }
    return n;
  }

  /** Polls until every Tenant in `names` is Ready; returns the milliseconds it took. */
  async waitTenantsReady(names: ReadonlySet<string>, timeoutMs: number, progress?: (ready: number) => void): Promise<number> {
    const started = Date.now();
    let lastReport = 0;
    for (;;) {
      const ready = await this.readyTenants(names);
      if (ready === names.size) return Date.now() - started;
      if (Date.now() - started > timeoutMs) throw new Error(`only ${ready}/${names.size} Tenants Ready after ${timeoutMs} ms`);
      if (progress && Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        progress(ready);
      }
      await sleep(names.size > 500 ? 1000 : 250);
    }
  }

  /** Rows in Paddock's view (admin sees all), from a one-item page. */
  async paddockRows(): Promise<number> {
    const page = await this.paddockAdmin!.getJson<{ items: unknown[]; metadata: { remainingItemCount?: number } }>(`${TNS}?limit=1`);
    return page.items.length + (page.metadata.remainingItemCount ?? 0);
  }

  /**
   * Waits until the cluster is settled: Paddock serves `rows` rows, every Paddock ResourceQuota has its
   * status computed by kube-controller-manager, and Paddock's workqueue is empty.
   */
  async waitSettled(rows: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      const served = await this.paddockRows();
      const quotas = await this.admin.getJson<{ items: { status?: { hard?: object } }[] }>('/api/v1/resourcequotas?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dpaddock');
      const computed = quotas.items.filter((q) => q.status?.hard).length;
      const depth = metricSum(await this.paddockMetrics(), 'paddock_workqueue_depth');
      last = `rows ${served}/${rows}, quotas with status ${computed}/${quotas.items.length}, workqueue depth ${depth}`;
      if (served === rows && computed === quotas.items.length && depth === 0) return;
      await sleep(rows > 5000 ? 2000 : 1000);
    }
    throw new Error(`cluster did not settle in ${timeoutMs} ms: ${last}`);
  }

  /**
   * Every review (SubjectAccessReview, TokenReview) Paddock asked of kube-apiserver so far, from the audit
   * log: when kube-apiserver received it and when it answered (epoch ms). A request that waited for one
   * took at least that long (tails.ts). Read on from where the last call stopped.
   */
  paddockReviews(): PaddockReview[] {
    this.#reviewsRead = this.#auditLines(this.#reviewsRead, 'reviews"', (line) => {
      if (!line.includes(PADDOCK_USER)) return;
      const e = JSON.parse(line) as AuditEvent;
      const resource = e.objectRef?.resource ?? '';
      if (e.stage !== 'ResponseComplete' || e.user.username !== PADDOCK_USER || !['subjectaccessreviews', 'tokenreviews'].includes(resource)) return;
      // A renewal of an answer in use: no request waited for it (Paddock's ReviewMemo).
      if (e.userAgent?.endsWith('review-renewal')) return;
      this.#reviews.push({ resource, start: Date.parse(e.requestReceivedTimestamp), end: Date.parse(e.stageTimestamp) });
    });
    return this.#reviews;
  }

  /**
   * Calls `onLine` with each whole line of the audit log from byte `offset` on that holds `needle`, read in
   * slices (at 100k namespaces the log holds more than a string can; only those lines are decoded);
   * returns the offset after the last whole line.
   */
  #auditLines(offset: number, needle: string, onLine: (line: string) => void): number {
    const wanted = Buffer.from(needle);
    const size = statSync(this.state.auditLog).size;
    if (size < offset) throw new Error('the audit log was rotated; it cannot be read on from where it was');
    const fd = openSync(this.state.auditLog, 'r');
    try {
      const slice = Buffer.alloc(Math.min(AUDIT_SLICE_BYTES, size - offset));
      let at = offset;
      let rest = Buffer.alloc(0);
      while (at < size) {
        const n = readSync(fd, slice, 0, Math.min(slice.length, size - at), at);
        if (n === 0) break;
        at += n;
        const bytes = Buffer.concat([rest, slice.subarray(0, n)]);
        const end = bytes.lastIndexOf(0x0a) + 1; // whole lines only: the last may still be being written
        for (let hit = bytes.indexOf(wanted); hit !== -1 && hit < end;) {
          const start = bytes.lastIndexOf(0x0a, hit) + 1;
          const stop = bytes.indexOf(0x0a, hit);
          onLine(bytes.toString('utf8', start, stop));
          hit = bytes.indexOf(wanted, stop + 1);
        }
        rest = Buffer.from(bytes.subarray(end));
      }
      return at - rest.length;
    } finally {
      closeSync(fd);
    }
  }

  /** Current size of the audit log: writes after this offset are the ones to count. */
  auditOffset(): number {
    return statSync(this.state.auditLog).size;
  }

  /**
   * Paddock's writes (create/update/patch/delete) in the audit log after `offset`; with `beforeMs` (epoch
   * ms), only those kube-apiserver received before it.
   */
  paddockWrites(offset: number, beforeMs = Infinity): AuditWrites {
    const byResource: Record<string, number> = {};
    const objects: string[] = [];
    let total = 0;
    let rejected = 0;
    let first = Infinity;
    let last = -Infinity;
    this.#auditLines(offset, PADDOCK_USER, (line) => {
      const e = JSON.parse(line) as AuditEvent;
      if (e.stage !== 'ResponseComplete' || e.user.username !== PADDOCK_USER) return;
      const at = Date.parse(e.requestReceivedTimestamp);
      if (at >= beforeMs) return;
      const resource = e.objectRef?.resource ?? '';
      // Not writes of cluster state: reviews are "create" by verb only; the Lease is leader election.
      if (['subjectaccessreviews', 'tokenreviews', 'selfsubjectaccessreviews', 'leases'].includes(resource)) return;
      const key = `${e.verb} ${resource}${e.objectRef?.subresource ? '/' + e.objectRef.subresource : ''}`;
      byResource[key] = (byResource[key] ?? 0) + 1;
      total++;
      if ((e.responseStatus?.code ?? 0) >= 400) rejected++;
      if (objects.length < 20) {
        const ref = e.objectRef;
        objects.push(`${e.requestReceivedTimestamp} ${key} ${ref?.namespace ? ref.namespace + '/' : ''}${ref?.name ?? ''} → ${e.responseStatus?.code ?? '?'}`);
      }
      first = Math.min(first, at);
      last = Math.max(last, at);
    });
    return { total, rejected, byResource, objects, firstMs: first, lastMs: last };
  }
}

export interface AuditWrites {
  total: number;
  /** Of `total`, those kube-apiserver refused (a response code of 400 or more): no state changed. */
  rejected: number;
  byResource: Record<string, number>;
  /** The first 20 writes: time, verb, resource, namespace/name and response code. */
  objects: string[];
  /** Epoch ms of the first and last counted write (±Infinity when none). */
  firstMs: number;
  lastMs: number;
}

/** A review Paddock asked of kube-apiserver: the resource (`subjectaccessreviews`, `tokenreviews`), received and answered (epoch ms). */
export interface PaddockReview {
  resource: string;
  start: number;
  end: number;
}

interface AuditEvent {
  stage: string;
  stageTimestamp: string;
  userAgent?: string;
  verb: string;
  user: { username: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
}

interface TenantObject {
  metadata: { name: string; generation?: number };
  status?: { observedGeneration?: number; conditions?: { type: string; status: string }[] };
}

/** A Tenant of the benchmark: `nsCount` declared namespaces, each with a quota, limits, isolation and owner RBAC. */
export function benchTenant(name: string, owners: string[], nsCount: number): object {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Tenant',
    metadata: { name },
    spec: {
      owners: owners.map((o) => ({ kind: 'User', name: o })),
      namespaces: Array.from({ length: nsCount }, (_, i) => `n${i}`),
      resourceQuotas: [{ hard: { 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '8', 'limits.memory': '16Gi', pods: '20' } }],
      limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] }],
      networkIsolation: true,
      podSecurity: { enforce: 'baseline' },
    },
  };
}
