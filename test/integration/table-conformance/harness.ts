/**
 * The Table conformance harness: a view's Table, as Paddock serves it through kube-apiserver, compared
 * with kube-apiserver's own Table of the source objects — column definitions and every cell, for each
 * meta.k8s.io version and includeObject — and each view object with its source object. kube-apiserver is
 * the oracle: nothing here knows what a column should say.
 *
 * AGE is the one cell that moves while it is read, so each comparison reads kube-apiserver's Table, then
 * Paddock's, then kube-apiserver's again: every Paddock cell must equal the cell before or the cell after,
 * and an AGE cell may also lie between them.
 */
import { isDeepStrictEqual } from 'node:util';
import { controlPlane, httpsRequest, kubectl, parseTable } from '../env';
import type { TableCorpus } from './corpus';
import { AdminWatch } from './stream';

export const META_VERSIONS = ['v1', 'v1beta1'] as const;
export const INCLUDE_OBJECT = ['None', 'Metadata', 'Object'] as const;
type MetaVersion = (typeof META_VERSIONS)[number];
type IncludeObject = (typeof INCLUDE_OBJECT)[number];

const VIEW_PREFIX = '/apis/tenancy.paddock.dev/v1alpha1';

/** The label the harness writes on a source object to make its view row change under a watch. */
const TOUCH_LABEL = 'conformance.paddock.dev/touched';

export interface Table {
  kind: string;
  apiVersion: string;
  columnDefinitions: Record<string, unknown>[];
  rows: { cells: unknown[]; object?: Record<string, any> | null }[];
}

