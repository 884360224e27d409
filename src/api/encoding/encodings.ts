/**
 * The JSON encodings of served rows, made once per row state and shared by every list, get and watch
 * that sends it (as kube-apiserver's cachingObject does): the object as JSON, its metadata (what a
 * PartialObjectMetadata and a Table row with includeObject=Metadata carry) and its Table cells.
 *
 * Rows are immutable: a new row state is a new object, so the cache is keyed by the row object and
 * never needs to be told that a row changed. What depends on the clock is never cached: a Table's AGE
 * cells (the columns table/columns.ts marks as ages: `translateTimestampSince(metadata.creationTimestamp,
 * now)`) are spliced into the cached cells on every request.
 *
 * Memory is bounded by use: encodings are kept in two generations that turn over every
 * {@link RETENTION_MS}; an encoding not used for two turns is dropped (an idle server keeps none), one
 * in use is kept, and one of a row state that no longer exists goes with it (weak keys).
 */
import { Gauge } from 'prom-client';
import type { KubeObject, ListMeta } from '../../kube/types';
import { registry } from '../../metrics/registry';
import type { IncludeObject, MetaGroupVersion } from '../negotiation';
import { isAgeColumn } from '../table/columns';
import { humanDuration, translateTimestampSince } from '../table/duration';
import { listMetadata } from '../table/partial';
import { INITIAL_EVENTS_END } from '../table/table';
import type { TableConvertor } from '../registration/served-resource';

/** How long an unused encoding is kept at least (and at most twice as long). */
export const RETENTION_MS = 60_000;

/** One row state's encodings, each made on first use. */
interface Encodings {
  /** The object as JSON. */
  json?: string;
  /** Its metadata as JSON: a slice of `json` when that is already made (it shares the text). */
  metadata?: string;
  /** The convertor that made `segments`. */
  cellsOf?: TableConvertor<never>;
  /**
   * The row's Table cells as JSON text around its AGE cells: `segments[0]`, the first AGE cell,
   * `segments[1]`, ... One more entry than there are AGE cells; the first opens the row (`{"cells":[`),
   * the last ends with `],"object":`.
   */
  segments?: readonly string[];
  /** metadata.creationTimestamp in ms since the epoch; NaN when there is none (AGE `<unknown>`). */
  created?: number;
  /** The row is a watch's initial-events-end bookmark: a Table row of it carries its metadata. */
  bookmark?: boolean;
}

/**
 * Two generations of weakly held encodings: a lookup moves an entry of the previous generation into the
 * current one; every turn drops the previous generation. The timer runs only while entries exist.
 */
let current = new WeakMap<object, Encodings>();
let previous = new WeakMap<object, Encodings>();
let currentSize = 0;
let previousSize = 0;
let timer: NodeJS.Timeout | undefined;

new Gauge({
  name: 'paddock_row_encodings',
  help: 'Row states whose encodings are kept (used in the last one or two retention periods; an entry used in both counts twice). 0 when no list or watch used one for two periods.',
  registers: [registry],
  collect() {
    this.set(currentSize + previousSize);
  },
});

function encodingsOf(row: object): Encodings {
  let e = current.get(row);
  if (e === undefined) {
    e = previous.get(row) ?? {};
    current.set(row, e);
    currentSize++;
    if (!timer) {
      timer = setInterval(turnEncodings, RETENTION_MS);
      timer.unref();
    }
  }
  return e;
}

