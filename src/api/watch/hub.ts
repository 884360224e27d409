import type { KubeObject } from '../../kube/types';
import type { Logger } from '../../log/logger';
import { watchersClosed, watchEventsSent, watchers as watchersGauge } from '../../metrics/api';
import type { IncludeObject, MetaGroupVersion, Negotiated } from '../negotiation';
import { watchEventTarget } from '../negotiation';
import type { ListOptions } from '../request/list-options';
import { expired, EXPIRED_MESSAGES, tooLargeResourceVersion, type StatusError } from '../status';
import { INITIAL_EVENTS_END } from '../table';
import { objectJson, objectTableJson, partialObjectMetadataJson } from '../encoding/encodings';
import { matchesSelectors, selectRows } from '../storage/select';
import type { ServedResource, TableConvertor, Viewer } from '../registration/served-resource';
import { Change, type Audience, type ChangeType } from '../storage/change';
import { longTimeout } from './long-timeout';
import { routesOf, type Routes } from './routing';
import { Watcher, type WatchSink } from './watcher';

/** The annotation on the bookmark that ends the initial events of a `sendInitialEvents` watch. */

export interface WatchHubOptions {
  /** Unread bytes after which a watcher is closed as too slow. */
  maxBufferedBytes: number;
  /** How often a watch that allows bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** Watches without timeoutSeconds (or with 0) end after a random time in [min, 2·min], as kube-apiserver's do. */
  minTimeoutSeconds: number;
  /** How long a watch from a resourceVersion this replica has not reached waits for it (kube: 3 s). */
  resourceVersionWaitMs: number;
  log: Logger;
}

export interface WatchRequest {
  viewer: Viewer;
  options: ListOptions;
  negotiated: Negotiated;
  includeObject: IncludeObject;
  transport: 'http' | 'websocket';
}

const NO_AUDIENCE: Audience = new Set();

/**
 * The form of a watch's events: every watcher with the same form shares their bytes, and each event is
 * made from the row's cached encodings (the same ones lists use): `{"type":..,"object":` + row + `}`.
 */
interface EventForm<T> {
  key: string;
  render(type: ChangeType, object: T, withHeaders: boolean): string | Buffer;
}

function formOf<T extends KubeObject>(table: TableConvertor<T>, negotiated: Negotiated, includeObject: IncludeObject): EventForm<T> {
  const target = watchEventTarget(negotiated);
  const gv = (negotiated.groupVersion ?? 'meta.k8s.io/v1') as MetaGroupVersion;
  if (target === 'Table') {
    return {
      key: `table:${gv}:${includeObject}`,
      // The Table of one row per event: AGE is as of the change, like every other cell of the event.
      render: (_t, o, withHeaders) => objectTableJson(table, o, { groupVersion: gv, includeObject, now: new Date(), noHeaders: !withHeaders }),
    };
  }
  if (target === 'PartialObjectMetadata') return { key: `pom:${gv}`, render: (_t, o) => partialObjectMetadataJson(o, gv) };
  return { key: 'json', render: (_t, o) => objectJson(o) };
}

const LINE_END = Buffer.from('}\n');

function line(type: string, object: string | Buffer): Buffer {
  if (typeof object === 'string') return Buffer.from(`{"type":"${type}","object":${object}}\n`);
  return Buffer.concat([Buffer.from(`{"type":"${type}","object":`), object, LINE_END]);
}

/** An ERROR event carrying a Status, as kube-apiserver ends a watch it cannot serve. */
export function errorEvent(err: StatusError): Buffer {
  return line('ERROR', err.body);
}

/**
 * Serves watches of one resource from its view's change log. A watch starts with its initial
 * events (or by replaying the log from the client's resourceVersion), then receives each later change
 * filtered for its caller and selectors; every event's bytes are made once per form and shared.
 */
export class WatchHub<T extends KubeObject = KubeObject> {
  /** Each open watch, with what it is sent before the server ends it (see closeAll). */
  readonly #open = new Map<Watcher<T>, () => void>();
  /** Set by closeAll: the server is going away and starts no more watches. */
  #closed = false;
  /** Hands each live change to the open watches that may see a state of it (see routing.ts). */
  readonly #routes: Routes<T>;