/** A GET through kube-apiserver as admin (who sees every row of every view). */
async function getAsAdmin(path: string, accept: string): Promise<any> {
  const { pki, server } = controlPlane();
  const res = await httpsRequest(`${server}${path}`, { cert: pki.users['admin'], headers: { Accept: accept } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body}`);
  return JSON.parse(res.body);
}

function listPath(base: string, selector: string, includeObject?: IncludeObject): string {
  const q = new URLSearchParams({ labelSelector: selector });
  if (includeObject) q.set('includeObject', includeObject);
  return `${base}?${q}`;
}

/** One difference between Paddock's answer and kube-apiserver's, with what a reader needs to find it. */
export interface Mismatch {
  view: string;
  where: string;
  object?: string;
  column?: string;
  paddock: unknown;
  kube: unknown;
}

export class Comparison {
  readonly mismatches: Mismatch[] = [];

  constructor(private readonly corpus: TableCorpus, private readonly selector: string) {}

  private add(m: Omit<Mismatch, 'view'>): void {
    this.mismatches.push({ view: this.corpus.view, ...m });
  }

  /** Paddock's value must be one of kube-apiserver's (read before and after it); an age may lie between. */
  private check(where: string, paddock: unknown, kube: readonly unknown[], object?: string, column?: string): void {
    if (column?.toLowerCase() === 'age' && kube.length === 2 && between(kube[0], paddock, kube[1])) return;
    if (!kube.some((k) => isDeepStrictEqual(paddock, k))) this.add({ where, object, column, paddock, kube: kube.length === 1 || isDeepStrictEqual(kube[0], kube[1]) ? kube[0] : kube });
  }

  /** The columns compared: all of kube-apiserver's, or those the view shares with it by name. */
  private columns(kube: Table, paddock: Table): { kube: number; paddock: number; name: string }[] {
    const names = kube.columnDefinitions.map((c) => c.name as string);
    if (!this.corpus.sharedColumnsOnly) {
      return names.map((name, i) => ({ kube: i, paddock: i, name }));
    }
    const paddockNames = paddock.columnDefinitions.map((c) => c.name as string);
    return names.filter((n) => paddockNames.includes(n)).map((name) => ({ kube: names.indexOf(name), paddock: paddockNames.indexOf(name), name }));
  }

  /** Compares one version × includeObject of the Tables: headers, rows in order, cells, row objects. */
  async tables(version: MetaVersion, includeObject: IncludeObject): Promise<void> {
    const where = `Table ${version} includeObject=${includeObject}`;
    const sourcePath = listPath(this.corpus.source, this.selector, includeObject);
    const viewPath = listPath(`${VIEW_PREFIX}/${this.corpus.view}`, this.selector, includeObject);
    const accept = `application/json;as=Table;v=${version};g=meta.k8s.io`;
    const before: Table = await getAsAdmin(sourcePath, accept);
    const paddock: Table = await getAsAdmin(viewPath, accept);
    const after: Table = await getAsAdmin(sourcePath, accept);
    // Row names, for messages: the source objects' (from a Metadata Table when rows carry none).
    const names = (before.rows[0]?.object ? before : await getAsAdmin(listPath(this.corpus.source, this.selector, 'Metadata'), accept) as Table)
      .rows.map((r) => r.object?.metadata?.name as string);

    this.check(`${where}: kind, apiVersion`, [paddock.kind, paddock.apiVersion], [[before.kind, before.apiVersion]]);
    const columns = this.columns(before, paddock);
    if (!this.corpus.sharedColumnsOnly) this.check(`${where}: column names`, paddock.columnDefinitions.map((c) => c.name), [before.columnDefinitions.map((c) => c.name)]);
    for (const c of columns) this.check(`${where}: column definition`, paddock.columnDefinitions[c.paddock], [before.columnDefinitions[c.kube]], undefined, c.name);
    if (before.rows.length !== after.rows.length) throw new Error(`${this.corpus.source} changed its rows while read`);
    this.check(`${where}: row count`, paddock.rows.length, [before.rows.length]);
    paddock.rows.forEach((row, i) => {
      const [b, a] = [before.rows[i], after.rows[i]];
      if (!b || !a) return;
      for (const c of columns) this.check(`${where}: cell`, row.cells[c.paddock], [b.cells[c.kube], a.cells[c.kube]], names[i], c.name);
      this.rowObject(where, row.object, b.object, names[i]);
    });
  }

  /** None: no object in either; Metadata: the view's projected metadata; Object: the view object. */
  private rowObject(where: string, paddock: Record<string, any> | null | undefined, kube: Record<string, any> | null | undefined, name: string | undefined): void {
    if (!paddock || !kube) {
      this.check(`${where}: row object`, paddock ?? null, [kube ?? null], name);
      return;
    }
    if (kube.kind === 'PartialObjectMetadata') {
      this.check(`${where}: row object kind`, [paddock.kind, paddock.apiVersion], [[kube.kind, kube.apiVersion]], name);
      if (this.corpus.projection) this.check(`${where}: row object metadata`, ownMetadata(paddock.metadata), [this.corpus.projection(kube).metadata], name);
      return;
    }
    this.check(`${where}: row object kind`, [paddock.kind, paddock.apiVersion], [[this.corpus.viewKind, 'tenancy.paddock.dev/v1alpha1']], name);
    this.objectBody(`${where}: row object`, paddock, kube, name);
  }

  /** A view object against its source object: its metadata as projected, each body field. */
  objectBody(where: string, paddock: Record<string, any>, source: Record<string, any>, name: string | undefined): void {
    if (!this.corpus.projection) return;
    const expected = this.corpus.projection(source);
    this.check(`${where} metadata`, ownMetadata(paddock.metadata), [expected.metadata], name);
    const { apiVersion: _v, kind: _k, metadata: _m, ...body } = paddock;
    for (const field of new Set([...Object.keys(body), ...Object.keys(expected.body)])) {
      this.check(`${where} body`, body[field], [expected.body[field]], name, field);
    }
  }

  /**
   * A Table watch of the view from the start (its initial ADDED events): each event's row is the row the
   * view's list prints for the same object — cells and object — and only the first event has headers.
   */
  async watchRows(version: MetaVersion): Promise<void> {
    const where = `Table ${version} watch`;
    const accept = `application/json;as=Table;v=${version};g=meta.k8s.io`;
    const viewPath = listPath(`${VIEW_PREFIX}/${this.corpus.view}`, this.selector, 'Metadata');
    const before: Table = await getAsAdmin(viewPath, accept);
    const { pki, server } = controlPlane();
    const res = await httpsRequest(`${server}${viewPath}&watch=1&timeoutSeconds=1`, { cert: pki.users['admin'], headers: { Accept: accept } });
    const after: Table = await getAsAdmin(viewPath, accept);
    const events = res.body.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: Table });
    const added = events.filter((e) => e.type === 'ADDED');
    this.check(`${where}: ADDED events`, added.length, [before.rows.length]);
    added.forEach((e, i) => {
      this.check(`${where}: headers`, e.object.columnDefinitions, [i === 0 ? before.columnDefinitions : null]);
      const row = e.object.rows[0]!;
      const name = row.object?.metadata?.name as string;
      const listed = (t: Table) => t.rows.find((r) => r.object?.metadata?.name === name);
      row.cells.forEach((cell, c) => this.check(`${where}: cell`, cell, [listed(before)?.cells[c], listed(after)?.cells[c]], name, before.columnDefinitions[c]?.name as string));
      const listedObject = listed(before)?.object;
      this.check(`${where}: row object`, row.object && { ...row.object, metadata: ownMetadata(row.object.metadata) }, [listedObject && { ...listedObject, metadata: ownMetadata(listedObject.metadata) }], name);
    });
  }

  /**
   * A Table watch of the view from a list's resourceVersion while the first row's source object is
   * relabelled: the MODIFIED event's row is the row the view's list prints for the same state.
   */
  async watchModified(version: MetaVersion, touch: number): Promise<void> {
    const where = `Table ${version} watch MODIFIED`;
    const accept = `application/json;as=Table;v=${version};g=meta.k8s.io`;
    const viewPath = listPath(`${VIEW_PREFIX}/${this.corpus.view}`, this.selector, 'Metadata');
    const list: Table & { metadata: { resourceVersion: string } } = await getAsAdmin(viewPath, accept);
    const name = list.rows[0]?.object?.metadata?.name as string;
    const watch = await AdminWatch.open(`${viewPath}&watch=1&resourceVersion=${encodeURIComponent(list.metadata.resourceVersion)}`, accept);
    try {
      const res = await kubectl('admin', ['label', '--overwrite', sourceResourceName(this.corpus.source), name, `${TOUCH_LABEL}=${touch}`]);
      if (res.code !== 0) throw new Error(`kubectl label ${name}: ${res.stderr}`);
      const touched = (t: Table) => t.rows.find((r) => r.object?.metadata?.name === name && r.object?.metadata?.labels?.[TOUCH_LABEL] === String(touch));
      const event = await watch.next(`a MODIFIED event of ${name} labelled ${touch}`, (e) => e.type === 'MODIFIED' && !!touched(e.object));
      const after: Table = await getAsAdmin(viewPath, accept);
      const row = touched(event.object)!;
      const listed = touched(after);
      // Only the first event of a Table watch has headers, whatever its type.
      this.check(`${where}: headers`, event.object.columnDefinitions, [watch.events.indexOf(event) === 0 ? list.columnDefinitions : null]);
      // The event's row as of the change: its cells are the list's after it, its AGE between the lists'.
      const before = list.rows.find((r) => r.object?.metadata?.name === name)!;
      row.cells.forEach((cell, c) => {
        const column = list.columnDefinitions[c]?.name as string;
        this.check(`${where}: cell`, cell, column.toLowerCase() === 'age' ? [before.cells[c], listed?.cells[c]] : [listed?.cells[c]], name, column);
      });
      this.check(`${where}: row object`, { ...row.object, metadata: ownMetadata(row.object!.metadata) }, [listed?.object && { ...listed.object, metadata: ownMetadata(listed.object.metadata) }], name);
    } finally {
      watch.close();
    }
  }

  /** `kubectl get` as admin, plain and `-o wide`: the printed text of the view and of the source, cell by cell. */
  async kubectlOutput(wide: boolean): Promise<void> {
    const where = `kubectl get${wide ? ' -o wide' : ''}`;
    const args = (resource: string) => ['get', resource, '-l', this.selector, ...(wide ? ['-o', 'wide'] : [])];
    const sourceResource = sourceResourceName(this.corpus.source);
    const read = async (resource: string) => {
      const res = await kubectl('admin', args(resource));
      if (res.code !== 0) throw new Error(`kubectl ${args(resource).join(' ')}: ${res.stderr}`);
      return parseTable(res.stdout);
    };
    const before = await read(sourceResource);
    const paddock = await read(this.corpus.view);
    const after = await read(sourceResource);
    const headers = Object.keys(before[0] ?? {});
    const shared = this.corpus.sharedColumnsOnly ? headers.filter((h) => h in (paddock[0] ?? {})) : headers;
    if (!this.corpus.sharedColumnsOnly) this.check(`${where}: header`, Object.keys(paddock[0] ?? {}), [headers]);
    this.check(`${where}: row count`, paddock.length, [before.length]);
    paddock.forEach((row, i) => {
      for (const h of shared) this.check(`${where}: cell`, row[h], [before[i]?.[h], after[i]?.[h]], before[i]?.['NAME'], h);
    });
  }
}

/** Seconds of an age as kube prints it (`2m5s`, `3d4h`), or undefined when the cell is not one. */
function seconds(age: unknown): number | undefined {
  if (typeof age !== 'string' || !/^(\d+[ydhms])+$/.test(age)) return undefined;
  const unit: Record<string, number> = { y: 365 * 86400, d: 86400, h: 3600, m: 60, s: 1 };
  return [...age.matchAll(/(\d+)([ydhms])/g)].reduce((sum, [, n, u]) => sum + Number(n) * unit[u!]!, 0);
}

/** `age` lies between the ages read before and after it. */
function between(before: unknown, age: unknown, after: unknown): boolean {
  const [b, p, a] = [seconds(before), seconds(age), seconds(after)];
  return b !== undefined && p !== undefined && a !== undefined && b <= p && p <= a;
}

/**
 * A view object's metadata without its resourceVersion, which is the view's own (a sealed version of
 * the view's log, SPEC §9), never the source's; its presence is required.
 */
function ownMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const { resourceVersion, ...rest } = metadata;
  return typeof resourceVersion === 'string' && resourceVersion ? rest : { ...rest, resourceVersion };
}

/** `storageclasses.storage.k8s.io` from `/apis/storage.k8s.io/v1/storageclasses`, `nodes` from `/api/v1/nodes`. */
function sourceResourceName(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts[0] === 'api' ? parts[2]! : `${parts[3]}.${parts[1]}`;
}

/** The JSON lists of the view and of its source (for the wait until Paddock's cache has caught up). */
export async function lists(corpus: TableCorpus, selector: string): Promise<{ view: any[]; source: any[] }> {
  const [view, source] = await Promise.all([
    getAsAdmin(listPath(`${VIEW_PREFIX}/${corpus.view}`, selector), 'application/json'),
    getAsAdmin(listPath(corpus.source, selector), 'application/json'),
  ]);
  return { view: view.items, source: source.items };
}

/** Mismatches as a reader wants them: one block per difference. */
export function report(mismatches: readonly Mismatch[]): string {
  return mismatches.map((m) => [
    `${m.view}: ${m.where}${m.object ? ` — object ${m.object}` : ''}${m.column ? ` — column ${m.column}` : ''}`,
    `  paddock: ${JSON.stringify(m.paddock)}`,
    `  kube:    ${JSON.stringify(m.kube)}`,
  ].join('\n')).join('\n');
}