/** Turns one generation over: encodings unused since the turn before are dropped (the timer does this). */
export function turnEncodings(): void {
  previous = current;
  previousSize = currentSize;
  current = new WeakMap();
  currentSize = 0;
  if (previousSize === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Drops every cached encoding (each is made again on its next use). */
export function clearEncodings(): void {
  turnEncodings();
  turnEncodings();
}

/** The JSON text of an immutable object, shared by every response that carries it. */
export function objectJson(row: object): string {
  return jsonOf(encodingsOf(row), row);
}

function jsonOf(e: Encodings, row: object): string {
  if (e.json === undefined) {
    e.json = JSON.stringify(row);
    // The metadata text, when made before, is in the object's text too: keep one copy.
    if (e.metadata !== undefined) e.metadata = sliceOf(e.json, e.metadata);
  }
  return e.json;
}

/** The JSON text of a row's metadata (a slice of its object JSON when that is made: no second copy). */
export function metadataJson(row: KubeObject): string {
  return metadataOf(encodingsOf(row), row);
}

function metadataOf(e: Encodings, row: KubeObject): string {
  if (e.metadata === undefined) {
    const text = JSON.stringify(row.metadata);
    e.metadata = e.json === undefined ? text : sliceOf(e.json, text);
  }
  return e.metadata;
}

/** `part` as a slice of `whole` (V8 keeps a slice as a reference into its parent), or `part` when absent. */
function sliceOf(whole: string, part: string): string {
  const at = whole.indexOf(`"metadata":${part}`);
  if (at < 0) return part;
  const start = at + '"metadata":'.length;
  return whole.slice(start, start + part.length);
}

/** `{"kind":"PartialObjectMetadata","apiVersion":"<gv>","metadata":` per group version. */
const POM_HEAD: Record<MetaGroupVersion, string> = {
  'meta.k8s.io/v1': '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":',
  'meta.k8s.io/v1beta1': '{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1beta1","metadata":',
};

/** A row as meta.k8s.io PartialObjectMetadata (same bytes as JSON.stringify(toPartialObjectMetadata(row))). */
export function partialObjectMetadataJson(row: KubeObject, groupVersion: MetaGroupVersion = 'meta.k8s.io/v1'): string {
  return POM_HEAD[groupVersion] + metadataJson(row) + '}';
}

/** What a convertor's cells allow to be cached, worked out once per convertor. */
interface Plan {
  /** The column definitions as JSON. */
  readonly columnsJson: string;
  /** Indexes of the AGE columns. */
  readonly ages: readonly number[];
  /** False once a row showed a cell that depends on the clock other than as AGE: nothing is cached. */
  cacheable: boolean;
}

const plans = new WeakMap<TableConvertor<never>, Plan>();

function planOf(table: TableConvertor<never>): Plan {
  let plan = plans.get(table);
  if (!plan) {
    const ages = table.columns.flatMap((c, i) => (isAgeColumn(c) ? [i] : []));
    plans.set(table, (plan = { columnsJson: JSON.stringify(table.columns), ages, cacheable: true }));
  }
  return plan;
}

/** Far enough from any `now` that every AGE cell reads differently, while no other cell may. */
const LATER_MS = 3 * 365 * 86_400_000;

/**
 * The row's cells as segments around its AGE cells, or undefined when the convertor's cells depend on
 * the clock otherwise (then nothing of it is cached, and every request computes its cells).
 */
function cellsEncoding<T extends KubeObject>(e: Encodings, table: TableConvertor<T>, plan: Plan, row: T, now: Date): Encodings | undefined {
  if (e.cellsOf === table) return e;
  if (!plan.cacheable) return undefined;
  const cells = table.cells(row, now);
  const later = table.cells(row, new Date(now.getTime() + LATER_MS));
  const timestamp = row.metadata.creationTimestamp;
  const isAge = (i: number) => plan.ages.includes(i);
  const honest =
    cells.length === later.length &&
    plan.ages.every((i) => i < cells.length && cells[i] === translateTimestampSince(timestamp, now)) &&
    cells.every((c, i) => isAge(i) || Object.is(c, later[i]) || JSON.stringify(c) === JSON.stringify(later[i]));
  if (!honest) {
    plan.cacheable = false;
    return undefined;
  }
  // Each segment is made by join, which gives one flat string: a segment built by `+=` would keep the
  // tree of its pieces (several times its length in heap).
  const segments: string[] = [];
  let parts: string[] = ['{"cells":['];
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) parts.push(',');
    if (isAge(i)) {
      segments.push(parts.join(''));
      parts = [];
    } else parts.push(JSON.stringify(cells[i]) ?? 'null');
  }
  parts.push('],"object":');
  segments.push(parts.join(''));
  e.segments = segments;
  e.created = timestamp ? Date.parse(timestamp) : NaN;
  e.cellsOf = table as TableConvertor<never>;
  return e;
}

export interface TableEncodingOptions {
  groupVersion: MetaGroupVersion;
  includeObject: IncludeObject;
  now: Date;
  /** Leave out columnDefinitions (null), as every event of a Table watch after the first. */
  noHeaders?: boolean;
}

/**
 * One Table row as JSON: the same bytes as JSON.stringify(tableRow(...)), from the row's cached cells,
 * metadata or object, with AGE as of `now`.
 */
export function tableRowJson<T extends KubeObject>(table: TableConvertor<T>, row: T, options: TableEncodingOptions): string {
  return rowJson(table, planOf(table as TableConvertor<never>), row, options);
}

