import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { SERVICE_CIDR, clientKubeconfig, type ControlPlaneState } from './controlplane';
import { issueClientCert } from './pki';
import { BRIDGE, containerdConfig, cniConfig, kubeletConfig, kubeProxyConfig, NODE_IP, NODE_NAME, RUN_DIR } from './node-config';

export { NODE_NAME } from './node-config';
import { freePort, isAlive, killGroup, sleep, startDetached, waitFor } from './processes';

/**
 * One real node beside the local control plane: containerd with runc, a CNI bridge, kubelet, kube-proxy
 * (nftables), kube-router (NetworkPolicy, iptables + ipset) and kube-scheduler. Only one node runs on a
 * machine at a time (the bridge, the node IP and the kubelet port are fixed): the start waits for a
 * machine-wide lock. Everything it changes on the host is recorded so that the teardown can undo it.
 */

const REPO = resolve(__dirname, '..', '..');
const LOCK_FILE = '/run/paddock-node.lock';
const GUARD_TABLE = 'paddock_node_guard';
/** Host sysctls the kubelet rewrites (and the CNI bridge, for ip_forward); put back after start and at teardown. */
const SYSCTLS = ['vm/overcommit_memory', 'kernel/panic', 'kernel/panic_on_oops', 'net/ipv4/ip_forward'];
/** Host paths the node's components write to whatever their configuration; removed at teardown unless they existed. */
const HOST_PATHS = ['/var/lib/kubelet', '/var/log/containers', '/var/log/pods', '/var/lib/cni', '/etc/cni', '/run/netns', '/opt/containerd'];

export interface NodeState {
  dir: string;
  binDir: string;
  logDir: string;
  /** The control plane the node joined, and the admin kubeconfig of it. */
  server: string;
  kubeconfig: string;
  containerdSocket: string;
  pids: Record<string, number>;
  /** What the host had before the node started. */
  before: { nftTables: string[]; ipsets: string[]; sysctls: Record<string, string>; hostPaths: string[] };
  timings: Record<string, number>;
}

/** Why this machine cannot run a node, or undefined when it can (test/controlplane/node-check.sh decides). */
export function nodeSkipReason(): string | undefined {
  if (process.env.PADDOCK_NODE_SKIP_REASON !== undefined) return process.env.PADDOCK_NODE_SKIP_REASON || undefined;
  const res = spawnSync('bash', [join(REPO, 'test', 'controlplane', 'node-check.sh')], { encoding: 'utf8' });
  const reason = res.status === 0 ? undefined : (res.stdout.trim() || res.stderr.trim() || `node-check.sh exited ${res.status}`);
  process.env.PADDOCK_NODE_SKIP_REASON = reason ?? '';
  return reason;
}

