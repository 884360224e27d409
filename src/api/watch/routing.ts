/**
 * Which open watches a change of a view is handed to. Handing every change to every watch costs each
 * change the number of open watches, and nearly all of them see neither state of it; a view whose rule
 * for who sees a state is the owner-key rule has its changes routed to the watches that may see one.
 */
import type { KubeObject } from '../../kube/types';
import type { RowStorage } from '../storage/row-storage';
import type { Viewer } from '../storage/viewer';
import { admits, viewerKeys } from '../storage/audience';
import type { Audience, Change } from '../storage/change';

/** What a change is handed to: a watch, which judges it itself (see `eventFor`). */
export interface Route<T> {
  deliver(change: Change<T>): void;
}

/** Hands a view's live changes to open watches; `add` returns the function that removes one. */
export interface Routes<T> {
  add(viewer: Viewer, route: Route<T>): () => void;
}

/**
 * The routes of `view`'s changes: by owner key when `view.admits` is the owner-key rule itself
 * (`admits` in storage/audience.ts, by identity, so that a view with a rule of its own is never routed by
 * this one), else to every watch.
 */
export function routesOf<T extends KubeObject>(view: RowStorage<T>): Routes<T> {
  const subscribe = (listener: (change: Change<T>) => void) => view.subscribe(listener);
  return view.admits === admits ? new AudienceRoutes<T>(subscribe) : new Broadcast<T>(subscribe);
}

/** Every change to every watch: each watch subscribes to the view. */
export class Broadcast<T> implements Routes<T> {
  constructor(readonly subscribe: (listener: (change: Change<T>) => void) => () => void) {}

  add(_viewer: Viewer, route: Route<T>): () => void {
    return this.subscribe((c) => route.deliver(c));
  }
}

/**
 * Each change to the watches that may see its state before or after it, by the owner-key rule
 * (storage/audience.ts): `admits(viewer, audience)` is true exactly when `viewer.seesAll`, or when one of
 * `viewerKeys(viewer)` is in `audience`.
 *
 * Invariant: a route is indexed under every key of its viewer, or among those that see all when its
 * viewer does, from `add` until its removal; a viewer's keys and `seesAll` never change (its keys are
 * computed once per viewer object). A change goes to the union of the routes under each key of its
 * before- and after-audience and those that see all. Any other route's viewer is admitted by neither
 * audience, so it sees neither state and its watch would make no event of the change (`eventFor`):
 * skipping it changes nothing it sends.
 *
 * Each change is handed, synchronously inside the view's publish, to each of its routes once, so every
 * watch receives its changes in publish order. The routes of a change are chosen before any is handed
 * it: a route removed meanwhile (a watch closed as too slow by the write of this very change) is still
 * handed it and ignores it; one added meanwhile is not.
 *
 * The hub subscribes to the view while it has a route, and not otherwise.
 */
export class AudienceRoutes<T> implements Routes<T> {
  readonly #byKey = new Map<string, Set<Route<T>>>();
  readonly #seeAll = new Set<Route<T>>();
  #size = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(readonly subscribe: (listener: (change: Change<T>) => void) => () => void) {}

  /** Open routes. */
  get size(): number {
    return this.#size;
  }

  add(viewer: Viewer, route: Route<T>): () => void {
    const keys = viewer.seesAll ? [] : [...viewerKeys(viewer)];
    if (viewer.seesAll) this.#seeAll.add(route);
    for (const key of keys) {
      let routes = this.#byKey.get(key);
      if (!routes) this.#byKey.set(key, (routes = new Set()));
      routes.add(route);
    }
    if (this.#size++ === 0) this.#unsubscribe = this.subscribe((c) => this.#route(c));
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#seeAll.delete(route);
      for (const key of keys) {
        const routes = this.#byKey.get(key)!;
        routes.delete(route);
        if (routes.size === 0) this.#byKey.delete(key);
      }
      if (--this.#size === 0) {
        this.#unsubscribe!();
        this.#unsubscribe = undefined;
      }
    };
  }

  /**
   * The routes that may see a state of `change`, then each handed it: those of the change's owners
   * first, then those that see all. Each write costs the routes after it its encoding and TLS write,
   * and on every cluster the routes that see all include kube-controller-manager's metadata informers
   * (its garbage collector watches every resource it may delete, TenantNamespaces among them, through
   * the aggregator): a tenant's own watch should not wait for them.
   */
  #route(change: Change<T>): void {
    const to = new Set<Route<T>>();
    this.#collect(change.before?.audience, to);
    if (change.after && change.after.audience !== change.before?.audience) this.#collect(change.after.audience, to);
    for (const route of this.#seeAll) to.add(route);
    for (const route of to) route.deliver(change);
  }

  #collect(audience: Audience | undefined, to: Set<Route<T>>): void {
    if (!audience) return;
    for (const key of audience) {
      const routes = this.#byKey.get(key);
      if (routes) for (const route of routes) to.add(route);
    }
  }
}
