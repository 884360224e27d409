import { historyOf, type SourceHistory } from '../../cache/history';
import type { SharedInformer } from '../../cache/informer';
import { addKey, keysIn, removeKey, type KeySet } from '../../cache/key-sets';
import { NameTable } from '../../cache/name-table';
import type { KubeObject } from '../../kube/types';
import type { Audience, Change, Restamp, RowState } from './change';
import { ChangeLog, type RowJoin } from './change-log';
import { rowChange } from './row-change';
import type { RowStorage, Visibility } from './row-storage';
import { sameContent } from './same-content';
import { SortedNames } from './sorted-names';
import type { ResourceVersionSeal } from './version-seal';
import type { Viewer } from './viewer';

/** How the rows of one resource are made into new rows: what the store needs to know of a row's shape. */
export interface RowShape<T extends KubeObject, R extends RowState<T>> {
  /** `row` stamped with `resourceVersion`, its audience unchanged. */
  stamp(row: R, resourceVersion: string): R;
  /** The row as served before (its object and resourceVersion), seen by the audience of `computed`. */
  seenBy(before: R, computed: R): R;
  /** The row to keep when nothing served changed: `before`, or one that reads what it shows from `computed`'s sources. */
  unchanged(before: R, computed: R): R;
  /** A served object stamped with `resourceVersion` (what a change sends of a row the caller loses). */
  restamp: Restamp<T>;
  /** The row's name, read without making its metadata when the row can (the rows are kept by it). */
  name?(row: R): string;
}

/** Rows that are `{ object, audience }` records: stamped by a frozen copy of the object. */
export function plainRows<T extends KubeObject>(): RowShape<T, RowState<T>> {
  return {
    stamp: (row, resourceVersion) => Object.freeze({ object: withResourceVersion(row.object, resourceVersion), audience: row.audience }),
    seenBy: (before, computed) => Object.freeze({ object: before.object, audience: computed.audience }),
    unchanged: (before) => before,
    restamp: withResourceVersion,
  };
}

/** `row`, frozen, with metadata.resourceVersion set. */
export function withResourceVersion<T extends KubeObject>(row: T, resourceVersion: string): T {
  return Object.freeze({ ...row, metadata: Object.freeze({ ...row.metadata, resourceVersion }) }) as T;
}

export interface RowStoreOptions<T extends KubeObject, R extends RowState<T>> {
  /** The informers the rows are joined from, in the order of the resourceVersions' positions. */
  sources: readonly SharedInformer<KubeObject>[];
  /** How many changes of each source are retained for resuming (`--watch-window`). */
  window: number;
  /** How rows are joined from the sources, read now or at a client's resourceVersion (replays). */
  join: RowJoin<T>;
  /** Who sees which rows: the resource's audience rule. */
  visibility: Visibility<T>;
  shape: RowShape<T, R>;
  seal: ResourceVersionSeal;
  /** A value each row is grouped by (a TenantNamespace's tenant), for `rowsIn`. */
  groupOf?: (row: R) => string;
}

/**
 * The rows of one served resource: kept in name order, each with the audience it was computed with, every
 * change logged in the resource's change log and numbered by the positions of its sources. The resource
 * computes rows (its join) and hands them to `write`; the store decides whether anything changed, stamps,
 * logs and answers the request path through `RowStorage`.
 *
 * Invariants:
 * - a row is logged only when its served content or its audience changed (rowChange); a change of its
 *   audience alone keeps its object and resourceVersion and reaches only the callers who gain or lose it;
 * - a row carries the resourceVersion of the change that last made it, except that the rows made while
 *   the caches fill are stamped again, once every source has listed, with the resourceVersion of then;
 * - names are kept sorted, as kube-apiserver orders lists; `all()` is one frozen array shared by every
 *   caller until a row changes;
 * - the store keeps no object per row beyond the row itself (rows may be flat records: see RowShape).
 */
export class RowStore<T extends KubeObject, R extends RowState<T> = RowState<T>> implements RowStorage<T> {
  readonly log: ChangeLog<T>;
  readonly admits: (viewer: Viewer, audience: Audience) => boolean;
  /** The rows by name, in a table that reads the name off the row (name-table.ts): no key per row. */
  readonly #rows: NameTable<R>;
  readonly #names = new SortedNames();
  readonly #groups = new Map<string, KeySet>();
  readonly #visibility: Visibility<T>;
  readonly #shape: RowShape<T, R>;
  readonly #groupOf: ((row: R) => string) | undefined;
  /** Every row in name order, made on first use after a change (see `all`); undefined once a row changes. */
  #all: readonly T[] | undefined;