/** Builds (or finds in the cache) the node's binaries and images; returns their directory. */
export function ensureNodeBinaries(): string {
  if (process.env.PADDOCK_NODE_BIN) return process.env.PADDOCK_NODE_BIN;
  const out = execFileSync('bash', [join(REPO, 'test', 'controlplane', 'build-node.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  return out.trim().split('\n').pop()!;
}

/** Paddock's image built from the Dockerfile (test/controlplane/build-image.sh); returns the OCI archive. */
export function ensurePaddockImage(): string {
  const out = execFileSync('bash', [join(REPO, 'test', 'controlplane', 'build-image.sh'), join(REPO, '.paddock', 'image', 'paddock.tar')],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  return out.trim().split('\n').pop()!;
}

/**
 * Writes a kustomization in `dir` that installs apiservice/ with the image built by ensurePaddockImage,
 * and changes nothing else; returns `dir`.
 */
export function writeInstallOverlay(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kustomization.yaml'), [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    `- ${relative(dir, join(REPO, 'apiservice'))}`,
    'images:',
    '- name: ghcr.io/paddock-dev/paddock',
    '  newName: localhost/paddock',
    '  newTag: test',
    '',
  ].join('\n'));
  return dir;
}

/** Imports an OCI archive into the node's containerd (namespace k8s.io, where the kubelet looks). */
export function importImage(state: NodeState, archive: string): void {
  run('ctr', ['--address', state.containerdSocket, '--namespace', 'k8s.io', 'images', 'import', archive]);
}

function run(cmd: string, args: string[], input?: string): string {
  return execFileSync(cmd, args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

function tryRun(cmd: string, args: string[]): string | undefined {
  const res = spawnSync(cmd, args, { encoding: 'utf8' });
  return res.status === 0 ? res.stdout : undefined;
}

function nftTables(): string[] {
  return (tryRun('nft', ['list', 'tables']) ?? '').split('\n').map((l) => l.replace(/^table /, '').trim()).filter(Boolean);
}

function ipsets(): string[] {
  return (tryRun('ipset', ['list', '-n']) ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
}

function readSysctl(name: string): string {
  return readFileSync(`/proc/sys/${name}`, 'utf8').trim();
}

function kubectl(cp: ControlPlaneState, args: string[], input?: string): string {
  return run('kubectl', ['--kubeconfig', cp.kubeconfigs.admin, ...args], input);
}

/** Takes the machine-wide node lock (waiting up to `timeoutMs` for another run); returns the pid holding it. */
async function takeLock(logDir: string, timeoutMs: number): Promise<number> {
  const log = join(logDir, 'lock.log');
  const pid = startDetached('flock', ['-w', String(Math.round(timeoutMs / 1000)), LOCK_FILE, 'sh', '-c', 'echo locked; exec sleep 2147483647'], log);
  await waitFor(`the node lock ${LOCK_FILE} (another run holds it)`, async () => {
    if (!isAlive(pid)) throw new Error(`could not take ${LOCK_FILE}; see ${log}`);
    return readFileSync(log, 'utf8').includes('locked');
  }, timeoutMs + 5000, 100);
  return pid;
}

export interface StartNodeOptions {
  dir: string;
  log?: (line: string) => void;
}

/**
 * Starts the node against `cp` and resolves once it is Ready. On failure everything started is undone and
 * the error names the log directory, which is kept (the next start moves it to `logs.previous`).
 */
export async function startNode(cp: ControlPlaneState, opts: StartNodeOptions): Promise<NodeState> {
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const dir = resolve(opts.dir);
  const reason = nodeSkipReason();
  if (reason) throw new Error(`this machine cannot run a node: ${reason}`);
  const binDir = ensureNodeBinaries();
  await stopNode(dir);
  const logDir = join(dir, 'logs');
  if (existsSync(logDir)) {
    rmSync(`${logDir}.previous`, { recursive: true, force: true });
    renameSync(logDir, `${logDir}.previous`);
  }
  for (const entry of existsSync(dir) ? readdirSync(dir) : []) if (entry !== 'logs.previous') rmSync(join(dir, entry), { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const t0 = Date.now();
  const timings: Record<string, number> = {};
  const mark = (step: string) => (timings[step] = Date.now() - t0);
  const pids: Record<string, number> = {};
  const state: NodeState = {
    dir, binDir, logDir, server: cp.server, kubeconfig: cp.kubeconfigs.admin, containerdSocket: `${RUN_DIR}/containerd.sock`, pids,
    before: { nftTables: [], ipsets: [], sysctls: {}, hostPaths: [] }, timings,
  };
  const save = () => writeFileSync(join(dir, 'node.json'), JSON.stringify(state, null, 2));
  pids.lock = await takeLock(logDir, 10 * 60_000);
  mark('lock');
  save();
  try {
    state.before = {
      nftTables: nftTables(),
      ipsets: ipsets(),
      sysctls: Object.fromEntries(SYSCTLS.map((s) => [s, readSysctl(s)])),
      hostPaths: HOST_PATHS.filter((p) => existsSync(p)),
    };
    save();
    const logFile = (name: string) => join(logDir, `${name}.log`);
    const env = { ...process.env, PATH: `${binDir}:${process.env.PATH}` };

    // The bridge exists before the kubelet starts: its InternalIP must be a local address.
    run('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${NODE_IP}/24`, 'dev', BRIDGE]);
    run('ip', ['link', 'set', BRIDGE, 'up']);
    // Pod traffic stays on the bridge: nothing is forwarded from a pod to another interface.
    run('nft', ['-f', '-'], `table inet ${GUARD_TABLE} {\n  chain forward {\n    type filter hook forward priority -10; policy accept;\n` +
      `    iifname "${BRIDGE}" oifname != "${BRIDGE}" drop\n  }\n}\n`);
    mkdirSync(join(dir, 'cni'), { recursive: true });
    writeFileSync(join(dir, 'cni', '10-paddock.conflist'), cniConfig(dir));
    mkdirSync(RUN_DIR, { recursive: true });

    writeFileSync(join(dir, 'containerd.toml'), containerdConfig(dir));
    pids.containerd = startDetached(join(binDir, 'containerd'), ['--config', join(dir, 'containerd.toml')], logFile('containerd'), env);
    save();
    const ctr = (args: string[]) => run('ctr', ['--address', state.containerdSocket, '--namespace', 'k8s.io', ...args]);
    await waitFor(`containerd (log: ${logFile('containerd')})`, async () => {
      if (!isAlive(pids.containerd)) throw new Error('containerd exited');
      return tryRun('ctr', ['--address', state.containerdSocket, 'version']) !== undefined;
    }, 30_000, 100);
    for (const archive of ['pause.tar', 'netcheck.tar']) ctr(['images', 'import', join(binDir, archive)]);
    mark('containerd and images');

    // Pods reach kube-apiserver (bound to 127.0.0.1) at the address it advertises, through this relay.
    const apiPort = new URL(cp.server).port;
    pids['api-relay'] = startDetached('socat', [`TCP-LISTEN:${apiPort},bind=${NODE_IP},reuseaddr,fork`, `TCP:127.0.0.1:${apiPort}`], logFile('api-relay'));

    // There is no Node authorizer (RBAC only): the node's group gets the node role, and the kubelet may
    // review tokens and access (its webhook authentication and authorization).
    kubectl(cp, ['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'v1', kind: 'List', items: [
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'paddock-test:nodes' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:nodes' }] },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'paddock-test:kubelet-auth-delegator' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: `system:node:${NODE_NAME}` }] },
      ],
    }));
    const kubeconfigFor = (name: string, user: string, groups: string[]) => {
      const cert = issueClientCert(cp.pki, `node-${name}`, { user, groups });
      const path = join(dir, `kubeconfig-${name}`);
      writeFileSync(path, clientKubeconfig(cp.server, cp.pki.ca.cert, user, cert), { mode: 0o600 });
      return path;
    };
    const kubeletKubeconfig = kubeconfigFor('kubelet', `system:node:${NODE_NAME}`, ['system:nodes']);
    const proxyKubeconfig = kubeconfigFor('kube-proxy', 'system:kube-proxy', []);
    const schedulerKubeconfig = kubeconfigFor('kube-scheduler', 'system:kube-scheduler', []);

    writeFileSync(join(dir, 'kubelet.json'), kubeletConfig(dir, cp, await freePort()));
    const kubeletStarted = Date.now();
    pids.kubelet = startDetached(join(binDir, 'kubelet'), [
      `--config=${join(dir, 'kubelet.json')}`, `--kubeconfig=${kubeletKubeconfig}`,
      `--root-dir=${join(dir, 'kubelet')}`, `--cert-dir=${join(dir, 'kubelet-pki')}`,
      `--hostname-override=${NODE_NAME}`, `--node-ip=${NODE_IP}`, '--v=1',
    ], logFile('kubelet'), env);
    writeFileSync(join(dir, 'kube-proxy.json'), kubeProxyConfig(proxyKubeconfig, await freePort(), await freePort()));
    pids['kube-proxy'] = startDetached(join(binDir, 'kube-proxy'), [`--config=${join(dir, 'kube-proxy.json')}`, '--v=1'], logFile('kube-proxy'), env);
    const schedulerPort = await freePort();
    pids['kube-scheduler'] = startDetached(join(binDir, 'kube-scheduler'), [
      `--kubeconfig=${schedulerKubeconfig}`, `--authentication-kubeconfig=${schedulerKubeconfig}`,
      `--authorization-kubeconfig=${schedulerKubeconfig}`, '--bind-address=127.0.0.1', `--secure-port=${schedulerPort}`,
      '--leader-elect=false',
    ], logFile('kube-scheduler'), env);
    save();

    await waitFor(`node ${NODE_NAME} Ready (logs: ${logDir})`, async () => {
      for (const [name, pid] of Object.entries(pids)) if (!isAlive(pid)) throw new Error(`${name} exited; see ${logFile(name)}`);
      // Ready, as posted by this kubelet (a Node object left by an earlier start may still say Ready).
      const out = tryRun('kubectl', ['--kubeconfig', cp.kubeconfigs.admin, 'get', 'node', NODE_NAME, '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].lastHeartbeatTime} {.spec.podCIDR}']);
      const [ready, heartbeat, podCidr] = out?.trim().split(' ') ?? [];
      return ready === 'True' && new Date(heartbeat).getTime() >= Math.ceil(kubeletStarted / 1000) * 1000 && !!podCidr;
    }, 60_000, 200);
    mark('node Ready');
    // kube-router finds its node by name: it starts once the node is registered.
    pids['kube-router'] = startDetached(join(binDir, 'kube-router'), [
      `--kubeconfig=${cp.kubeconfigs.admin}`, `--hostname-override=${NODE_NAME}`,
      '--run-firewall=true', '--run-router=false', '--run-service-proxy=false', '--enable-cni=false',
      `--service-cluster-ip-range=${SERVICE_CIDR}`, `--health-port=${await freePort()}`, '--iptables-sync-period=1m', '--v=1',
    ], logFile('kube-router'), env);
    save();
    await waitFor(`kube-router's first NetworkPolicy sync (log: ${logFile('kube-router')})`, async () => {
      if (!isAlive(pids['kube-router'])) throw new Error(`kube-router exited; see ${logFile('kube-router')}`);
      return /Saving IP table rules took|sync(ing)? iptables took|fullPolicySync/i.test(readFileSync(logFile('kube-router'), 'utf8'));
    }, 30_000, 200);
    mark('kube-router synced');
    restoreSysctls(state);
    save();
    log(`node ${NODE_NAME} Ready in ${timings['node Ready']} ms (${JSON.stringify(timings)}; logs: ${logDir})`);
    return state;
  } catch (err) {
    await stopNode(dir).catch(() => undefined);
    throw new Error(`the node failed to start: ${(err as Error).message}; logs are kept in ${logDir}`);
  }
}

function restoreSysctls(state: NodeState): void {
  for (const [name, value] of Object.entries(state.before.sysctls)) {
    try {
      if (readSysctl(name) !== value) writeFileSync(`/proc/sys/${name}`, value);
    } catch {
      /* best effort */
    }
  }
}

export function readNodeState(dir: string): NodeState | undefined {
  const file = join(resolve(dir), 'node.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as NodeState) : undefined;
}

/** Pids of processes whose executable is `exe`. */
function pidsOf(exe: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/exe`) === exe) out.push(Number(entry));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

function mountsUnder(prefixes: string[]): string[] {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').filter(Boolean)
    .map((l) => l.split(' ')[4].replace(/\\040/g, ' '));
  return mounts.filter((m) => prefixes.some((p) => m === p || m.startsWith(p + '/')));
}

function removeCgroupTree(path: string): void {
  if (!existsSync(path)) return;
  for (const entry of readdirSync(path, { withFileTypes: true })) if (entry.isDirectory()) removeCgroupTree(join(path, entry.name));
  try {
    rmdirSync(path);
  } catch {
    /* still has processes: reported by nodeLeftovers */
  }
}

/**
 * Stops the node in `dir` and undoes what it did to the host: processes, containers and their shims,
 * mounts, the bridge and its veths, network namespaces, nftables tables and ipsets that were not there
 * before, kube-proxy's and kube-router's rules, cgroups, sysctls and host paths. Logs stay.
 */
export async function stopNode(dir: string): Promise<string[]> {
  const state = readNodeState(dir);
  if (!state) return [];
  const { pids, binDir } = state;
  await Promise.all(['kube-scheduler', 'kubelet', 'kube-proxy', 'kube-router', 'api-relay'].filter((n) => pids[n]).map((n) => killGroup(pids[n], 3000)));
  // Pods: kill every container runc knows under our root, then the shims, then containerd.
  const runcRoot = `${RUN_DIR}/runc/k8s.io`;
  if (existsSync(runcRoot)) {
    for (const id of (tryRun('runc', ['--root', runcRoot, 'list', '-q']) ?? '').split('\n').filter(Boolean)) {
      tryRun('runc', ['--root', runcRoot, 'kill', '-a', id, 'KILL']);
    }
    await sleep(200);
    for (const id of (tryRun('runc', ['--root', runcRoot, 'list', '-q']) ?? '').split('\n').filter(Boolean)) {
      tryRun('runc', ['--root', runcRoot, 'delete', '-f', id]);
    }
  }
  for (const pid of pidsOf(join(binDir, 'containerd-shim-runc-v2'))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  if (pids.containerd) await killGroup(pids.containerd);
  const env = { ...process.env, PATH: `${binDir}:${process.env.PATH}` };
  spawnSync(join(binDir, 'kube-proxy'), ['--cleanup'], { env, stdio: 'ignore' });
  spawnSync(join(binDir, 'kube-router'), ['--cleanup-config'], { env, stdio: 'ignore' });

  // Mounts: the kubelet's bind mount of its root, volumes, rootfs, shm, network namespaces.
  const newPaths = HOST_PATHS.filter((p) => !state.before.hostPaths.includes(p));
  const netnsMounts = mountsUnder(['/run/netns', '/var/run/netns']).filter((m) => /\/cni-[0-9a-f-]+$/.test(m));
  for (const m of [...netnsMounts, ...mountsUnder([dir, RUN_DIR, ...newPaths])].sort((a, b) => b.length - a.length)) {
    if (spawnSync('umount', [m]).status !== 0) spawnSync('umount', ['-l', m]);
  }
  for (const m of netnsMounts) rmSync(m, { force: true });

  for (const link of JSON.parse(tryRun('ip', ['-j', 'link', 'show', 'master', BRIDGE]) ?? '[]') as { ifname: string }[]) {
    tryRun('ip', ['link', 'del', link.ifname]);
  }
  tryRun('ip', ['link', 'del', BRIDGE]);
  for (const table of nftTables()) if (!state.before.nftTables.includes(table)) tryRun('nft', ['delete', 'table', ...table.split(' ')]);
  for (const set of ipsets()) if (!state.before.ipsets.includes(set)) tryRun('ipset', ['destroy', set]);
  for (const hierarchy of existsSync('/sys/fs/cgroup') ? readdirSync('/sys/fs/cgroup') : []) {
    removeCgroupTree(join('/sys/fs/cgroup', hierarchy, 'kubepods'));
    removeCgroupTree(join('/sys/fs/cgroup', hierarchy, 'kubepods.slice'));
  }
  removeCgroupTree('/sys/fs/cgroup/kubepods');
  restoreSysctls(state);
  for (const p of newPaths) rmSync(p, { recursive: true, force: true });
  rmSync(RUN_DIR, { recursive: true, force: true });
  for (const entry of readdirSync(dir)) if (!entry.startsWith('logs')) rmSync(join(dir, entry), { recursive: true, force: true });
  if (pids.lock) await killGroup(pids.lock, 1000);
  return nodeLeftovers(state);
}

/** What a stopped node left on the host (empty when the teardown was complete). */
export function nodeLeftovers(state: NodeState): string[] {
  const left: string[] = [];
  for (const bin of ['containerd', 'containerd-shim-runc-v2', 'kubelet', 'kube-proxy', 'kube-router', 'kube-scheduler']) {
    for (const pid of pidsOf(join(state.binDir, bin))) left.push(`process ${bin} (pid ${pid})`);
  }
  for (const m of mountsUnder([state.dir, RUN_DIR])) left.push(`mount ${m}`);
  for (const m of mountsUnder(['/run/netns', '/var/run/netns'])) if (/\/cni-[0-9a-f-]+$/.test(m)) left.push(`network namespace ${m}`);
  for (const h of existsSync('/sys/fs/cgroup') ? readdirSync('/sys/fs/cgroup') : []) {
    if (existsSync(join('/sys/fs/cgroup', h, 'kubepods'))) left.push(`cgroup ${join('/sys/fs/cgroup', h, 'kubepods')}`);
  }
  if (tryRun('ip', ['link', 'show', BRIDGE]) !== undefined) left.push(`link ${BRIDGE}`);
  for (const l of JSON.parse(tryRun('ip', ['-j', 'link', 'show', 'type', 'veth']) ?? '[]') as { ifname: string }[]) left.push(`veth ${l.ifname}`);
  for (const t of nftTables()) if (!state.before.nftTables.includes(t)) left.push(`nftables table ${t}`);
  for (const s of ipsets()) if (!state.before.ipsets.includes(s)) left.push(`ipset ${s}`);
  for (const save of ['iptables-legacy-save', 'ip6tables-legacy-save']) {
    for (const rule of (tryRun(save, []) ?? '').split('\n').filter((l) => l.startsWith('-A '))) left.push(`${save}: ${rule}`);
  }
  return left;
}
