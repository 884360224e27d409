import type { KubeObject, ListMeta } from '../../kube/types';
import { decodeContinue, encodeContinue } from '../request/continue-token';
import type { ListOptions } from '../request/list-options';
import { badRequest, expired, EXPIRED_MESSAGES, notFound, timeout } from '../status';
import type { RowView, ServedResource, Viewer } from './resource';
import type { Change } from '../watch/changelog';
import { eventFor, type Sight } from '../watch/visibility';
import { ListSnapshots } from './snapshots';

/** For callers that keep no snapshots (every continuation goes through the change log). */
const NO_SNAPSHOTS = new ListSnapshots(0);

export interface ListResult<T extends KubeObject = KubeObject> {
  items: T[];
  metadata: ListMeta;
}

/**
 * Checks a list's resourceVersion against the view. The view serves only its current state, which is
 * "not older than" every resourceVersion any replica has handed out and this one has reached; an exact
 * older one is answered as kube answers one that etcd has compacted (410), one this replica no longer
 * retains too, and one it has not reached (the caller waited for it already) as kube does after waiting
 * (504).
 */
function checkListResourceVersion(view: RowView<KubeObject>, opts: ListOptions): void {
  const rv = opts.resourceVersion;
  if (!rv || rv === '0') {
    if (opts.resourceVersionMatch === 'Exact') throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    return;
  }
  const located = view.log.locate(rv);
  if (located === 'invalid') throw badRequest(`resourceVersion: Invalid value: "${rv.slice(0, 64)}": must be a resourceVersion this resource issued`);
  if (located === 'expired') throw expired(EXPIRED_MESSAGES.tooOldResourceVersion(rv, view.log.resourceVersion));
  if (located === 'ahead') throw timeout(`Too large resource version: ${rv}, current: ${view.log.resourceVersion}`, 1);
  if (opts.resourceVersionMatch === 'Exact' && located.positions.some((seq, i) => seq !== view.log.sources[i].head)) {
    throw expired(EXPIRED_MESSAGES.tooOldResourceVersion(rv, view.log.resourceVersion));
  }
}

/**
 * Where a continued list resumes, and from which rows. While the first page's snapshot is kept, the pages
 * come from it: one consistent list, as kube-apiserver serves pages from one etcd revision. After that,
 * a continuation is honoured when no row at or after its start has changed since its page was served;
 * otherwise it is 410 Expired, as kube answers a token whose revision etcd has compacted. Only rows the
 * caller could see before or after a change (and that match its selectors) are considered.
 */
function continueFrom(
  view: RowView<KubeObject>,
  snapshots: ListSnapshots,
  owner: string,
  token: string,
  seen: (change: Change<KubeObject>) => boolean,
): { start: string; resourceVersion: string; rows?: readonly KubeObject[]; snapshot?: string } {
  const c = decodeContinue(token);
  const located = view.log.locate(c.resourceVersion);
  if (located === 'invalid') throw badRequest('invalid continue token: continue key is not valid');
  if (typeof located === 'string') throw expired(EXPIRED_MESSAGES.continueTooOld);
  const rows = c.snapshot ? snapshots.get(c.snapshot, owner) : undefined;
  if (rows) return { start: c.start, resourceVersion: c.resourceVersion, rows, snapshot: c.snapshot };
  const changes = view.log.since(c.resourceVersion);
  // Only changes the caller could see count: whether another tenant's row changed must not show (a
  // continue token is the caller's to forge, so its start is any name the caller likes).
  if (typeof changes === 'string' || changes.some((ch) => ch.object.metadata.name >= c.start && seen(ch))) throw expired(EXPIRED_MESSAGES.continueTooOld);
  return { start: c.start, resourceVersion: c.resourceVersion };
}