function rowJson<T extends KubeObject>(table: TableConvertor<T>, plan: Plan, row: T, options: TableEncodingOptions): string {
  const e = encodingsOf(row);
  return cellsJson(e, table, plan, row, options.now) + tableRowObject(e, row, options) + '}';
}

function cellsJson<T extends KubeObject>(e: Encodings, table: TableConvertor<T>, plan: Plan, row: T, now: Date): string {
  if (!cellsEncoding(e, table, plan, row, now)) return `{"cells":${JSON.stringify(table.cells(row, now))},"object":`;
  const segments = e.segments!;
  if (segments.length === 1) return segments[0];
  const created = e.created!;
  const age = Number.isNaN(created) ? '"<unknown>"' : `"${humanDuration(now.getTime() - created)}"`;
  let text = segments[0];
  for (let i = 1; i < segments.length; i++) text += age + segments[i];
  return text;
}

function tableRowObject(e: Encodings, row: KubeObject, options: TableEncodingOptions): string {
  if (options.includeObject === 'Object') return jsonOf(e, row);
  // Read once per row state: a row's metadata may be made on each read (a flat record).
  e.bookmark ??= row.metadata.annotations?.[INITIAL_EVENTS_END] === 'true';
  if (options.includeObject === 'Metadata' || e.bookmark) return POM_HEAD[options.groupVersion] + metadataOf(e, row) + '}';
  return 'null';
}

/** Lists are made in pieces of about this many characters (each written as it is made). */
export const PIECE_CHARS = 64 * 1024;

/**
 * A Table of `rows` as JSON text in pieces of about PIECE_CHARS, made as they are asked for: the same
 * bytes as JSON.stringify(toTable(...)) once joined.
 */
export function* tableJson<T extends KubeObject>(table: TableConvertor<T>, rows: Iterable<T>, listMeta: ListMeta, options: TableEncodingOptions): Generator<string> {
  const plan = planOf(table as TableConvertor<never>);
  const head = JSON.stringify({ kind: 'Table', apiVersion: options.groupVersion, metadata: listMetadata(listMeta) });
  let text = `${head.slice(0, -1)},"columnDefinitions":${options.noHeaders ? 'null' : plan.columnsJson},"rows":[`;
  let first = true;
  for (const row of rows) {
    if (!first) text += ',';
    text += rowJson(table, plan, row, options);
    first = false;
    if (text.length >= PIECE_CHARS) {
      yield text;
      text = '';
    }
  }
  yield text + ']}';
}

/** A one-row Table of `row` (a get, a watch event) as one JSON text; metadata.resourceVersion is the row's. */
export function objectTableJson<T extends KubeObject>(table: TableConvertor<T>, row: T, options: TableEncodingOptions): string {
  let text = '';
  for (const piece of tableJson(table, [row], { resourceVersion: row.metadata.resourceVersion }, options)) text += piece;
  return text;
}

/** A PartialObjectMetadataList as JSON text in pieces: the same bytes as JSON.stringify(toPartialObjectMetadataList(...)). */
export function* partialObjectMetadataListJson(rows: Iterable<KubeObject>, listMeta: ListMeta, groupVersion: MetaGroupVersion = 'meta.k8s.io/v1'): Generator<string> {
  const head = JSON.stringify({ kind: 'PartialObjectMetadataList', apiVersion: groupVersion, metadata: listMetadata(listMeta) });
  let text = `${head.slice(0, -1)},"items":[`;
  let first = true;
  for (const row of rows) {
    if (!first) text += ',';
    text += partialObjectMetadataJson(row, groupVersion);
    first = false;
    if (text.length >= PIECE_CHARS) {
      yield text;
      text = '';
    }
  }
  yield text + ']}';
}

/** A list of objects as JSON text in pieces: `{"apiVersion":..,"kind":..,"metadata":..,"items":[..]}`. */
export function* objectListJson(rows: Iterable<object>, head: { apiVersion: string; kind: string; metadata: ListMeta }): Generator<string> {
  const text = JSON.stringify(head);
  let out = `${text.slice(0, -1)},"items":[`;
  let first = true;
  for (const row of rows) {
    if (!first) out += ',';
    out += objectJson(row);
    first = false;
    if (out.length >= PIECE_CHARS) {
      yield out;
      out = '';
    }
  }
  yield out + ']}';
}
