import { CacheWaitProbe, longestWaitBetween, parseCacheWaits, SUSPECT_FACTOR, type CacheWaits } from './cache-wait';

/** kube-apiserver's exposition of the histogram, with `counts` cumulative at 5, 25, 50, 100 ms and +Inf. */
function exposition(resources: Record<string, number[]>): string {
  const bounds = ['0.005', '0.025', '0.05', '0.1', '+Inf'];
  const lines = ['# HELP apiserver_watch_cache_read_wait_seconds [ALPHA] Histogram of time spent waiting for a watch cache to become fresh.',
    '# TYPE apiserver_watch_cache_read_wait_seconds histogram'];
  for (const [key, counts] of Object.entries(resources)) {
    const [resource, group = ''] = key.split(/\.(.*)/s);
    bounds.forEach((le, i) => lines.push(`apiserver_watch_cache_read_wait_seconds_bucket{group="${group}",resource="${resource}",le="${le}"} ${counts[i]}`));
    lines.push(`apiserver_watch_cache_read_wait_seconds_sum{group="${group}",resource="${resource}"} 0.5`);
    lines.push(`apiserver_watch_cache_read_wait_seconds_count{group="${group}",resource="${resource}"} ${counts[4]}`);
  }
  lines.push('apiserver_watch_cache_events_received_total{group="",resource="namespaces"} 12');
  return lines.join('\n') + '\n';
}

describe('the watch-cache read-wait histogram', () => {
  it('is read by resource, its bounds in seconds, other metrics ignored', () => {
    const w = parseCacheWaits(exposition({ namespaces: [3, 3, 4, 4, 4], 'deviceclasses.resource.k8s.io': [1, 1, 1, 1, 1] }));
    expect([...w.keys()]).toEqual(['namespaces', 'deviceclasses.resource.k8s.io']);
    expect([...w.get('namespaces')!]).toEqual([[0.005, 3], [0.025, 3], [0.05, 4], [0.1, 4], [Infinity, 4]]);
  });

  it('gives the bucket of the longest wait of a resource added between two reads', () => {
    const before = parseCacheWaits(exposition({ namespaces: [10, 10, 10, 10, 10] }));
    // Two fast waits and one of 50–100 ms since; a longer one of another resource.
    const after = parseCacheWaits(exposition({ namespaces: [12, 12, 12, 13, 13], 'tenants.paddock.dev': [0, 0, 0, 0, 1] }));
    expect(longestWaitBetween(before, after, 'namespaces')).toEqual({ resource: 'namespaces', atLeastMs: 50, atMostMs: 100 });
    expect(longestWaitBetween(before, after, 'tenants.paddock.dev')).toEqual({ resource: 'tenants.paddock.dev', atLeastMs: 100, atMostMs: Infinity });
    expect(longestWaitBetween(before, after, 'configmaps')).toBeUndefined();
  });

  it('gives no wait when none was added, counts a wait under the first bound from 0, and counts the second read alone after a restart', () => {
    const before = parseCacheWaits(exposition({ namespaces: [10, 10, 11, 11, 11] }));
    expect(longestWaitBetween(before, before, 'namespaces')).toBeUndefined();
    expect(longestWaitBetween(new Map(), parseCacheWaits(exposition({ namespaces: [1, 1, 1, 1, 1] })), 'namespaces')).toEqual({ resource: 'namespaces', atLeastMs: 0, atMostMs: 5 });
    // kube-apiserver restarted: its counts began again, and one wait of 25–50 ms is all it has.
    const restarted = parseCacheWaits(exposition({ namespaces: [0, 0, 1, 1, 1] }));
    expect(longestWaitBetween(before, restarted, 'namespaces')).toEqual({ resource: 'namespaces', atLeastMs: 25, atMostMs: 50 });
  });
});

describe('the cache-wait probe', () => {
  /** A probe over a histogram of namespaces whose waits `add` puts in (bucket: an index into 5, 25, 50, 100 ms, +Inf). */
  function probe(): { probe: CacheWaitProbe; reads: () => number; add: (bucket: number) => void } {
    const counts = [0, 0, 0, 0, 0];
    let reads = 0;
    const read = async (): Promise<CacheWaits> => {
      reads++;
      return parseCacheWaits(exposition({ namespaces: [...counts] }));
    };
    const add = (bucket: number) => counts.forEach((_, i) => (counts[i] += i >= bucket ? 1 : 0));
    return { probe: new CacheWaitProbe(read), reads: () => reads, add };
  }
  const list = { name: 'list', watchCache: 'namespaces' };

  it('reads only after a request slower than its factor × the target\'s median so far, and gives that window\'s longest wait', async () => {
    const p = probe();
    for (const ms of [2, 3, 2, 2, 3]) p.probe.timed('list', ms);
    await p.probe.start();
    expect(p.reads()).toBe(1);
    p.add(0); // a fast wait, in a fast request's window
    expect(await p.probe.after(list, 2)).toBeUndefined();
    expect(await p.probe.after(list, SUSPECT_FACTOR * 2)).toBeUndefined();
    expect(p.reads()).toBe(1);
    p.add(3); // a wait of 50–100 ms, in the slow request's
    expect(await p.probe.after(list, 80)).toEqual({ resource: 'namespaces', atLeastMs: 50, atMostMs: 100 });
    expect(p.reads()).toBe(2);
    // The next slow request's window starts after that read: no wait of its own.
    expect(await p.probe.after(list, 70)).toBeUndefined();
    expect(p.reads()).toBe(3);
  });

  it('gives a wait to no request that could not hold it: shorter than its lower bound, or beside a request of the window as long', async () => {
    const p = probe();
    for (const ms of [2, 3, 2]) p.probe.timed('list', ms);
    for (const ms of [60, 70, 65]) p.probe.timed('admin', ms);
    await p.probe.start();
    // A 50–100 ms wait in an admin list, not suspect beside its own median; then an owner list slow for another reason.
    p.add(3);
    expect(await p.probe.after({ name: 'admin', watchCache: 'namespaces' }, 120)).toBeUndefined();
    expect(await p.probe.after(list, 40)).toBeUndefined();
    expect(p.reads()).toBe(2);
    // A wait of 100 ms or more cannot be a request's of 40 ms.
    p.add(4);
    expect(await p.probe.after(list, 40)).toBeUndefined();
  });

  it('reads nothing for a request that reads no watch cache, nor before it starts', async () => {
    const before = probe();
    expect(await before.probe.after(list, 100)).toBeUndefined();
    expect(before.reads()).toBe(0);
    const p = probe();
    for (const ms of [2, 3, 2]) p.probe.timed('list', ms);
    await p.probe.start();
    p.add(3);
    expect(await p.probe.after({ name: 'Paddock via kube-apiserver' }, 100)).toBeUndefined();
    expect(p.reads()).toBe(1);
    // The wait is still in the window of the next request that reads the cache.
    expect(await p.probe.after(list, 90)).toEqual({ resource: 'namespaces', atLeastMs: 50, atMostMs: 100 });
  });
});
