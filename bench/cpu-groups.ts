import { mkdirSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * CPU groups for the run's processes, as a node gives each pod one: etcd, kube-apiserver,
 * kube-controller-manager, each Paddock, capsule-proxy, each floor server and the benchmark client each
 * get a group of the cgroup v1 `cpu` controller, all of equal weight.
 *
 * Why: in one group, the kernel shares the CPUs thread by thread. A single-threaded Node.js event loop
 * then waits behind every runnable thread of kube-apiserver's (its collector near its memory limit runs
 * on several) — a wait no pod has on a node, where each pod's threads share its group's weight. With a
 * group each, a process that wants a CPU gets its share of the machine however many threads the others
 * run. The groups set weights, never limits (no quota): an idle group's share goes to the others, so a
 * process alone on the machine runs as fast as without them. Baselines and Paddock are placed alike.
 *
 * Off with PADDOCK_BENCH_CPU_GROUPS=off, and where the controller is missing or not writable: the run then
 * reports why, and every process shares the root group as before.
 */
export type CpuGroupsReport =
  | { placed: true; controller: string; sharesEach: number; groups: string[] }
  | { placed: false; why: string };

const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';
/** The kernel's default weight (cpu.shares); every group gets it. */
const SHARES = 1024;

export class CpuGroups {
  readonly #groups = new Set<string>();

  private constructor(readonly root: string, readonly parent: string) {}

  /** The run's groups, under one parent; or why there are none. Empty groups a stopped run left behind are removed. */
  static open(root = CPU_CONTROLLER, env: NodeJS.ProcessEnv = process.env, parentName = 'paddock-bench'): CpuGroups | { why: string } {
    if (env.PADDOCK_BENCH_CPU_GROUPS === 'off') return { why: 'PADDOCK_BENCH_CPU_GROUPS=off' };
    const parent = join(root, parentName);
    try {
      mkdirSync(parent, { recursive: true });
    } catch (err) {
      return { why: `no writable cgroup v1 cpu controller at ${root} (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
    }
    for (const left of readdirSync(parent, { withFileTypes: true })) {
      if (left.isDirectory()) removeIfEmpty(join(parent, left.name));
    }
    return new CpuGroups(root, parent);
  }

  /**
   * Moves process `pid` — every thread it has, and those it starts later — into the group `name`
   * (made on first use). Processes of one name share a group: a Paddock restarted is the same pod.
   */
  place(name: string, pid: number): void {
    const dir = join(this.parent, name);
    if (!this.#groups.has(name)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.shares'), String(SHARES));
      this.#groups.add(name);
    }
    // cgroup v1: writing a pid to cgroup.procs moves its whole thread group.
    writeFileSync(join(dir, 'cgroup.procs'), String(pid));
  }

  /** A started process's group: its log file's name (`kube-apiserver.log` → `kube-apiserver`). */
  placeStarted(pid: number, logFile: string): void {
    this.place(basename(logFile).replace(/\.log$/, ''), pid);
  }

  report(): CpuGroupsReport {
    return { placed: true, controller: 'cgroup v1 cpu', sharesEach: SHARES, groups: [...this.#groups].sort() };
  }

  /** Moves this process back to the root group and removes every group left empty (those of stopped processes). */
  close(): void {
    try {
      writeFileSync(join(this.root, 'cgroup.procs'), String(process.pid));
    } catch {
      /* the root group takes any pid; a failure leaves this process's group in place, nothing worse */
    }
    for (const name of this.#groups) removeIfEmpty(join(this.parent, name));
    removeIfEmpty(this.parent);
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    /* a process still runs in it (EBUSY), or it is gone */
  }
}

/** How the report says it. */
export function cpuGroupsLine(r: CpuGroupsReport | undefined): string {
  if (!r) return 'none (runs before the benchmark placed processes in groups)';
  if (!r.placed) return `none (${r.why})`;
  return `one per process (${r.controller}, cpu.shares ${r.sharesEach} each, weights without limits): ${r.groups.join(', ')}`;
}