/** The rows `viewer` may see that match the request's selectors, ordered by name, before paging. */
export function selectRows<T extends KubeObject>(resource: ServedResource<T>, viewer: Viewer, opts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>): readonly T[] {
  const { view } = resource;
  const byName = opts.fieldSelector?.requiredValue('metadata.name');
  let rows: readonly T[] | undefined;
  if (byName !== undefined) {
    const row = view.get(byName);
    rows = row && view.canSee(viewer, row) ? [row] : [];
  } else if (view.visibleRowsWhere && opts.fieldSelector) {
    for (const field of resource.fields.labels) {
      const value = opts.fieldSelector.requiredValue(field);
      if (value !== undefined) rows ??= view.visibleRowsWhere(viewer, field, value);
    }
  }
  rows ??= view.visibleRows(viewer);
  if ((opts.labelSelector && !opts.labelSelector.isEmpty()) || (opts.fieldSelector && !opts.fieldSelector.isEmpty())) rows = rows.filter((r) => matchesSelectors(resource, opts, r));
  return rows;
}

/** Whether `row` matches the request's label and field selectors. */
function matchesSelectors<T extends KubeObject>(resource: ServedResource<T>, opts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>, row: T): boolean {
  const { labelSelector, fieldSelector } = opts;
  return (!labelSelector || labelSelector.matches(row.metadata.labels)) && (!fieldSelector || fieldSelector.matches(resource.fields.of(row)));
}

/**
 * Who a snapshot belongs to: the same caller, on the same resource, with the same selectors (a continue
 * token can never reach another caller's or another resource's rows).
 */
function snapshotOwner(resource: ServedResource<KubeObject>, viewer: Viewer, opts: ListOptions): string {
  return JSON.stringify([resource.names.resource, viewer.name, [...viewer.groups].sort(), viewer.seesAll, opts.labelSelector?.toString() ?? '', opts.fieldSelector?.toString() ?? '']);
}

/** LIST: the caller's rows, filtered, paged with `limit` and `continue`. */
export function listRows<T extends KubeObject>(resource: ServedResource<T>, viewer: Viewer, opts: ListOptions, snapshots = NO_SNAPSHOTS): ListResult<T> {
  const view = resource.view as unknown as RowView<KubeObject>;
  let resourceVersion = view.log.resourceVersion;
  let start: string | undefined;
  let rows: readonly T[] | undefined;
  let snapshot: string | undefined;
  const owner = snapshotOwner(resource as unknown as ServedResource<KubeObject>, viewer, opts);
  if (opts.continueToken) {
    let kept: readonly KubeObject[] | undefined;
    const sight: Sight<KubeObject> = { admits: (a) => view.admits(viewer, a), matches: (o) => matchesSelectors(resource as unknown as ServedResource<KubeObject>, opts, o) };
    // A change counts when it would make an event for this caller (a change of who may see a row that the
    // caller sees before and after it makes none: its pages did not change).
    const seen = (ch: Change<KubeObject>) => eventFor(sight, ch) !== undefined;
    ({ start, resourceVersion, rows: kept, snapshot } = continueFrom(view, snapshots, owner, opts.continueToken, seen));
    rows = kept as readonly T[] | undefined;
  } else checkListResourceVersion(view, opts);

  rows ??= selectRows(resource, viewer, opts);
  const from = start === undefined ? 0 : lowerBound(rows, start);
  const metadata: ListMeta = { resourceVersion };
  let page = rows.slice(from);
  if (opts.limit > 0 && page.length > opts.limit) {
    snapshot ??= snapshots.put(owner, rows);
    metadata.continue = encodeContinue({ resourceVersion, start: page[opts.limit].metadata.name, snapshot });
    if (!opts.labelSelector && !opts.fieldSelector) metadata.remainingItemCount = page.length - opts.limit;
    page = page.slice(0, opts.limit);
  }
  return { items: page, metadata };
}

/** GET: one row; one the caller may not see answers exactly as one that does not exist. */
export function getRow<T extends KubeObject>(resource: ServedResource<T>, viewer: Viewer, name: string): T {
  const row = resource.view.get(name);
  if (!row || !resource.view.canSee(viewer, row)) throw notFound(resource.names, name);
  return row;
}

function lowerBound(rows: readonly KubeObject[], name: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].metadata.name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
