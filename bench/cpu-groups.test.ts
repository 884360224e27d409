import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CpuGroups, cpuGroupsLine } from './cpu-groups';

const CONTROLLER = '/sys/fs/cgroup/cpu';

/** The cpu group of `pid` as /proc says it: `/paddock-bench-test-…/name`. */
function cpuGroupOf(pid: number): string | undefined {
  const line = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n').find((l) => l.split(':')[1]?.split(',').includes('cpu'));
  return line?.split(':')[2];
}

describe('CpuGroups', () => {
  it('is off when asked, and says why', () => {
    expect(CpuGroups.open(CONTROLLER, { PADDOCK_BENCH_CPU_GROUPS: 'off' })).toEqual({ why: 'PADDOCK_BENCH_CPU_GROUPS=off' });
  });

  it('says why when the controller cannot be written', () => {
    // A root under a file cannot hold a group.
    const opened = CpuGroups.open(join('/proc/self/status', 'cpu'), {});
    expect(opened).toEqual({ why: expect.stringContaining('no writable cgroup v1 cpu controller at /proc/self/status/cpu') });
  });

  it('names a group by its log file and reports each group once', () => {
    const root = mkdtempSync(join(tmpdir(), 'cpu-groups-'));
    const groups = CpuGroups.open(root, {}, 'run');
    if (!(groups instanceof CpuGroups)) throw new Error(groups.why);
    groups.placeStarted(11, '/x/logs/kube-apiserver.log');
    groups.placeStarted(12, '/x/logs/paddock.log');
    groups.placeStarted(13, '/x/logs/paddock.log');
    expect(readFileSync(join(root, 'run', 'kube-apiserver', 'cgroup.procs'), 'utf8')).toBe('11');
    expect(readFileSync(join(root, 'run', 'paddock', 'cpu.shares'), 'utf8')).toBe('1024');
    expect(groups.report()).toEqual({ placed: true, controller: 'cgroup v1 cpu', sharesEach: 1024, groups: ['kube-apiserver', 'paddock'] });
    expect(cpuGroupsLine(groups.report())).toContain('kube-apiserver, paddock');
    expect(cpuGroupsLine({ placed: false, why: 'because' })).toBe('none (because)');
  });

  it('removes empty groups a stopped run left behind', () => {
    const root = mkdtempSync(join(tmpdir(), 'cpu-groups-'));
    mkdirSync(join(root, 'run', 'left-behind'), { recursive: true });
    expect(CpuGroups.open(root, {}, 'run')).toBeInstanceOf(CpuGroups);
    expect(existsSync(join(root, 'run', 'left-behind'))).toBe(false);
  });

  // On the machine the benchmark runs on: the kernel moves a process (every thread) and removes the group.
  it('moves a real process into its group, and cleans up once it is gone', async () => {
    const parent = `paddock-bench-test-${process.pid}`;
    const groups = CpuGroups.open(CONTROLLER, {}, parent);
    if (!(groups instanceof CpuGroups)) {
      // Only where the machine has no writable controller: then the benchmark reports none, and so does this.
      expect(groups.why).toContain(CONTROLLER);
      return;
    }
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      groups.place('sleeper', child.pid!);
      expect(cpuGroupOf(child.pid!)).toBe(`/${parent}/sleeper`);
      expect(readFileSync(join(CONTROLLER, parent, 'sleeper', 'cpu.shares'), 'utf8').trim()).toBe('1024');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    groups.close();
    expect(existsSync(join(CONTROLLER, parent))).toBe(false);
    expect(cpuGroupOf(process.pid)).toBe('/');
  });
});