  constructor(readonly resource: ServedResource<T>, readonly options: WatchHubOptions) {
    this.#routes = routesOf(resource.storage);
  }

  get size(): number {
    return this.#open.size;
  }

  /**
   * Starts a watch on `sink`: initial events (`resourceVersion` unset or 0, or `sendInitialEvents` with
   * a resourceVersion this view has reached) or a replay from the client's resourceVersion, then live
   * changes. A resourceVersion that cannot be served ends the stream with an ERROR event.
   */
  serve(sink: WatchSink, req: WatchRequest, onClosed: () => void): Watcher<T> {
    const { resource } = this;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const hub = this;
    const { storage } = resource;
    const { options: opts, viewer } = req;
    const form = formOf(resource.table, req.negotiated, req.includeObject);
    let headersSent = false;
    const encode = (change: Change<T>, type: ChangeType, object: T): Buffer => {
      const withHeaders = form.key.startsWith('table:') && !headersSent;
      headersSent = true;
      watchEventsSent.inc({ type });
      return change.encoded(`${form.key}:${type}:${withHeaders}`, () => line(type, form.render(type, object, withHeaders)));
    };
    const matches = (o: T) => matchesSelectors(resource.fields, opts, o);
    let stop = () => {};
    // A watch that ends while it waits for its resourceVersion gives its place among the waits back at once.
    let ended: AbortController | undefined;
    const watcher: Watcher<T> = new Watcher<T>(sink, {
      sight: { admits: (audience) => storage.admits(viewer, audience), matches },
      encode,
      maxBufferedBytes: this.options.maxBufferedBytes,
      onClose: (reason) => {
        ended?.abort();
        stop();
        this.#open.delete(watcher);
        watchersGauge.dec({ transport: req.transport });
        watchersClosed.inc({ reason });
        if (reason === 'slow') this.options.log.warn('closed a watch that could not keep up', { user: viewer.name, ...watcher.pace });
        onClosed();
      },
      onError: (err) => this.options.log.error('closed a watch whose catch-up could not be made', { resource: resource.names.resource, user: viewer.name, err }),
    });
    watchersGauge.inc({ transport: req.transport });

    const rv = opts.resourceVersion;
    const resumes = rv !== undefined && rv !== '' && rv !== '0';
    // Until it is live, a watch that ends has delivered nothing: a resuming client that allows bookmarks is
    // told it is still where it was, so that it resumes from there (on another replica) rather than taking
    // an empty watch for a failure and relisting.
    const standstill = (): void => {
      // Not to a WatchList request: without its initial events it has nothing to resume from.
      if (resumes && opts.allowWatchBookmarks && opts.sendInitialEvents !== true && storage.locate(rv) !== 'invalid') watcher.writeRaw(hub.#bookmark(req, rv, false));
    };
    this.#open.set(watcher, standstill);
    if (this.#closed) {
      standstill();
      watcher.close('done');
      return watcher;
    }
    if (resumes && storage.locate(rv) === 'ahead') {
      // Another replica issued it and this one has not caught up yet: wait for it, as kube-apiserver's
      // watch cache waits for a revision it has not seen, then serve (or refuse) it.
      ended = new AbortController();
      void storage.whenReached(rv, this.options.resourceVersionWaitMs, ended.signal).then(() => start()).catch((err: unknown) => {
        this.options.log.error('closed a watch that could not be started', { resource: resource.names.resource, user: viewer.name, err });
        watcher.close('failed');
      });
      return watcher;
    }
    start();
    return watcher;

    function start(): void {
      if (watcher.closed) return;
      // Everything from here to subscribe runs in one tick: no change can fall between snapshot and live.
      // A resume replays exactly the changes after the client's resourceVersion, from the state it saw; a
      // WatchList (sendInitialEvents) only needs this replica to have reached it.
      const replay = !resumes ? undefined : opts.sendInitialEvents === true ? storage.locate(rv!) : storage.since(rv!);
      if (typeof replay === 'string') {
        // One this view cannot place (malformed, no longer retained, too costly to replay) or has still not
        // reached: the watch ends with the ERROR event kube-apiserver would send.
        const refusal = replay === 'ahead'
          ? tooLargeResourceVersion(rv!, storage.resourceVersion)
          : expired(EXPIRED_MESSAGES.tooOldResourceVersion(rv!, storage.resourceVersion));
        // A client that must relist: worth a line, as a replica that keeps refusing is behind or misconfigured.
        hub.options.log.info('watch refused', { resource: resource.names.resource, code: refusal.code, resourceVersion: rv!.slice(0, 200), current: storage.resourceVersion, user: viewer.name });
        watcher.writeRaw(errorEvent(refusal));
        watcher.close('done');
        return;
      }
      if (Array.isArray(replay)) {
        // The client holds the rows it could see at its resourceVersion. Each later change is judged by the
        // states it records (who could see the row then, its labels and fields then), never by today's
        // ownership: a row the caller lost meanwhile ends with DELETED carrying the state it last could see,
        // one it gained arrives as ADDED, and the client ends with exactly the rows it may see now.
        watcher.replay(replay);
      } else if (opts.sendInitialEvents !== false) {
        const snapshotRv = storage.resourceVersion;
        // Each initial ADDED gets a change of its own only to key its encodings; nobody judges its audience.
        watcher.sendInitial((o) => new Change(snapshotRv, undefined, { object: o, audience: NO_AUDIENCE }), selectRows(storage, resource.fields, viewer, opts));
        if (opts.sendInitialEvents) watcher.writeRaw(hub.#bookmark(req, snapshotRv, true));
      }
      if (watcher.closed) return;
      live();
    }

    function live(): void {
      const unsubscribe = hub.#routes.add(viewer, watcher);
      if (opts.allowWatchBookmarks) hub.#open.set(watcher, () => watcher.writeRaw(hub.#bookmark(req, storage.resourceVersion, false)));

      // timeoutSeconds unset or 0 both mean the server's default, as kube-apiserver's ListResource reads it.
      // Any other value (up to int64's largest) is how long the watch lasts: never shorter, however long.
      const seconds = opts.timeoutSeconds || hub.options.minTimeoutSeconds * (1 + Math.random());
      const cancelTimeout = longTimeout(() => watcher.close('done'), seconds * 1000);
      const bookmarks = opts.allowWatchBookmarks
        ? setInterval(() => watcher.writeRaw(hub.#bookmark(req, storage.resourceVersion, false)), hub.options.bookmarkIntervalMs)
        : undefined;
      stop = () => {
        unsubscribe();
        cancelTimeout();
        clearInterval(bookmarks);
      };
    }
  }

  /**
   * Ends every open watch (server shutdown), cleanly: a live watch that allows bookmarks first gets one at
   * the view's current resourceVersion, so its client resumes from there on another replica — and
   * client-go, which takes a watch that ended within a second without an event for a failure and
   * relists, sees an event. A watch that was not live yet, or that arrives later (its request was under
   * way), ends at once with a bookmark at the client's own resourceVersion.
   */
  closeAll(): void {
    this.#closed = true;
    for (const [w, farewell] of [...this.#open]) {
      farewell();
      w.close('done');
    }
  }

  #bookmark(req: WatchRequest, resourceVersion: string, initialEventsEnd: boolean): Buffer {
    const metadata: Record<string, unknown> = { resourceVersion };
    if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END]: 'true' };
    const target = watchEventTarget(req.negotiated);
    const gv = req.negotiated.groupVersion ?? 'meta.k8s.io/v1';
    const object =
      target === 'Table' ? { kind: 'Table', apiVersion: gv, metadata, columnDefinitions: null, rows: null }
        : target === 'PartialObjectMetadata' ? { kind: 'PartialObjectMetadata', apiVersion: gv, metadata }
          : { kind: this.resource.names.kind, apiVersion: this.resource.names.groupVersion, metadata };
    return line('BOOKMARK', JSON.stringify(object));
  }
}
