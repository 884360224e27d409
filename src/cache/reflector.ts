import { isGone, isNotFound, KubeApiError } from '../kube/errors';
import { jsonLogger, type Logger } from '../kube/log';
import type { KubeObject, Status, WatchEvent } from '../kube/types';
import { cacheErrors, cacheLists, cacheWatchEvents, cacheWatchRestarts } from '../metrics/cache';
import { Backoff, type BackoffOptions, sleep } from './backoff';
import type { ListerWatcher } from './list-watch';

/** Where a reflector delivers what it learns; implemented by the informer. */
export interface ReflectorSink<T extends KubeObject> {
  /** A full list: the store must now hold exactly `items`, as of `resourceVersion`. */
  replace(items: T[], resourceVersion: string): void;
  /** One ADDED, MODIFIED or DELETED event. */
  apply(event: WatchEvent<T>): void;
  /** The stream has progressed to `resourceVersion` (a bookmark). */
  progress(resourceVersion: string): void;
}

export interface ReflectorOptions {
  /** Name for logs and the `cache` metric label. */
  name?: string;
  /** Page size of lists; client-go's pager default 500. 0 = unpaginated. */
  pageSize?: number;
  /** Watches ask the server to end them after a random time in [min, 2·min]; client-go: 5 min. */
  minWatchTimeoutMs?: number;
  /**
   * Watchdog: a watch silent for this long is presumed stalled and restarted from the last resourceVersion.
   * kube-apiserver sends a bookmark about every minute to watchers that allow them. Default 150 s.
   */
  watchIdleTimeoutMs?: number;
  backoff?: BackoffOptions;
  logger?: Logger;
  /**
   * The resource may not be served at all (a kind from a CRD the cluster may lack, such as Gateway
   * API's): a 404 on the list counts as an empty, synced collection, and the list is tried again every
   * `absentRecheckMs` until it is served. Without it, a 404 is a failure retried with backoff, and the
   * collection never syncs.
   */
  mayBeAbsent?: boolean;
  /** How often a resource found absent is listed again. Default 10 s. */
  absentRecheckMs?: number;
}

/** The list answered 404: the resource is not served (only with `mayBeAbsent`). */
class ResourceAbsent extends Error {}

/** Ends the current watch so the loop re-watches; carries why, for the restart metric. */
class WatchEnded extends Error {
  constructor(readonly reason: string) { super(reason); }
}

/** A watch shorter than this that delivered nothing counts as a failure (and backs off). */
const SHORT_WATCH_MS = 1000;

/**
 * Keeps a sink in step with one collection, client-go style: a paginated list (falling back to one full
 * list when a continue token expires), then a watch from the list's resourceVersion with bookmarks;
 * every watch end re-watches from the last seen resourceVersion, so a broken connection loses no events.
 * A 410 (HTTP status or ERROR event) relists; other failures back off with jitter and retry, forever, until
 * the signal aborts. A watchdog restarts watches that go silent.
 */
export class Reflector<T extends KubeObject> {
  readonly #lw: ListerWatcher<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #name: string;
  readonly #pageSize: number;
  readonly #minWatchTimeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #backoff: Backoff;
  readonly #log: Logger;
  readonly #mayBeAbsent: boolean;
  readonly #absentRecheckMs: number;
  #rv = '';
  #absent = false;
  readonly #eventCounters = new Map<string, { inc(): void }>();

  constructor(lw: ListerWatcher<T>, sink: ReflectorSink<T>, opts: ReflectorOptions = {}) {
    this.#lw = lw;
    this.#sink = sink;
    this.#name = opts.name ?? 'unnamed';
    this.#pageSize = opts.pageSize ?? 500;
    this.#minWatchTimeoutMs = opts.minWatchTimeoutMs ?? 5 * 60_000;
    this.#idleTimeoutMs = opts.watchIdleTimeoutMs ?? 150_000;
    this.#backoff = new Backoff(opts.backoff);
    this.#log = opts.logger ?? jsonLogger('reflector');
    this.#mayBeAbsent = opts.mayBeAbsent ?? false;
    this.#absentRecheckMs = opts.absentRecheckMs ?? 10_000;
  }

