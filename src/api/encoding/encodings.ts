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
import { humanDuration, humanDurationSpan, translateTimestampSince } from '../table/duration';
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
  /** The convertor that made `row`. */
  cellsOf?: TableConvertor<never>;
  /**
   * The row's Table row as UTF-8, whole: `{"cells":[…],"object":` and its PartialObjectMetadata (v1),
   * `}`, with its AGE cells as of `rowAge`. A list copies it in one piece while its AGE reads the same (a
   * day long for a namespace days old) and the object is asked for as metadata, as kubectl asks; for
   * another form it copies the cells and writes the object. One allocation per row state and AGE: when
   * AGE moves on, the row is made again from its own bytes.
   */
  row?: Buffer;
  /** The AGE cell in `row`, as JSON (`"5d"`): every AGE cell of a row shows its creation time's age. */
  rowAge?: string;
  /** Where each AGE cell of `row` begins. */
  ageAt?: readonly number[];
  /** Where the object begins in `row`. */
  objectAt?: number;
  /** The block of a Table list this row begins (see Block). */
  block?: Block;
  /** The block whose bytes `row` is a view of, if it is one. */
  inBlock?: Block;
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
/** Counts the turns: a block records the one in which its rows were last kept in use. */
let generation = 0;
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
  generation++;
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
 * The row's whole Table row (see Encodings.row), made again as of this request's AGE when that lasts a
 * minute at least (unless `remake` is false: a block splices it in itself), or undefined when the
 * convertor's cells depend on the clock otherwise (then nothing of it is cached, and every request
 * computes its cells).
 */
function tableRowOf<T extends KubeObject>(e: Encodings, table: TableConvertor<T>, plan: Plan, row: T, ages: AgeCells, remake = true): Buffer | undefined {
  if (e.cellsOf === table) {
    if (remake && plan.ages.length > 0) {
      // A row whose AGE now reads differently for a minute at least is made again; a younger one, whose
      // AGE changes every second, keeps its row and has its AGE spliced in by each request (putSpliced).
      const age = ages.of(e.created!);
      if (age.text !== e.rowAge && lastsAMinute(ages.now.getTime() - e.created!)) againAt(e, age);
    }
    return e.row;
  }
  if (!plan.cacheable) return undefined;
  const now = ages.now;
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
  const between: string[] = [];
  let text = '{"cells":[';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) text += ',';
    if (isAge(i)) {
      between.push(text);
      text = '';
    } else text += JSON.stringify(cells[i]) ?? 'null';
  }
  between.push(text + '],"object":');
  e.created = timestamp ? Date.parse(timestamp) : NaN;
  // The metadata's text is not kept for this, only its bytes (a row's metadata may be made on each read).
  assemble(e, between, plan.ages.length > 0 ? ages.of(e.created).text : '', e.metadata ?? JSON.stringify(row.metadata));
  e.cellsOf = table as TableConvertor<never>;
  return e.row;
}

/** From this age on (10 minutes), an AGE text lasts a minute at least (humanDurationSpan). */
const AGE_BY_SECONDS_MS = 600_000;

/** Whether the AGE of an object this old (ms) reads the same for a minute at least (NaN: `<unknown>`, forever). */
function lastsAMinute(age: number): boolean {
  return !(age < AGE_BY_SECONDS_MS);
}

/** The row of `e` made again, in an allocation of its own, with AGE `cell`. */
function againAt(e: Encodings, cell: AgeCell): void {
  moveRow(e, cell, Buffer.allocUnsafeSlow(e.row!.length + e.ageAt!.length * (cell.text.length - e.rowAge!.length)), 0);
  e.inBlock = undefined;
}

/**
 * Copies e.row into `target` at `start` with AGE `cell` in place of its own, and makes that copy e.row
 * (its offsets and AGE with it). Returns where the copy ends.
 */
