import type { KubeObject, ListMeta } from '../../kube/types';
import { decodeContinue, encodeContinue } from '../request/continue-token';
import type { GetOptions } from '../request/get-options';
import type { ListOptions } from '../request/list-options';
import { badRequest, expired, EXPIRED_MESSAGES, notFound, tooLargeResourceVersion } from '../status';
import type { RowStorage } from '../storage/row-storage';
import { matchesSelectors, selectRows } from '../storage/select';
import type { ServedResource, Viewer } from '../registration/served-resource';
import type { Change } from '../storage/change';
import { eventFor, type Sight } from '../storage/visibility';
import { ListSnapshots } from './snapshots';

/** For callers that keep no snapshots (every continuation goes through the change log). */
const NO_SNAPSHOTS = new ListSnapshots(0);

export interface ListResult<T extends KubeObject = KubeObject> {
  items: T[];
  metadata: ListMeta;
}

const notAResourceVersion = (rv: string) => badRequest(`resourceVersion: Invalid value: "${rv.slice(0, 64)}": must be a resourceVersion this resource issued`);

/**
 * Checks a list's resourceVersion against the view. The view serves only its current state, which is
 * "not older than" every resourceVersion any replica has handed out and this one has reached; an exact
 * older one is answered as kube answers one that etcd has compacted (410), one this replica no longer
 * retains too, and one it has not reached (the caller waited for it already) as kube does after waiting
 * (504).
 */
function checkListResourceVersion(storage: RowStorage<KubeObject>, opts: ListOptions): void {
  const rv = opts.resourceVersion;
  if (!rv || rv === '0') {
    if (opts.resourceVersionMatch === 'Exact') throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    return;
  }
  const located = storage.locate(rv);
  if (located === 'invalid') throw notAResourceVersion(rv);
  if (located === 'expired') throw expired(EXPIRED_MESSAGES.tooOldResourceVersion(rv, storage.resourceVersion));
  if (located === 'ahead') throw tooLargeResourceVersion(rv, storage.resourceVersion);
  if (opts.resourceVersionMatch === 'Exact' && !located.current) {
    throw expired(EXPIRED_MESSAGES.tooOldResourceVersion(rv, storage.resourceVersion));
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
  storage: RowStorage<KubeObject>,
  snapshots: ListSnapshots,
  owner: string,
  token: string,
  seen: (change: Change<KubeObject>) => boolean,
): { start: string; resourceVersion: string; rows?: readonly KubeObject[]; snapshot?: string } {
  const c = decodeContinue(token);
  const located = storage.locate(c.resourceVersion);
  if (located === 'invalid') throw badRequest('invalid continue token: continue key is not valid');
  if (typeof located === 'string') throw expired(EXPIRED_MESSAGES.continueTooOld);
  const rows = c.snapshot ? snapshots.get(c.snapshot, owner) : undefined;
  if (rows) return { start: c.start, resourceVersion: c.resourceVersion, rows, snapshot: c.snapshot };
  const changes = storage.since(c.resourceVersion);
  // Only changes the caller could see count: whether another tenant's row changed must not show (a
  // continue token is the caller's to forge, so its start is any name the caller likes).
  if (typeof changes === 'string' || changes.some((ch) => ch.object.metadata.name >= c.start && seen(ch))) throw expired(EXPIRED_MESSAGES.continueTooOld);
  return { start: c.start, resourceVersion: c.resourceVersion };
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
  const storage = resource.storage as unknown as RowStorage<KubeObject>;
  let resourceVersion = storage.resourceVersion;
  let start: string | undefined;
  let rows: readonly T[] | undefined;
  let snapshot: string | undefined;
  const owner = snapshotOwner(resource as unknown as ServedResource<KubeObject>, viewer, opts);
  if (opts.continueToken) {
    let kept: readonly KubeObject[] | undefined;
    const fields = resource.fields as unknown as ServedResource<KubeObject>['fields'];
    const sight: Sight<KubeObject> = { admits: (a) => storage.admits(viewer, a), matches: (o) => matchesSelectors(fields, opts, o) };
    // A change counts when it would make an event for this caller (a change of who may see a row that the
    // caller sees before and after it makes none: its pages did not change).
    const seen = (ch: Change<KubeObject>) => eventFor(sight, ch) !== undefined;
    ({ start, resourceVersion, rows: kept, snapshot } = continueFrom(storage, snapshots, owner, opts.continueToken, seen));
    rows = kept as readonly T[] | undefined;
  } else checkListResourceVersion(storage, opts);

  rows ??= selectRows(resource.storage, resource.fields, viewer, opts);
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

/**
 * GET: one row; one the caller may not see answers exactly as one that does not exist. A resourceVersion
 * asks for a state not older than it, as kube's get does: one this replica has reached is answered with
 * the current state (so is one it no longer retains: older still), one it has not reached is 504 as kube
 * answers after waiting (the caller waited for it already), and one that is no resourceVersion is 400.
 */
export function getRow<T extends KubeObject>(resource: ServedResource<T>, viewer: Viewer, name: string, opts: GetOptions = {}): T {
  const rv = opts.resourceVersion;
  if (rv) {
    const located = resource.storage.locate(rv);
    if (located === 'invalid') throw notAResourceVersion(rv);
    if (located === 'ahead') throw tooLargeResourceVersion(rv, resource.storage.resourceVersion);
  }
  const row = resource.storage.get(name);
  if (!row || !resource.storage.canSee(viewer, row)) throw notFound(resource.names, name);
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
