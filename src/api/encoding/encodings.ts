/**
 * The JSON encodings of served rows, made once per row state and shared by every list, get and watch
 * that sends it (as kube-apiserver's cachingObject does): the object as JSON, its metadata (what a
 * PartialObjectMetadata and a Table row with includeObject=Metadata carry) and its Table row. The Table
 * row is kept as UTF-8 bytes, which a Table is assembled from by copying (byte-chunks.ts): a 10k-row
 * Table is the one large body kubectl asks for, and text would be joined and encoded on every request.
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
import { ByteChunks } from './byte-chunks';
import { listChunks } from './chunk-pool';

/** How long an unused encoding is kept at least (and at most twice as long). */
export const RETENTION_MS = 60_000;

/** One row state's encodings, each made on first use. */
interface Encodings {
  /** The object as JSON. */
  json?: string;
  /** Its metadata as JSON: a slice of `json` when that is already made (it shares the text). */
  metadata?: string;
  /** The convertor that made `segments` and `metadataBytes`. */
  cellsOf?: TableConvertor<never>;
  /**
   * The row's Table row as UTF-8, less what each request makes (its AGE cells and the form of its
   * object): its cells around its AGE cells, as segments (the first opens the row, `{"cells":[`, an AGE
   * cell goes between two, and the last ends with `],"object":`), and its metadata. Bytes, so that a list
   * copies them into what it sends, with no text to join and encode per request; each a view of one
   * allocation per row state.
   */
  segments?: readonly Buffer[];
  metadataBytes?: Buffer;
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
 * The row's Table bytes (see Encodings.segments), or undefined when the convertor's cells depend on the
 * clock otherwise (then nothing of it is cached, and every request computes its cells).
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
  const texts: string[] = [];
  let text = '{"cells":[';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) text += ',';
    if (isAge(i)) {
      texts.push(text);
      text = '';
    } else text += JSON.stringify(cells[i]) ?? 'null';
  }
  texts.push(text + '],"object":');
  // The metadata's text is not kept for this, only its bytes (a row's metadata may be made on each read).
  texts.push(e.metadata ?? JSON.stringify(row.metadata));
  const bytes = Buffer.allocUnsafeSlow(texts.reduce((n, t) => n + Buffer.byteLength(t), 0));
  const views: Buffer[] = [];
  let at = 0;
  for (const t of texts) {
    const end = at + bytes.write(t, at);
    views.push(bytes.subarray(at, end));
    at = end;
  }
  e.metadataBytes = views.pop();
  e.segments = views;
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

/** The AGE cells of one request, as JSON bytes, made once per creation time (every row of that time shows the same). */
class AgeCells {
  readonly #byCreated = new Map<number, Buffer>();
  constructor(readonly now: Date) {}

  of(created: number): Buffer {
    let cell = this.#byCreated.get(created);
    if (cell === undefined) {
      cell = Buffer.from(Number.isNaN(created) ? '"<unknown>"' : `"${humanDuration(this.now.getTime() - created)}"`);
      this.#byCreated.set(created, cell);
    }
    return cell;
  }
}

const BYTE = { comma: 0x2c, close: 0x7d } as const;
const NULL_BYTES = Buffer.from('null');
const POM_HEAD_BYTES: Record<MetaGroupVersion, Buffer> = {
  'meta.k8s.io/v1': Buffer.from(POM_HEAD['meta.k8s.io/v1']),
  'meta.k8s.io/v1beta1': Buffer.from(POM_HEAD['meta.k8s.io/v1beta1']),
};

/**
 * Appends one Table row: the same bytes as JSON.stringify(tableRow(...)), copied from the row's cached
 * bytes, with AGE as of the request and its object in the form asked for.
 */
function putRow<T extends KubeObject>(out: ByteChunks, table: TableConvertor<T>, plan: Plan, row: T, options: TableEncodingOptions, ages: AgeCells): void {
  const e = encodingsOf(row);
  if (!cellsEncoding(e, table, plan, row, options.now)) {
    out.putText(`{"cells":${JSON.stringify(table.cells(row, options.now))},"object":`);
    putObject(out, e, row, options);
    out.putByte(BYTE.close);
    return;
  }
  const segments = e.segments!;
  out.put(segments[0]);
  for (let i = 1; i < segments.length; i++) {
    out.put(ages.of(e.created!));
    out.put(segments[i]);
  }
  putObject(out, e, row, options);
  out.putByte(BYTE.close);
}

/** A Table row's `object`: the object, its PartialObjectMetadata or null, as includeObject asks. */
function putObject(out: ByteChunks, e: Encodings, row: KubeObject, options: TableEncodingOptions): void {
  if (options.includeObject === 'Object') return out.putText(jsonOf(e, row));
  // Read once per row state: a row's metadata may be made on each read (a flat record).
  e.bookmark ??= row.metadata.annotations?.[INITIAL_EVENTS_END] === 'true';
  if (options.includeObject !== 'Metadata' && !e.bookmark) return out.put(NULL_BYTES);
  out.put(POM_HEAD_BYTES[options.groupVersion]);
  if (e.metadataBytes) out.put(e.metadataBytes);
  else out.putText(metadataOf(e, row));
  out.putByte(BYTE.close);
}

/** One Table row as JSON text (the same as a list's row): for tests. */
export function tableRowJson<T extends KubeObject>(table: TableConvertor<T>, row: T, options: TableEncodingOptions): string {
  const out = new ByteChunks(ONE_ROW_BYTES);
  putRow(out, table, planOf(table as TableConvertor<never>), row, options, new AgeCells(options.now));
  out.end();
  return Buffer.concat(out.ready).toString();
}

/** Lists are made in pieces of about this many characters (each written as it is made). */
export const PIECE_CHARS = 64 * 1024;
/** A Table list is made in chunks of exactly this many bytes (each written as it is made), borrowed from listChunks. */
export const PIECE_BYTES = listChunks.size;
/** The chunk size for a one-row Table: most fit in one. */
const ONE_ROW_BYTES = 4 * 1024;

/**
 * A Table of `rows` as JSON in chunks of PIECE_BYTES, made as they are asked for: the same bytes as
 * JSON.stringify(toTable(...)) once joined. The chunks are listChunks' to lend: whoever writes them gives
 * them back (sendStream does), or drops them.
 */
export function* tableJson<T extends KubeObject>(table: TableConvertor<T>, rows: Iterable<T>, listMeta: ListMeta, options: TableEncodingOptions, out = new ByteChunks(listChunks)): Generator<Buffer> {
  const plan = planOf(table as TableConvertor<never>);
  const ages = new AgeCells(options.now);
  const head = JSON.stringify({ kind: 'Table', apiVersion: options.groupVersion, metadata: listMetadata(listMeta) });
  out.putText(`${head.slice(0, -1)},"columnDefinitions":${options.noHeaders ? 'null' : plan.columnsJson},"rows":[`);
  let first = true;
  for (const row of rows) {
    if (!first) out.putByte(BYTE.comma);
    putRow(out, table, plan, row, options, ages);
    first = false;
    while (out.ready.length > 0) yield out.ready.shift()!;
  }
  out.putText(']}');
  out.end();
  yield* out.ready;
}

/** A one-row Table of `row` (a get, a watch event) as one JSON body; metadata.resourceVersion is the row's. */
export function objectTableJson<T extends KubeObject>(table: TableConvertor<T>, row: T, options: TableEncodingOptions): Buffer {
  return Buffer.concat([...tableJson(table, [row], { resourceVersion: row.metadata.resourceVersion }, options, new ByteChunks(ONE_ROW_BYTES))]);
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