function moveRow(e: Encodings, cell: AgeCell, target: Buffer, start: number): number {
  const { row, rowAge, objectAt } = e as Required<Encodings>;
  const ageAt: number[] = [];
  let at = start;
  let from = 0;
  for (const a of e.ageAt!) {
    at += row.copy(target, at, from, a);
    ageAt.push(at - start);
    at += cell.bytes.copy(target, at);
    from = a + rowAge.length;
  }
  at += row.copy(target, at, from, row.length);
  e.row = target.subarray(start, at);
  e.objectAt = objectAt + ageAt.length * (cell.text.length - rowAge.length);
  e.ageAt = ageAt;
  e.rowAge = cell.text;
  return at;
}

/**
 * Makes e.row: the pieces `between` (the cells around the AGE cells: the first opens the row, the last
 * ends with `],"object":`), `age` between each two, then `metadata` as PartialObjectMetadata v1, `}`.
 */
function assemble(e: Encodings, between: readonly (string | Uint8Array)[], age: string, metadata: string | Uint8Array): void {
  const length = (piece: string | Uint8Array) => (typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length);
  const size = between.reduce((n, piece) => n + length(piece), 0) + age.length * (between.length - 1) + POM_V1_HEAD_BYTES.length + length(metadata) + 2;
  const row = Buffer.allocUnsafeSlow(size);
  let at = 0;
  const put = (piece: string | Uint8Array) => {
    if (typeof piece === 'string') at += row.write(piece, at);
    else {
      row.set(piece, at);
      at += piece.length;
    }
  };
  const ageAt: number[] = [];
  for (let i = 0; i < between.length; i++) {
    if (i > 0) {
      ageAt.push(at);
      at += row.write(age, at, 'latin1');
    }
    put(between[i]);
  }
  e.objectAt = at;
  put(POM_V1_HEAD_BYTES);
  put(metadata);
  row[at++] = BYTE.close;
  row[at++] = BYTE.close;
  e.row = row;
  e.rowAge = age;
  e.ageAt = ageAt;
  e.inBlock = undefined;
}

export interface TableEncodingOptions {
  groupVersion: MetaGroupVersion;
  includeObject: IncludeObject;
  now: Date;
  /** Leave out columnDefinitions (null), as every event of a Table watch after the first. */
  noHeaders?: boolean;
}

/** An AGE cell as JSON (`"5d"`, ASCII), as text and as bytes. */
interface AgeCell {
  readonly text: string;
  readonly bytes: Buffer;
}

/** What a row without AGE columns is spliced with: nothing, as it was made. */
const NO_AGE: AgeCell = { text: '', bytes: Buffer.alloc(0) };

/** The AGE cells of one request, made once per creation time (every row of that time shows the same). */
class AgeCells {
  readonly #byCreated = new Map<number, AgeCell>();
  constructor(readonly now: Date) {}

