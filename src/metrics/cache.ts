import { Counter, Gauge } from 'prom-client';
import { registry } from './registry';

/** Every cache metric carries `cache`, the informer's name: `<resource>[.<group>][ (selectors)]`. */

/**
 * A gauge of one value per informer (`cache`), each read when scraped from the function its informer
 * registered: nothing is counted per event. Returns how an informer registers its reader.
 */
function perCacheGauge(name: string, help: string): (cache: string, read: () => number) => void {
  const readers = new Map<string, () => number>();
  new Gauge({
    name,
    help,
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const [cache, read] of readers) this.set({ cache }, read());
    },
  });
  return (cache, read) => void readers.set(cache, read);
}

/** Reports the objects the store of informer `cache` holds, as `size` says when scraped. */
export const countObjects = perCacheGauge('paddock_cache_objects', 'Objects held by an informer cache.');

export const cacheLists = new Counter({
  name: 'paddock_cache_lists_total',
  help: 'Full lists (initial list and relists) made by a reflector, by reason.',
  labelNames: ['cache', 'reason'] as const,
  registers: [registry],
});

export const cacheWatchRestarts = new Counter({
  name: 'paddock_cache_watch_restarts_total',
  help: 'Watches a reflector (re)started, by the reason the previous one ended.',
  labelNames: ['cache', 'reason'] as const,
  registers: [registry],
});

export const cacheWatchEvents = new Counter({
  name: 'paddock_cache_watch_events_total',
  help: 'Watch events received by a reflector, by type.',
  labelNames: ['cache', 'type'] as const,
  registers: [registry],
});

export const cacheErrors = new Counter({
  name: 'paddock_cache_errors_total',
  help: 'List/watch errors a reflector backed off from, and event handler exceptions.',
  labelNames: ['cache', 'kind'] as const,
  registers: [registry],
});

/** Reports the changes the history of informer `cache` retains (see cache/history.ts), as `retained` says when scraped. */
export const countHistory = perCacheGauge(
  'paddock_cache_history_changes',
  'Changes a source history retains for resuming watches: every change of the watch window\'s age, and at least its last few.',
);
