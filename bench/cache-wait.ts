/**
 * kube-apiserver's watch-cache waits, read around the slow requests that read a watch cache.
 *
 * A list with no resourceVersion is a consistent read. kube-apiserver serves it from its watch cache once
 * the cache has caught up with etcd's current revision, and etcd's revision counts the writes to every
 * resource: after a write to anything else (a Lease renewed, an Event), the cache of namespaces is
 * behind until a namespace changes or etcd reports progress. The cache asks etcd for progress while a
 * read waits, at most once every 100 ms (k8s.io/apiserver, storage/cacher/progress), so a list that
 * comes soon after the last such request typically waits up to 100 ms with every process idle: no
 * thread runs and none waits for a CPU. kube-apiserver records each wait in the histogram
 * `apiserver_watch_cache_read_wait_seconds{group, resource}`.
 *
 * Scraping that histogram around every request would load kube-apiserver with work of its own, so the
 * probe reads it when a sequential phase starts and after each request of a target that reads a watch
 * cache (a consistent list through kube-apiserver, directly or through a proxy) slower than
 * {@link SUSPECT_FACTOR} times its target's median so far: each read covers the requests since the one
 * before. The longest wait of the target's resource added in that window is given to the request that
 * closed it only when no other request of the window that read a watch cache lasted as long as the
 * wait's lower bound (a request cannot hold a wait longer than itself), and the request itself did. What
 * remains unattributed is another client's consistent list of the same resource in the window (a
 * watch-list informer's first list after a restart; the controllers' informers list at resourceVersion
 * 0, which does not wait).
 */
import { median } from './stats';

/** A request slower than this many times its target's median so far is followed by a read of the histogram. */
export const SUSPECT_FACTOR = 4;

const METRIC = 'apiserver_watch_cache_read_wait_seconds_bucket';

/** One histogram read: by resource ("<resource>" or "<resource>.<group>"), the cumulative count at each bucket's upper bound (s, Infinity for +Inf). */
export type CacheWaits = Map<string, Map<number, number>>;

/** The longest watch-cache wait that ended between two reads: its resource and the bucket it fell in (ms). */
export interface CacheWait {
  resource: string;
  atLeastMs: number;
  atMostMs: number;
}

/** The read-wait histogram of a Prometheus text exposition (kube-apiserver's /metrics). */
export function parseCacheWaits(text: string): CacheWaits {
  const out: CacheWaits = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(METRIC + '{')) continue;
    const close = line.lastIndexOf('}');
    const labels = new Map([...line.slice(METRIC.length + 1, close).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const le = labels.get('le');
    const count = Number(line.slice(close + 1).trim());
    if (le === undefined || !Number.isFinite(count)) continue;
    const group = labels.get('group') ?? '';
    const resource = `${labels.get('resource') ?? ''}${group ? `.${group}` : ''}`;
    let buckets = out.get(resource);
    if (!buckets) out.set(resource, (buckets = new Map()));
    buckets.set(le === '+Inf' ? Infinity : Number(le), count);
  }
  return out;
}

/**
 * The longest wait of `resource` counted in `after` but not in `before`; undefined when none ended in
 * between. A count lower in `after` (kube-apiserver restarted) counts `after` alone.
 */
export function longestWaitBetween(before: CacheWaits, after: CacheWaits, resource: string): CacheWait | undefined {
  const buckets = after.get(resource);
  if (!buckets) return undefined;
  const earlier = before.get(resource);
  const restarted = earlier !== undefined && [...buckets].some(([le, n]) => n < (earlier.get(le) ?? 0));
  const added = (le: number) => (buckets.get(le) ?? 0) - (restarted ? 0 : (earlier?.get(le) ?? 0));
  const total = added(Infinity);
  if (total <= 0) return undefined;
  // The longest wait is in the first bucket whose cumulative count took in every wait added.
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const i = bounds.findIndex((le) => added(le) >= total);
  return { resource, atLeastMs: i > 0 ? bounds[i - 1] * 1000 : 0, atMostMs: bounds[i] * 1000 };
}

/** A request as the probe sees it: its target, and the resource of kube-apiserver's watch cache it reads, if any. */
export interface CacheReader {
  name: string;
  watchCache?: string;
}

/** Reads kube-apiserver's histogram after each suspiciously slow request that reads a watch cache (this module's comment). */
export class CacheWaitProbe {
  /** Each target's times so far, and the fastest of them. */
  readonly #times = new Map<string, { all: number[]; fastest: number }>();
  #last: CacheWaits | undefined;
  /** The longest request since the last read that read a watch cache (ms). */
  #longestInWindow = 0;

  constructor(private readonly read: () => Promise<CacheWaits>) {}

  /** Opens the first window: the requests timed from now on. */
  async start(): Promise<void> {
    this.#last = await this.read();
    this.#longestInWindow = 0;
  }

  /** A request of `target` outside the windows (a warm-up): only its time, for the target's median. */
  timed(target: string, ms: number): void {
    const times = this.#times.get(target);
    if (!times) this.#times.set(target, { all: [ms], fastest: ms });
    else {
      times.all.push(ms);
      times.fastest = Math.min(times.fastest, ms);
    }
  }

  /** A request that took `ms`: when it reads a watch cache and was suspect, the wait of its window that is its own. */
  async after(request: CacheReader, ms: number): Promise<CacheWait | undefined> {
    if (!request.watchCache) return undefined;
    const times = this.#times.get(request.name);
    // The median is at least the fastest time: most requests are cleared without sorting.
    const suspect = !times || (ms > SUSPECT_FACTOR * times.fastest && ms > SUSPECT_FACTOR * median(times.all));
    this.timed(request.name, ms);
    if (!this.#last) return undefined;
    if (!suspect) {
      this.#longestInWindow = Math.max(this.#longestInWindow, ms);
      return undefined;
    }
    const now = await this.read();
    const wait = longestWaitBetween(this.#last, now, request.watchCache);
    const others = this.#longestInWindow;
    this.#last = now;
    this.#longestInWindow = 0;
    return wait && wait.atLeastMs >= others && wait.atLeastMs <= ms ? wait : undefined;
  }
}