  of(created: number): AgeCell {
    let cell = this.#byCreated.get(created);
    if (cell === undefined) {
      const text = Number.isNaN(created) ? '"<unknown>"' : `"${humanDuration(this.now.getTime() - created)}"`;
      cell = { text, bytes: Buffer.from(text) };
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
/** The form of the object in a cached Table row. */
const POM_V1_HEAD_BYTES = POM_HEAD_BYTES['meta.k8s.io/v1'];

/**
 * Appends one Table row: the same bytes as JSON.stringify(tableRow(...)), copied from the row's cached
 * bytes, with AGE as of the request and its object in the form asked for.
 */
function putRow<T extends KubeObject>(out: ByteChunks, table: TableConvertor<T>, plan: Plan, row: T, options: TableEncodingOptions, ages: AgeCells): void {
  const e = encodingsOf(row);
  const cached = tableRowOf(e, table, plan, row, ages);
  if (!cached) {
    out.putText(`{"cells":${JSON.stringify(table.cells(row, options.now))},"object":`);
    putObject(out, e, row, options);
    out.putByte(BYTE.close);
    return;
  }
  // kubectl's form is the cached row whole; any other form is its cells, then the object as asked.
  const whole = options.groupVersion === 'meta.k8s.io/v1' && carriesMetadata(e, row, options);
  const age = plan.ages.length > 0 ? ages.of(e.created!) : NO_AGE;
  putSpliced(out, e, age, whole ? cached.length : e.objectAt!);
  if (whole) return;
  putObject(out, e, row, options);
  out.putByte(BYTE.close);
}

/** `e.row` up to `end`, with the AGE cell `age` in place of its own (in one piece when they read the same). */
function putSpliced(out: ByteChunks, e: Encodings, age: AgeCell, end: number): void {
  const { row, ageAt, rowAge } = e as Required<Encodings>;
  if (age.text === rowAge) return out.put(row, 0, end);
  let from = 0;
  for (const at of ageAt) {
    out.put(row, from, at);
    out.put(age.bytes);
    from = at + rowAge.length;
  }
  out.put(row, from, end);
}

/** Whether a Table row's object is its PartialObjectMetadata: asked for, or the initial-events-end bookmark's (which always is). */
function carriesMetadata(e: Encodings, row: KubeObject, options: TableEncodingOptions): boolean {
  if (options.includeObject === 'Object') return false;
  // Read once per row state: a row's metadata may be made on each read (a flat record).
  e.bookmark ??= row.metadata.annotations?.[INITIAL_EVENTS_END] === 'true';
  return options.includeObject === 'Metadata' || e.bookmark;
}

/** A Table row's `object`: the object, its PartialObjectMetadata or null, as includeObject asks. */
function putObject(out: ByteChunks, e: Encodings, row: KubeObject, options: TableEncodingOptions): void {
  if (options.includeObject === 'Object') return out.putText(jsonOf(e, row));
  if (!carriesMetadata(e, row, options)) return out.put(NULL_BYTES);
  out.put(POM_HEAD_BYTES[options.groupVersion]);
  if (e.row) out.put(e.row, e.objectAt! + POM_V1_HEAD_BYTES.length, e.row.length - 2);
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

/** Rows in a block (see Block): about 80 KiB of a namespace Table. */
const BLOCK_ROWS = 128;

/**
 * A run of BLOCK_ROWS consecutive rows of a Table list, as one piece: their whole Table rows (kubectl's
 * form) joined by commas. A list that has the same row states in the same run copies the block, at a
 * time every AGE in it reads the same in one piece, otherwise with each row's AGE spliced in; the
 * admin's 10k-row Table is otherwise 10k lookups and copies of rows scattered over the heap, for the same
 * bytes as the list before. The rows' own `row` become views of the block: its bytes are not held twice.
 * Kept on the encodings of the block's first row, so it goes with them; a change of a row state in the
 * run makes it again, and so does AGE moving on when the block's AGE cells would then read the same for
 * REMAKE_MIN_MS at least (see worthRemaking).
 */
interface Block {
  readonly table: TableConvertor<never>;
  readonly rows: readonly object[];
  readonly bytes: Buffer;
  /** Every AGE cell of the block reads as in `bytes` from `since` to before `until` (ms since the epoch). */
  readonly since: number;
  readonly until: number;
  /** Until then (ms since the epoch), AGE moving on is spliced in, not made again (see worthRemaking). */
  spliceUntil: number;
  /** Each row's creation time (NaN: none), where each of its AGE cells begins in `bytes`, and their length. */
  readonly created: Float64Array;
  readonly ageAt: Uint32Array;
  readonly ageLength: Uint8Array;
  /** The turn in which its rows' encodings were last kept in use. */
  kept: number;
}

/**
 * Appends the block of rows[i, i + BLOCK_ROWS) (made if need be) and returns how many rows it holds, or
 * 0 when there is none to make: fewer rows than a block, or rows whose Table is not cached.
 */
function putBlock<T extends KubeObject>(out: ByteChunks, table: TableConvertor<T>, plan: Plan, rows: readonly T[], i: number, ages: AgeCells): number {
  if (rows.length - i < BLOCK_ROWS || !plan.cacheable) return 0;
  const now = ages.now.getTime();
  const block = encodingsOf(rows[i]).block;
  let same = block !== undefined && block.table === table;
  for (let k = 0; same && k < BLOCK_ROWS; k++) same = block!.rows[k] === rows[i + k];
  if (same && (now >= block!.since && now < block!.until || !worthRemaking(block!, now))) {
    // The rows' encodings stay in use while their block is: kept once per turn, not on every list.
    if (block!.kept !== generation) {
      for (let k = 1; k < BLOCK_ROWS; k++) encodingsOf(rows[i + k]);
      block!.kept = generation;
    }
    if (now >= block!.since && now < block!.until) out.put(block!.bytes);
    else putBlockSpliced(out, block!, plan.ages.length, ages);
    return BLOCK_ROWS;
  }
  const made = makeBlock(table, plan, rows.slice(i, i + BLOCK_ROWS), ages);
  if (!made) return 0;
  out.put(made.bytes);
  return BLOCK_ROWS;
}

/**
 * A block is made again, to be copied whole, only if its AGE cells would then read the same this long at
 * least. Rows whose AGE moves on every minute or faster (under 8 hours old) each move at a time of their
 * own, so that those of a block seldom read the same for a second: made again, such a block would be made
 * again on every list, 6 MB of new memory for 10k rows, where splicing the AGE in allocates nothing. Rows
 * created together (in bulk) move on together: their block is made again once the last of them has moved
 * on, once a minute, and copied whole in between; so this is below the minute an AGE in minutes lasts.
 */
const REMAKE_MIN_MS = 30_000;

/** A block not worth making again is asked again no sooner than this (once the next AGE has moved on). */
const REMAKE_RECHECK_MS = 1000;

/**
 * Whether the block, whose AGE cells no longer read as made, is worth making again now (see
 * REMAKE_MIN_MS). When it is not, lists splice its AGE in without asking until block.spliceUntil.
 */
function worthRemaking(block: Block, now: number): boolean {
  if (now < block.spliceUntil) return false;
  block.spliceUntil = spliceUntilOf(ageSpan(block.created, now)[1], now);
  return block.spliceUntil === -Infinity;
}

/**
 * When a block whose AGE cells read the same until `until` is next asked whether to be made again: never
 * (-Infinity) when it is worth it now; otherwise once the next AGE has moved on, a second from now at the
 * soonest.
 */
function spliceUntilOf(until: number, now: number): number {
  return until - now >= REMAKE_MIN_MS ? -Infinity : Math.max(until, now + REMAKE_RECHECK_MS);
}

/**
 * When the AGE cells of rows created at `created` (NaN: none, `<unknown>` forever) all read as they do at
 * `now`: from `since` to before `until` (ms since the epoch).
 */
function ageSpan(created: Float64Array, now: number): [since: number, until: number] {
  let since = -Infinity;
  let until = Infinity;
  for (const c of created) {
    if (Number.isNaN(c)) continue;
    const [from, to] = humanDurationSpan(now - c);
    since = Math.max(since, c + from);
    until = Math.min(until, c + to);
  }
  return [since, until];
}

/** The block's bytes with each row's AGE as of this request. */
function putBlockSpliced(out: ByteChunks, block: Block, agesPerRow: number, ages: AgeCells): void {
  const { bytes, created, ageAt, ageLength } = block;
  let from = 0;
  for (let k = 0; k < created.length; k++) {
    const cell = ages.of(created[k]).bytes;
    for (let j = k * agesPerRow; j < (k + 1) * agesPerRow; j++) {
      out.put(bytes, from, ageAt[j]);
      out.put(cell);
      from = ageAt[j] + ageLength[k];
    }
  }
  out.put(bytes, from, bytes.length);
}

function makeBlock<T extends KubeObject>(table: TableConvertor<T>, plan: Plan, rows: readonly T[], ages: AgeCells): Block | undefined {
  const now = ages.now.getTime();
  const agesPerRow = plan.ages.length;
  const parts: Encodings[] = [];
  const cells: AgeCell[] = [];
  let size = rows.length - 1;
  for (const row of rows) {
    const e = encodingsOf(row);
    const bytes = tableRowOf(e, table, plan, row, ages, false);
    if (!bytes) return undefined;
    const cell = agesPerRow > 0 ? ages.of(e.created!) : NO_AGE;
    parts.push(e);
    cells.push(cell);
    size += bytes.length + agesPerRow * (cell.bytes.length - e.rowAge!.length);
  }
  // The blocks these rows were views of: what they held of rows not in this one is let go below.
  const before = new Set<Block>();
  for (const e of parts) if (e.inBlock) before.add(e.inBlock);
  const bytes = Buffer.allocUnsafeSlow(size);
  const created = new Float64Array(rows.length);
  const ageAt = new Uint32Array(rows.length * agesPerRow);
  const ageLength = new Uint8Array(rows.length);
  let at = 0;
  for (let k = 0; k < parts.length; k++) {
    const e = parts[k];
    const cell = cells[k];
    if (k > 0) bytes[at++] = BYTE.comma;
    // The row as of this request's AGE, which it then is a view of.
    const end = moveRow(e, cell, bytes, at);
    for (let j = 0; j < agesPerRow; j++) ageAt[k * agesPerRow + j] = at + e.ageAt![j];
    at = end;
    created[k] = e.created ?? Number.NaN;
    ageLength[k] = cell.text.length;
  }
  const [since, until] = agesPerRow > 0 ? ageSpan(created, now) : [-Infinity, Infinity];
  const block: Block = { table: table as TableConvertor<never>, rows, bytes, since, until, spliceUntil: spliceUntilOf(until, now), created, ageAt, ageLength, kept: generation };
  for (const e of parts) e.inBlock = block;
  for (const old of before) letGo(old);
  parts[0].block = block;
  // A row that no longer begins a block keeps none: an older block (the list has shifted) would hold its
  // bytes and the row states it was made of for as long as this row is listed.
  for (let k = 1; k < parts.length; k++) parts[k].block = undefined;
  return block;
}

/**
 * Lets go of a block no row is a view of any more but the states it held that are not in a newer one (a
 * row changed or gone): each gets its own copy of its bytes, so that an old state a watch's history
 * still holds keeps 600 bytes alive, not its block's 80 KiB. Looks at those states without keeping them.
 */
function letGo(old: Block): void {
  for (const row of old.rows) {
    const e = current.get(row) ?? previous.get(row);
    if (e?.inBlock !== old) continue;
    const own = Buffer.allocUnsafeSlow(e.row!.length);
    e.row!.copy(own);
    e.row = own;
    e.inBlock = undefined;
  }
}

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
  // kubectl's form of a list comes in blocks where it can (see Block), other rows and forms row by row.
  const blocks = options.groupVersion === 'meta.k8s.io/v1' && options.includeObject === 'Metadata';
  const list = Array.isArray(rows) ? (rows as readonly T[]) : [...rows];
  for (let i = 0; i < list.length; ) {
    if (i > 0) out.putByte(BYTE.comma);
    const n = blocks && i % BLOCK_ROWS === 0 ? putBlock(out, table, plan, list, i, ages) : 0;
    if (n === 0) {
      // Likewise a row written alone where blocks are made (see makeBlock).
      if (blocks) encodingsOf(list[i]).block = undefined;
      putRow(out, table, plan, list[i], options, ages);
    }
    i += n || 1;
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
