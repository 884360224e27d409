/**
 * What the request path reads of a served resource's rows: the narrow interface list, get and watch are
 * written against (implemented by RowStore). Nothing behind it — the cache, the join, the audience rule —
 * is visible from here.
 */
import type { KubeObject } from '../../kube/types';
import type { Audience, Change } from './change';
import type { Located } from './change-log';
import type { Viewer } from './viewer';

/** A resource's rule for who sees its rows (the store keeps, with each row state, the audience it judges). */
export interface Visibility<T> {
  /**
   * Whether `viewer` is among those who may see a row state with `audience`. The watch hub routes the
   * changes of a resource whose rule is the owner-key rule itself (`admits` in audience.ts, by identity)
   * by the viewer's keys alone.
   */
  admits(viewer: Viewer, audience: Audience): boolean;
  /** The rows `viewer` sees, in name order, when an index finds them; undefined: every row is judged by `admits`. */
  visibleRows?(viewer: Viewer): readonly T[] | undefined;
  /** The rows `viewer` sees whose field `field` has `value`, when an index finds them; undefined: the caller filters. */
  visibleRowsWhere?(viewer: Viewer, field: string, value: string): readonly T[] | undefined;
}

/** A resourceVersion placed on this replica, or why it cannot be (see ChangeLog.locate). */
export type { Located };

/**
 * The rows of a resource as every request reads them: kept current from the shared cache, each row state
 * recorded with who may see it (its audience), every change numbered in one change log.
 */
export interface RowStorage<T extends KubeObject> {
  /** The resourceVersion of the rows as of now (sealed). */
  readonly resourceVersion: string;
  get(name: string): T | undefined;
  /** Whether `viewer` sees the current state of the row named as `row`. */
  canSee(viewer: Viewer, row: T): boolean;
  /** Whether `viewer` is among those who may see a row state with `audience` (the resource's rule). */
  admits(viewer: Viewer, audience: Audience): boolean;
  /** The rows `viewer` sees, ordered by name (may be an array the store shares: never modified). */
  visibleRows(viewer: Viewer): readonly T[];
  /** The rows `viewer` sees whose field `field` has `value`, when found without scanning; undefined to let the caller filter. */
  visibleRowsWhere(viewer: Viewer, field: string, value: string): readonly T[] | undefined;
  /** Where a client's resourceVersion stands here: positions (and whether they are the current ones), or why not. */
  locate(rv: string): Located;
  /** The changes after `rv`, in order, or why there are none to give. */
  since(rv: string): readonly Change<T>[] | Exclude<Located, object>;
  /** Resolves once `rv` is no longer ahead of this replica, after `timeoutMs`, or when `signal` aborts (bounded: see ChangeLog). */
  whenReached(rv: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Live changes, handed over synchronously as they are logged: a snapshot read and a subscribe in one tick miss nothing. */
  subscribe(listener: (change: Change<T>) => void): () => void;
}
