import { Counter, Gauge } from 'prom-client';
import { registry } from './registry';

/** Per informer, how many objects its store holds now, read when scraped (nothing is counted per event). */
const objectCounts = new Map<string, () => number>();

/** Reports the objects the store of informer `cache` holds, as `size` says when scraped. */
export function countObjects(cache: string, size: () => number): void {
  objectCounts.set(cache, size);
}

/** Every cache metric carries `cache`, the informer's name: `<resource>[.<group>][ (selectors)]`. */
new Gauge({
  name: 'paddock_cache_objects',
  help: 'Objects held by an informer cache.',
  labelNames: ['cache'] as const,
  registers: [registry],
  collect() {
    for (const [cache, size] of objectCounts) this.set({ cache }, size());
  },
});

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

/** Per informer, how many changes its history retains now (see cache/history.ts), read when scraped. */
const historyCounts = new Map<string, () => number>();

/** Reports the changes the history of informer `cache` retains, as `retained` says when scraped. */
export function countHistory(cache: string, retained: () => number): void {
  historyCounts.set(cache, retained);
}

new Gauge({
  name: 'paddock_cache_history_changes',
  help: 'Changes a source history retains for resuming watches: every change of the watch window\'s age, and at least its last few.',
  labelNames: ['cache'] as const,
  registers: [registry],
  collect() {
    for (const [cache, retained] of historyCounts) this.set({ cache }, retained());
  },
});
