import type { Audience, Change, ChangeType, RowState } from './change';

/** What one watch may see: its caller (by the audience recorded with each row state) and its selectors. */
export interface Sight<T> {
  /** Whether the watch's caller is among those who may see a state with this audience. */
  admits(audience: Audience): boolean;
  /** Whether an object matches the watch's label and field selectors. */
  matches(object: T): boolean;
}

export interface WatchEvent<T> {
  type: ChangeType;
  object: T;
}

/** Whether a watch sees a row state (undefined: the row does not exist). */
export function sees<T>(sight: Sight<T>, state: RowState<T> | undefined): boolean {
  return state !== undefined && sight.admits(state.audience) && sight.matches(state.object);
}

/**
 * The event a watch gets for one change, as kube-apiserver's watch cache filters one: judged by whether
 * the watch saw the row's state before the change and whether it sees the state after it, both as recorded
 * with the change (who owned it, its labels and fields then), never as of now.
 *
 * - seen before and after: MODIFIED with the new state — unless only who may see the row changed, which
 *   tells this watch nothing about its rows (only about other callers' access): no event;
 * - seen after only: ADDED with the new state (created, granted to the caller, or now matching);
 * - seen before only: DELETED with the state before, numbered as this change — the last state this watch
 *   was allowed to see, never the state that took it away (another owner's names, labels that no longer
 *   match);
 * - seen neither: nothing.
 *
 * Applied to every change after a resourceVersion, in order, it takes a client from the rows it could see
 * then to those it may see now: for one row each change starts from the state the one before it ended in.
 */
export function eventFor<T>(sight: Sight<T>, change: Change<T>): WatchEvent<T> | undefined {
  const before = sees(sight, change.before);
  if (sees(sight, change.after)) {
    if (!before) return { type: 'ADDED', object: change.arrived };
    return change.audienceOnly ? undefined : { type: 'MODIFIED', object: change.after!.object };
  }
  if (before) return { type: 'DELETED', object: change.departed };
  return undefined;
}
