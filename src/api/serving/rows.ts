/**
 * What every row view shares: how a row is stamped with its resourceVersion, the audience sets rows
 * share, and how a caller is judged against the audience recorded with a row state.
 */
import type { KubeObject } from '../../kube/types';
import { subjectKeysOfUser } from '../../tenancy/owner-keys';
import type { Audience, RowState } from '../watch/changelog';
import type { Viewer } from './resource';
import { sameContent } from './same-content';

/** `row`, frozen, with metadata.resourceVersion set. */
export function withResourceVersion<T extends KubeObject>(row: T, resourceVersion: string): T {
  return Object.freeze({ ...row, metadata: Object.freeze({ ...row.metadata, resourceVersion }) }) as T;
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
    // A restamp that fails (the signing key unreadable for a moment) leaves every row its own stamp: as
    // valid, only larger. Never a rejection nobody handles, which would end the process.
    .catch(() => undefined);
}

/** A row state whose object is stamped with `resourceVersion`, its audience unchanged. */
export function stampedRow<T extends KubeObject>(row: RowState<T>, resourceVersion: string): RowState<T> {
  return Object.freeze({ ...row, object: withResourceVersion(row.object, resourceVersion) });
}

/** Every row of `rows` stamped with `resourceVersion` by `stamp`; audiences unchanged. */
export function restampRows<R>(rows: Map<string, R>, resourceVersion: string, stamp: (row: R, resourceVersion: string) => R): void {
  for (const [name, row] of rows) rows.set(name, stamp(row, resourceVersion));
}

/**
 * The audience made of one list of owner keys: one set per list, shared by every row (of every view)
 * whose audience is exactly those keys. Lists of a Tenant's owner keys are made once per owner list
 * (see tenancy/owner-keys.ts), so the rows of a tenant, in all views, share one set.
 */
const audiencesOfKeys = new WeakMap<readonly string[], Audience>();
export function audienceOfKeys(keys: readonly string[]): Audience {
  let audience = audiencesOfKeys.get(keys);
  if (!audience) audiencesOfKeys.set(keys, (audience = Object.freeze(new Set(keys))));
  return audience;
}

/**
 * What a row's newly computed state is to its state before (both present):
 * - `'none'`: the same content (JSON apart from the resourceVersion) and audience — nothing to log;
 * - `'audience'`: the same content, seen by others — the row keeps its object and resourceVersion, and
 *   only the callers who gain or lose it are told (see Change.audienceOnly);
 * - `'content'`: a new state, with a resourceVersion of its own.
 * Every view decides by this one rule, live and in a replay alike.
 */
export function rowChange<T extends KubeObject>(before: RowState<T>, after: RowState<T>): 'none' | 'audience' | 'content' {
  if (!sameContent(before.object, after.object)) return 'content';
  return sameAudience(before.audience, after.audience) ? 'none' : 'audience';
}

export function sameAudience(a: Audience, b: Audience): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const key of a) if (!b.has(key)) return false;
  return true;
}

/** A viewer's owner subject keys, computed once per viewer object (a request's or a watch's). */
const keysOfViewer = new WeakMap<Viewer, ReadonlySet<string>>();
export function viewerKeys(viewer: Viewer): ReadonlySet<string> {
  let keys = keysOfViewer.get(viewer);
  if (!keys) keysOfViewer.set(viewer, (keys = new Set(subjectKeysOfUser(viewer))));
  return keys;
}

/**
 * Whether `viewer` is among those who may see a row state with `audience` (recorded with the state): the
 * owner-key rule. True exactly when the viewer sees all or one of its keys (`viewerKeys`) is in the
 * audience — the watch hub routes the changes of a view whose `admits` is this function by those keys
 * alone (watch/routing.ts), so this rule must stay that.
 */
export function admits(viewer: Viewer, audience: Audience): boolean {
  if (viewer.seesAll) return true;
  for (const key of viewerKeys(viewer)) if (audience.has(key)) return true;
  return false;
}