  /** The resourceVersion of the last list, event or bookmark applied ('' before the first list). */
  get lastSyncResourceVersion(): string { return this.#rv; }

  /** Runs until `signal` aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    let listReason: string | undefined = 'initial';
    let immediateRelists = 0;
    while (!signal.aborted) {
      try {
        if (listReason !== undefined) {
          await this.#list(listReason, signal);
          listReason = undefined;
        }
        await this.#watch(signal);
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof ResourceAbsent) {
          // Not an error: the collection is empty until the resource is served. Keep asking, calmly.
          await sleep(this.#absentRecheckMs * (0.5 + Math.random()), signal);
          continue;
        }
        if (err instanceof WatchEnded) {
          cacheWatchRestarts.inc({ cache: this.#name, reason: err.reason });
          if (err.reason !== 'short') {
            immediateRelists = 0;
            continue;
          }
        } else if (isGone(err)) {
          // The resourceVersion (or continue token) fell out of etcd's history: only a fresh list helps.
          this.#log.info('resource version expired, relisting', { cache: this.#name, rv: this.#rv, err });
          cacheWatchRestarts.inc({ cache: this.#name, reason: 'expired' });
          listReason = 'expired';
          if (immediateRelists++ === 0) continue;
        } else {
          // An ERROR event other than 410 leaves the stream's state unknown: relist after backing off.
          if (err instanceof KubeApiError && err.reason === 'WatchErrorEvent') listReason ??= 'error-event';
          cacheErrors.inc({ cache: this.#name, kind: listReason === undefined ? 'watch' : 'list' });
          this.#log.warn('list/watch failed, backing off', { cache: this.#name, err });
        }
        await sleep(this.#backoff.next(), signal);
      }
    }
  }

  async #list(reason: string, signal: AbortSignal): Promise<void> {
    cacheLists.inc({ cache: this.#name, reason });
    const items: T[] = [];
    let rv = '';
    let cont: string | undefined;
    do {
      let page;
      try {
        page = await this.#lw.list({ limit: this.#pageSize || undefined, continue: cont }, signal);
      } catch (err) {
        if (this.#mayBeAbsent && isNotFound(err)) return this.#markAbsent(signal);
        if (!(isGone(err) && cont)) throw err;
        // The continue token expired mid-list (client-go pager's FullListIfExpired): list everything at once.
        this.#log.info('continue token expired, listing without pagination', { cache: this.#name });
        cacheLists.inc({ cache: this.#name, reason: 'continue-expired' });
        items.length = 0;
        page = await this.#lw.list({}, signal);
        cont = undefined;
      }
      for (const item of page.items) items.push(item);
      rv = page.metadata.resourceVersion ?? '';
      cont = page.metadata.continue || undefined;
    } while (cont);
    signal.throwIfAborted();
    this.#sink.replace(items, rv);
    this.#rv = rv;
    if (this.#absent) this.#log.info('resource served now', { cache: this.#name });
    this.#absent = false;
  }

  /** The resource is not served: the store holds nothing (and has synced); the caller lists again later. */
  #markAbsent(signal: AbortSignal): never {
    signal.throwIfAborted();
    if (!this.#absent) this.#log.info('resource not served; empty until it is', { cache: this.#name });
    this.#absent = true;
    this.#sink.replace([], '');
    this.#rv = '';
    throw new ResourceAbsent();
  }

  /** One watch from the current resourceVersion; always ends by throwing (WatchEnded, or the failure). */
  async #watch(signal: AbortSignal): Promise<never> {
    // A stop that came while the list was being applied: an 'abort' listener added now would never fire.
    signal.throwIfAborted();
    const timeoutSeconds = Math.floor((this.#minWatchTimeoutMs * (1 + Math.random())) / 1000);
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let stalled = false;
    // Pushed back by every event (a timer refreshed, not a new one per event).
    const watchdog = setTimeout(() => { stalled = true; stop.abort(); }, this.#idleTimeoutMs);
    const started = performance.now();
    let events = 0;
    try {
      const stream = this.#lw.watch({ resourceVersion: this.#rv, timeoutSeconds, allowWatchBookmarks: true }, stop.signal);
      for await (const ev of stream) {
        watchdog.refresh();
        events++;
        this.#counted(ev.type).inc();
        this.#handle(ev);
      }
    } catch (err) {
      if (!stalled || signal.aborted) throw err;
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener('abort', onAbort);
    }
    signal.throwIfAborted();
    if (stalled) {
      this.#log.warn('watch silent too long, restarting it', { cache: this.#name, idleMs: this.#idleTimeoutMs, rv: this.#rv });
      throw new WatchEnded('stalled');
    }
    throw new WatchEnded(events === 0 && performance.now() - started < SHORT_WATCH_MS ? 'short' : 'closed');
  }

  /** The counter of watch events of `type` received by this reflector (its labels bound once). */
  #counted(type: string): { inc(): void } {
    let counter = this.#eventCounters.get(type);
    if (!counter) this.#eventCounters.set(type, (counter = cacheWatchEvents.labels({ cache: this.#name, type })));
    return counter;
  }

  #handle(ev: WatchEvent<T>): void {
    switch (ev.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
        this.#sink.apply(ev);
        break;
      case 'BOOKMARK':
        break;
      case 'ERROR': {
        const status = ev.object as unknown as Status;
        throw new KubeApiError({ ...status, reason: status.code === 410 ? (status.reason ?? 'Expired') : 'WatchErrorEvent', message: status.message ?? 'watch ERROR event' });
      }
    }
    const rv = ev.object.metadata?.resourceVersion;
    if (rv) {
      this.#rv = rv;
      if (ev.type === 'BOOKMARK') this.#sink.progress(rv);
    }
  }
}