  constructor(options: RowStoreOptions<T, R>) {
    const histories = options.sources.map((informer) => historyOf(informer, options.window)) as SourceHistory<KubeObject>[];
    this.log = new ChangeLog<T>(histories, options.join, options.shape.restamp, options.seal);
    this.#visibility = options.visibility;
    this.admits = options.visibility.admits;
    this.#shape = options.shape;
    this.#rows = new NameTable<R>(options.shape.name ?? ((row) => row.object.metadata.name));
    this.#groupOf = options.groupOf;
    whenListed(options.sources, () => this.#restampAll());
  }

  get size(): number {
    return this.#rows.size;
  }

  get resourceVersion(): string {
    return this.log.resourceVersion;
  }

  /** The row `name` as kept (its state and audience). */
  row(name: string): R | undefined {
    return this.#rows.get(name);
  }

  get(name: string): T | undefined {
    return this.#rows.get(name)?.object;
  }

  /** The names of the rows, in order (the live array: do not modify). */
  get names(): readonly string[] {
    return this.#names.all;
  }

  /** Every row, ordered by name: one frozen array shared by every caller until a row changes. */
  all(): readonly T[] {
    return (this.#all ??= Object.freeze(this.#names.all.map((n) => this.#rows.get(n)!.object)));
  }

  /** The names of the rows in group `group` (see RowStoreOptions.groupOf), in no order. */
  rowsIn(group: string): Iterable<string> {
    return keysIn(this.#groups.get(group));
  }

  canSee(viewer: Viewer, row: T): boolean {
    const current = this.#rows.get(row.metadata.name);
    return current !== undefined && this.admits(viewer, current.audience);
  }

  visibleRows(viewer: Viewer): readonly T[] {
    const found = this.#visibility.visibleRows?.(viewer);
    if (found) return found;
    const out: T[] = [];
    for (const name of this.#names.all) {
      const row = this.#rows.get(name)!;
      if (this.admits(viewer, row.audience)) out.push(row.object);
    }
    return out;
  }

  visibleRowsWhere(viewer: Viewer, field: string, value: string): readonly T[] | undefined {
    return this.#visibility.visibleRowsWhere?.(viewer, field, value);
  }

  locate(rv: string) {
    return this.log.locate(rv);
  }

  since(rv: string) {
    return this.log.since(rv);
  }

  whenReached(rv: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.log.whenReached(rv, timeoutMs, signal);
  }

  subscribe(listener: (change: Change<T>) => void): () => void {
    return this.log.subscribe(listener);
  }

  /**
   * Whether the row `name` is now as it was at `rv` (a delete precondition): the same resourceVersion,
   * or — since another replica numbers the same state otherwise — the same content in the state `rv` names
   * (who may see it is not part of the row: a change of it alone leaves the resourceVersion as it was).
   */
  unchangedSince(name: string, rv: string): boolean {
    const row = this.#rows.get(name);
    if (!row) return false;
    if (row.object.metadata.resourceVersion === rv) return true;
    const then = this.log.rowAt(rv, name);
    return typeof then === 'object' && sameContent(then.object, row.object);
  }

  /**
   * The row `name` is now `computed` (undefined: there is none), as the latest change of source `source`
   * makes it. Logs a change when its content or audience changed; within one source change, rows must be
   * written in name order (as a replay sends them: see ChangeLog.versionOf).
   */
  write(name: string, computed: R | undefined, source: number): void {
    const before = this.#rows.get(name);
    if (!computed) {
      if (before) this.#remove(name, before, source);
      return;
    }
    const change = before ? rowChange(before, computed) : 'content';
    if (change === 'none') {
      // Nothing to serve; the row may read what it shows from the newer source objects from now on, so
      // as not to keep the ones they replaced alive.
      const kept = this.#shape.unchanged(before!, computed);
      if (kept !== before) {
        this.#rows.set(name, kept);
        this.#all = undefined;
      }
      return;
    }
    if (before) this.#ungroup(name, before);
    const version = this.log.versionOf(source, name);
    // Who may see it changed, and nothing else: the same row as served, its resourceVersion too.
    const row = change === 'audience' ? this.#shape.seenBy(before!, computed) : this.#shape.stamp(computed, version);
    this.#rows.set(name, row);
    this.#all = undefined;
    if (!before) this.#names.insert(name);
    if (this.#groupOf) addKey(this.#groups, this.#groupOf(row), name);
    this.log.append(version, before, row, change === 'audience');
  }

  #remove(name: string, before: R, source: number): void {
    this.#rows.delete(name);
    this.#all = undefined;
    this.#ungroup(name, before);
    this.#names.remove(name);
    this.log.append(this.log.versionOf(source, name), before, undefined);
  }

  #ungroup(name: string, row: R): void {
    if (this.#groupOf) removeKey(this.#groups, this.#groupOf(row), name);
  }

  /** Every row stamped with the resourceVersion of now (see whenListed); audiences unchanged. */
  #restampAll(): void {
    const rv = this.log.resourceVersion;
    for (const [name, row] of this.#rows) this.#rows.set(name, this.#shape.stamp(row, rv));
    this.#all = undefined;
  }
}

/**
 * Calls `restamp` once every source of a view has listed (not when one never does: a process stopping).
 *
 * Rows made while the caches fill — at every start and restart — are each stamped with the position of
 * their own event of the initial lists: one string of ~120 B per row, naming a state of half-filled
 * caches (a replica is not ready, so not sent clients, before its caches have synced), and at 100,000
 * namespaces out of the history window before the lists end. Every row is as its sources make it *now*
 * (a view recomputes its rows synchronously on every source event), so stamping them all with the
 * view's resourceVersion of that moment gives each a state it really has, retained like any other, and
 * one string they share.
 */
export function whenListed(sources: readonly { waitForSync(): Promise<boolean> }[], restamp: () => void): void {
  void Promise.all(sources.map((s) => s.waitForSync()))
    .then((listed) => listed.every(Boolean) && restamp())
    // A restamp that fails leaves every row its own stamp: as valid, only larger (a key unreadable for a
    // moment does not fail it: the seal keeps the keys in use). Never a rejection nobody handles, which
    // would end the process.
    .catch(() => undefined);
}
