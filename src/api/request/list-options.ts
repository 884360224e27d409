import { parseFieldSelector, type FieldSelector } from '../../selectors/field-selector';
import { SelectorParseError } from '../../selectors/errors';
import { parseLabelSelector, type LabelSelector } from '../../selectors/label-selector';
import { badRequest, unsupportedFieldLabel } from '../status';
import { truncateForMessage } from '../status/quote';
import { single } from './query';

/** The query parameters of a list or watch (metav1.ListOptions), validated. */
export interface ListOptions {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  /** 0 = no limit. */
  limit: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
  /** Seconds; undefined = the server's default. */
  timeoutSeconds?: number;
}

type Query = URLSearchParams;

/** Go's strconv.ParseBool, as kube reads boolean query parameters. */
function bool(q: Query, name: string): boolean | undefined {
  const v = single(q, name);
  if (v === undefined || v === '') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw badRequest(`strconv.ParseBool: parsing "${v}": invalid syntax`);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(v, 10, 64), as kube reads integer query parameters: any int64, nothing beyond. */
function int(q: Query, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing "${truncateForMessage(v)}": invalid syntax`);
  const n = BigInt(v);
  if (n < INT64_MIN || n > INT64_MAX) throw badRequest(`strconv.ParseInt: parsing "${truncateForMessage(v)}": value out of range`);
  return Number(n);
}

/**
 * Reads list/watch query parameters as kube-apiserver does and applies its validation (ListOptions
 * validation in apimachinery): selectors must parse and name the resource's `fieldLabels`, `resourceVersionMatch`
 * needs a resourceVersion, `sendInitialEvents` needs a watch with bookmarks and NotOlderThan.
 */
export function parseListOptions(q: Query, fieldLabels: readonly string[]): ListOptions {
  const opts: ListOptions = { limit: 0, watch: bool(q, 'watch') ?? false, allowWatchBookmarks: bool(q, 'allowWatchBookmarks') ?? false };
  const labelSelector = single(q, 'labelSelector');
  const fieldSelector = single(q, 'fieldSelector');
  try {
    if (labelSelector) opts.labelSelector = parseLabelSelector(labelSelector);
    if (fieldSelector) opts.fieldSelector = parseFieldSelector(fieldSelector);
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
  for (const r of opts.fieldSelector?.requirements ?? []) {
    if (!fieldLabels.includes(r.field)) throw unsupportedFieldLabel(r.field);
  }
  const limit = int(q, 'limit');
  if (limit !== undefined && limit > 0) opts.limit = limit;
  const cont = single(q, 'continue');
  if (cont) opts.continueToken = cont;
  const rv = single(q, 'resourceVersion');
  if (rv) opts.resourceVersion = rv;
  const match = single(q, 'resourceVersionMatch');
  if (match) {
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      throw badRequest(`resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`);
    }
    opts.resourceVersionMatch = match;
  }
  const timeout = int(q, 'timeoutSeconds');
  if (timeout !== undefined) {
    if (timeout < 0) throw badRequest(`timeoutSeconds: Invalid value: ${timeout}: must be greater than or equal to 0`);
    opts.timeoutSeconds = timeout;
  }
  const sie = bool(q, 'sendInitialEvents');
  if (sie !== undefined) opts.sendInitialEvents = sie;

  if (opts.resourceVersionMatch && !opts.resourceVersion && !(opts.watch && opts.sendInitialEvents !== undefined)) {
    throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  }
  if (opts.continueToken && opts.resourceVersion && opts.resourceVersion !== '0') {
    throw badRequest('resourceVersion: Forbidden: specifying resource version is not allowed when using continue');
  }
  if (opts.sendInitialEvents !== undefined) {
    if (!opts.watch) throw badRequest('sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
    if (opts.resourceVersionMatch !== 'NotOlderThan') {
      throw badRequest("resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
    }
    if (opts.sendInitialEvents && !opts.allowWatchBookmarks) {
      throw badRequest('allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true');
    }
  } else if (opts.watch && opts.resourceVersionMatch) {
    throw badRequest('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  }
  return opts;
}
