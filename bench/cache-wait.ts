/**
 * kube-apiserver's watch-cache waits, read around the slow requests through it.
 *
 * A list with no resourceVersion is a consistent read. kube-apiserver serves it from its watch cache once
 * the cache has caught up with etcd's current revision, and etcd's revision counts the writes to every
 * resource: after a write to anything else (a Lease renewed, an Event), the cache of namespaces is
 * behind until a namespace changes or etcd reports progress. The cache asks etcd for progress while a
 * read waits, at most once every 100 ms (k8s.io/apiserver, storage/cacher/progress), so a list that
 * comes soon after the last such request waits up to 100 ms with every process idle: no thread runs and
 * none waits for a CPU. kube-apiserver records each wait in the histogram
 * `apiserver_watch_cache_read_wait_seconds{group, resource}`.
 *
 * Scraping that histogram around every request would load kube-apiserver with work of its own, so the
 * probe reads it when a sequential phase starts and after each request through kube-apiserver slower
 * than {@link SUSPECT_FACTOR} times its target's median so far: each read covers the requests since the
 * one before. A wait long enough to name a tail (half of the time beyond a 10× median, so 4.5 medians)
 * could only have been one of those requests' if that request had taken over 5.5 medians: it would
 * have been suspect too and closed the window. The one wait left unattributed is another client's
 * consistent list in the same window, which the benchmark's sequential phases do not send.
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

/** The longest wait counted in `after` but not in `before`; undefined when none ended in between. */
export function longestWaitBetween(before: CacheWaits, after: CacheWaits): CacheWait | undefined {
  let longest: CacheWait | undefined;
  for (const [resource, buckets] of after) {
    const earlier = before.get(resource);
    const added = (le: number) => (buckets.get(le) ?? 0) - (earlier?.get(le) ?? 0);
    const bounds = [...buckets.keys()].sort((a, b) => a - b);
    const total = added(Infinity);
    if (total <= 0) continue;
    // The longest wait is in the first bucket whose cumulative count took in every wait added.
    const i = bounds.findIndex((le) => added(le) >= total);
    const atMostMs = bounds[i] * 1000;
    const atLeastMs = i > 0 ? bounds[i - 1] * 1000 : 0;
    if (!longest || atLeastMs > longest.atLeastMs) longest = { resource, atLeastMs, atMostMs };
  }
  return longest;
}

/** Reads kube-apiserver's histogram after each suspiciously slow request through it (this module's comment). */
export class CacheWaitProbe {
  /** Each target's times so far, and the fastest of them. */
  readonly #times = new Map<string, { all: number[]; fastest: number }>();
  #last: CacheWaits | undefined;

  constructor(private readonly read: () => Promise<CacheWaits>) {}

  /** Opens the first window: the requests timed from now on. */
  async start(): Promise<void> {
    this.#last = await this.read();
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

  /** A request of `target` through kube-apiserver that took `ms`: the longest wait of its window when it was suspect. */
  async after(target: string, ms: number): Promise<CacheWait | undefined> {
    const times = this.#times.get(target);
    // The median is at least the fastest time: most requests are cleared without sorting.
    const suspect = !times || (ms > SUSPECT_FACTOR * times.fastest && ms > SUSPECT_FACTOR * median(times.all));
    this.timed(target, ms);
    if (!suspect || !this.#last) return undefined;
    const now = await this.read();
    const wait = longestWaitBetween(this.#last, now);
    this.#last = now;
    return wait;
  }
}
