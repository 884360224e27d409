import type { KubeObject, TenantNamespace } from '../../kube/types';
import type { IncludeObject, MetaGroupVersion } from '../negotiation';
import { AGE_COLUMN, column, INITIAL_EVENTS_END, NAME_COLUMN, toObjectTable, toPartialObjectMetadata, toPartialObjectMetadataList, toTable, translateTimestampSince } from '../table';
import { TENANT_NAMESPACE_TABLE } from '../resources/tenantnamespaces/tenant-namespace-table';
import { PRIORITY_CLASSES } from '../resources/classes';
import { OWNED_TENANTS } from '../resources/owned-tenants';
import {
  clearEncodings, metadataJson, objectJson, objectListJson, objectTableJson, partialObjectMetadataJson, partialObjectMetadataListJson, PIECE_BYTES, PIECE_CHARS, tableJson, tableRowJson, turnEncodings,
} from './encodings';
import { registry } from '../../metrics/registry';
import { ByteChunks } from './byte-chunks';
import { listChunks } from './chunk-pool';
import { alive, collectGarbage } from '../../testing/collect';
import type { TableConvertor } from '../registration/served-resource';

const now = new Date('2026-03-04T05:06:07Z');
const join = (pieces: Iterable<string | Buffer>) => Buffer.concat([...pieces].map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString();

function tns(name: string, extra: Partial<TenantNamespace['metadata']> = {}): TenantNamespace {
  return Object.freeze({
    kind: 'TenantNamespace',
    apiVersion: 'tenancy.paddock.dev/v1alpha1',
    metadata: Object.freeze({ name, uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-03-01T00:00:00Z', labels: { 'paddock.dev/tenant': 'oil' }, ...extra }),
    spec: { tenant: 'oil' },
    status: { phase: 'Active', owners: [{ kind: 'User', name: 'alice', role: 'admin' }], quota: { hard: { cpu: '2' }, used: { cpu: '1' } } },
  } as TenantNamespace);
}

const rows = [
  tns('oil-a'),
  tns('oil-b', { labels: { 'paddock.dev/tenant': 'oil', note: 'café ☕ "quoted" \\ \u2028' } }),
  tns('oil-c', { creationTimestamp: undefined }),
  tns('oil-d', { annotations: { [INITIAL_EVENTS_END]: 'true' } }),
];

/** A convertor that counts how often it computes cells. */
function counting<T>(table: TableConvertor<T>): TableConvertor<T> & { calls: number } {
  const c = { columns: table.columns, calls: 0, cells: (row: T, at: Date) => (c.calls++, table.cells(row, at)) };
  return c;
}

beforeEach(() => clearEncodings());

describe('row encodings: the same bytes as encoding the objects', () => {
  const forms: [IncludeObject, MetaGroupVersion][] = [
    ['Metadata', 'meta.k8s.io/v1'], ['None', 'meta.k8s.io/v1'], ['Object', 'meta.k8s.io/v1'],
    ['Metadata', 'meta.k8s.io/v1beta1'], ['None', 'meta.k8s.io/v1beta1'], ['Object', 'meta.k8s.io/v1beta1'],
  ];

  it.each(forms)('Table list with includeObject=%s, %s, first and second time', (includeObject, groupVersion) => {
    const listMeta = { resourceVersion: '9', continue: 'tok', remainingItemCount: 2 };
    const expected = JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, rows, listMeta, { groupVersion, includeObject, now }));
    expect(join(tableJson(TENANT_NAMESPACE_TABLE, rows, listMeta, { groupVersion, includeObject, now }))).toBe(expected);
    expect(join(tableJson(TENANT_NAMESPACE_TABLE, rows, listMeta, { groupVersion, includeObject, now }))).toBe(expected);
    expect(tableRowJson(TENANT_NAMESPACE_TABLE, rows[1], { groupVersion, includeObject, now })).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, [rows[1]], {}, { groupVersion, includeObject, now }).rows[0]));
  });

  it.each(forms)('one-row Table (get, watch event) with includeObject=%s, %s, with and without headers', (includeObject, groupVersion) => {
    for (const noHeaders of [false, true]) {
      const expected = JSON.stringify(toObjectTable(TENANT_NAMESPACE_TABLE, rows[0], { groupVersion, includeObject, now, noHeaders }));
      expect(objectTableJson(TENANT_NAMESPACE_TABLE, rows[0], { groupVersion, includeObject, now, noHeaders }).toString()).toBe(expected);
    }
  });

  it('empty lists, lists without list metadata', () => {
    expect(join(tableJson(TENANT_NAMESPACE_TABLE, [], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now }))).toBe(
      JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, [], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now })),
    );
    expect(join(partialObjectMetadataListJson([], { resourceVersion: '3', continue: '' }))).toBe(JSON.stringify(toPartialObjectMetadataList([], { resourceVersion: '3', continue: '' })));
    const head = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespaceList', metadata: {} };
    expect(join(objectListJson([], head))).toBe(JSON.stringify({ ...head, items: [] }));
  });

  it('object lists, PartialObjectMetadata(List), objects and metadata', () => {
    const metadata = { resourceVersion: '9', continue: 'tok', remainingItemCount: 0 };
    const head = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespaceList', metadata };
    expect(join(objectListJson(rows, head))).toBe(JSON.stringify({ ...head, items: rows }));
    for (const gv of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1'] as const) {
      expect(join(partialObjectMetadataListJson(rows, metadata, gv))).toBe(JSON.stringify(toPartialObjectMetadataList(rows, metadata, gv)));
      expect(partialObjectMetadataJson(rows[1], gv)).toBe(JSON.stringify(toPartialObjectMetadata(rows[1], gv)));
    }
    for (const row of rows) {
      expect(objectJson(row)).toBe(JSON.stringify(row));
      expect(metadataJson(row)).toBe(JSON.stringify(row.metadata));
    }
  });

  it('metadata made before or after the object is the same text', () => {
    const [a, b] = [tns('x-a'), tns('x-b')];
    expect(metadataJson(a)).toBe(JSON.stringify(a.metadata));
    expect(objectJson(a)).toBe(JSON.stringify(a));
    expect(metadataJson(a)).toBe(JSON.stringify(a.metadata));
    expect(objectJson(b)).toBe(JSON.stringify(b));
    expect(metadataJson(b)).toBe(JSON.stringify(b.metadata));
  });

  it('cells that are not strings, AGE not last (TenantPriorityClass)', () => {
    const pc = Object.freeze({ kind: 'TenantPriorityClass', apiVersion: 'tenancy.paddock.dev/v1alpha1', metadata: { name: 'high', creationTimestamp: '2025-01-01T00:00:00Z' }, value: 1000, globalDefault: true }) as KubeObject;
    const table = PRIORITY_CLASSES.table as TableConvertor<KubeObject>;
    const expected = JSON.stringify(toTable(table, [pc], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }));
    expect(join(tableJson(table, [pc], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }))).toBe(expected);
    expect(join(tableJson(table, [pc], {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now }))).toBe(expected);
  });

  it('long Tables come in chunks of PIECE_BYTES, rows split across them', () => {
    const many = Array.from({ length: 400 }, (_, i) => tns(`n-${String(i).padStart(4, '0')}`));
    for (const includeObject of ['Object', 'Metadata'] as const) {
      const pieces = [...tableJson(TENANT_NAMESPACE_TABLE, many, {}, { groupVersion: 'meta.k8s.io/v1', includeObject, now })];
      expect(pieces.length).toBeGreaterThan(1);
      for (const p of pieces.slice(0, -1)) expect(p.length).toBe(PIECE_BYTES);
      expect(join(pieces)).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, many, {}, { groupVersion: 'meta.k8s.io/v1', includeObject, now })));
    }
  });

  it('long object lists come in pieces of about PIECE_CHARS', () => {
    const many = Array.from({ length: 400 }, (_, i) => tns(`n-${String(i).padStart(4, '0')}`));
    const head = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespaceList', metadata: {} };
    const pieces = [...objectListJson(many, head)];
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(PIECE_CHARS);
    expect(pieces.join('')).toBe(JSON.stringify({ ...head, items: many }));
  });
});

describe('row encodings: made once per row state', () => {
  it('a row’s cells and JSON are computed once and shared by every list', () => {
    const table = counting(TENANT_NAMESPACE_TABLE);
    const render = () => join(tableJson(table, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now }));
    const first = render();
    const calls = table.calls;
    expect(render()).toBe(first);
    expect(join(tableJson(table, rows, {}, { groupVersion: 'meta.k8s.io/v1beta1', includeObject: 'None', now }))).toBe(
      JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, rows, {}, { groupVersion: 'meta.k8s.io/v1beta1', includeObject: 'None', now })),
    );
    expect(table.calls).toBe(calls);
    const json = objectJson(rows[0]);
    expect(json).toBe(JSON.stringify(rows[0]));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      expect(objectJson(rows[0])).toBe(json);
      expect(stringify).not.toHaveBeenCalled(); // the second call hands back the row's JSON made by the first
    } finally {
      stringify.mockRestore();
    }
  });

  it('a new row state gets new bytes; the old state keeps its own', () => {
    const before = tns('oil-a');
    const after = tns('oil-a', { resourceVersion: '8', labels: { 'paddock.dev/tenant': 'oil', team: 'red' } });
    const table = counting(TENANT_NAMESPACE_TABLE);
    const opts = { groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'Metadata' as const, now };
    const old = tableRowJson(table, before, opts);
    const oldJson = objectJson(before);
    expect(tableRowJson(table, after, opts)).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, [after], {}, opts).rows[0]));
    expect(tableRowJson(table, after, opts)).not.toBe(old);
    expect(objectJson(after)).toBe(JSON.stringify(after));
    expect(objectJson(after)).not.toBe(oldJson);
    expect(tableRowJson(table, before, opts)).toBe(old);
  });

  it('AGE is as of each request, the rest cached', () => {
    const table = counting(TENANT_NAMESPACE_TABLE);
    const opts = (at: Date) => ({ groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'None' as const, now: at });
    const ages: string[] = [];
    for (const at of [now, new Date(now.getTime() + 90_000), new Date(now.getTime() + 400 * 86_400_000)]) {
      const table1 = JSON.parse(join(tableJson(table, rows, {}, opts(at)))) as { rows: { cells: string[] }[] };
      expect(table1).toEqual(toTable(TENANT_NAMESPACE_TABLE, rows, {}, opts(at)));
      ages.push(table1.rows[0].cells[3]);
      expect(table1.rows[2].cells[3]).toBe('<unknown>');
    }
    expect(ages).toEqual([translateTimestampSince(rows[0].metadata.creationTimestamp, now), '3d5h', '403d']);
    expect(table.calls).toBe(2 * rows.length); // made once (checked at two times), never again
  });

  it('AGE moving on, back and forth, in every form: each list as of its time, its rows made again from their own bytes', () => {
    const table = counting(TENANT_NAMESPACE_TABLE);
    const times = [now, new Date(now.getTime() + 86_400_000), now, new Date(now.getTime() + 90_000), new Date(now.getTime() + 400 * 86_400_000)];
    for (const at of times) {
      for (const includeObject of ['Metadata', 'None', 'Object'] as const) {
        for (const groupVersion of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1'] as const) {
          const opts = { groupVersion, includeObject, now: at };
          expect(join(tableJson(table, rows, {}, opts))).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, rows, {}, opts)));
        }
      }
    }
    expect(table.calls).toBe(2 * rows.length); // the cells are computed once; a new AGE reuses the row's bytes
  });

  it('a row whose AGE reads the same is copied in one piece when its object is asked for as metadata (kubectl)', () => {
    const opts = { groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'Metadata' as const, now };
    expect(join(tableJson(TENANT_NAMESPACE_TABLE, rows, {}, opts))).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, rows, {}, opts)));
    const put = jest.spyOn(ByteChunks.prototype, 'put');
    try {
      const later = { ...opts, now: new Date(now.getTime() + 1000) }; // AGE still 3d5h
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, rows, {}, later))).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, rows, {}, later)));
      expect(put).toHaveBeenCalledTimes(rows.length);
    } finally {
      put.mockRestore();
    }
  });

  describe('blocks of rows (kubectl\'s form of long lists)', () => {
    /** The allocations a spy on Buffer.allocUnsafeSlow saw besides the lists' own chunks: blocks and rows made. */
    const besidesChunks = (spy: jest.SpyInstance<Buffer, [number]>) => spy.mock.calls.filter(([size]) => size !== PIECE_BYTES);
    const opts = (at: Date) => ({ groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'Metadata' as const, now: at });
    const expected = (list: readonly TenantNamespace[], at: Date) => JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, list, {}, opts(at)));
    // Created over the last 10 minutes (AGE moving by the second) and over days; one with no creation
    // time, one created in the future (clock skew), non-ASCII text.
    const many = (n: number, tag = '') =>
      Array.from({ length: n }, (_, i) =>
        tns(`n-${String(i).padStart(4, '0')}${tag}`, {
          creationTimestamp: i === 7 ? undefined : i === 9 ? new Date(now.getTime() + 60_000).toISOString() : new Date(now.getTime() - (i % 2 ? i * 1000 : i * 3_600_000)).toISOString(),
          labels: { 'paddock.dev/tenant': 'oil', note: `ü${i}` },
        }),
      );

    it('the same bytes as encoding the objects, as rows change, come and go, and AGE moves on', () => {
      let list = many(300);
      const times = [now, new Date(now.getTime() + 500), new Date(now.getTime() + 1500), new Date(now.getTime() + 3 * 86_400_000), now];
      for (const at of times) expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at)))).toBe(expected(list, at));
      const changed = tns('n-0150', { resourceVersion: '99', labels: { 'paddock.dev/tenant': 'oil', note: 'changed' } });
      list = list.map((r) => (r.metadata.name === 'n-0150' ? changed : r));
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(now)))).toBe(expected(list, now));
      list = [...list.slice(0, 5), ...list.slice(6)]; // one gone: every later block shifts
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(now)))).toBe(expected(list, now));
      list = [tns('a-first'), ...list]; // one more in front
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(now)))).toBe(expected(list, now));
      // Pages start anywhere, and the rows' own encodings serve other forms and one-row Tables alike.
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list.slice(37), {}, opts(now)))).toBe(expected(list.slice(37), now));
      for (const includeObject of ['None', 'Object', 'Metadata'] as const) {
        for (const groupVersion of ['meta.k8s.io/v1', 'meta.k8s.io/v1beta1'] as const) {
          const o = { groupVersion, includeObject, now };
          expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, o))).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, list, {}, o)));
          expect(objectTableJson(TENANT_NAMESPACE_TABLE, list[200], o).toString()).toBe(JSON.stringify(toObjectTable(TENANT_NAMESPACE_TABLE, list[200], o)));
        }
      }
    });

    it('a list of the same rows at a time their AGE reads the same copies whole blocks, not rows', () => {
      const list = many(300).filter((r) => r.metadata.creationTimestamp !== undefined && r.metadata.name !== 'n-0009');
      const old = list.map((r, i) => (i % 2 ? r : tns(r.metadata.name, { creationTimestamp: '2026-01-01T00:00:00Z' })));
      const at = new Date(now.getTime() + 3 * 86_400_000); // every AGE in whole hours or days
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, old, {}, opts(at)))).toBe(expected(old, at));
      const put = jest.spyOn(ByteChunks.prototype, 'put');
      try {
        const later = new Date(at.getTime() + 2000);
        expect(join(tableJson(TENANT_NAMESPACE_TABLE, old, {}, opts(later)))).toBe(expected(old, later));
        expect(put).toHaveBeenCalledTimes(2 + (old.length - 256)); // two blocks of 128, then row by row
      } finally {
        put.mockRestore();
      }
    });

    it('a row that no longer begins a block keeps none: a shifted list holds no old blocks and no old row states', async () => {
      const at = new Date(now.getTime() + 3 * 86_400_000);
      let list = many(256);
      const old = new WeakRef(list[5]);
      join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at)));
      // One row in front (every block shifts by one), and n-0005 replaced by a new state.
      list = [tns('a-first'), ...list.slice(0, 5), tns('n-0005', { resourceVersion: '8' }), ...list.slice(6)];
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at)))).toBe(expected(list, at));
      await collectGarbage();
      expect(old.deref()).toBeUndefined();
    });

    it('rows whose AGE changes every second have it spliced in by each list: nothing allocated per row', () => {
      const young = Array.from({ length: 300 }, (_, i) => tns(`y-${String(i).padStart(4, '0')}`, { creationTimestamp: new Date(now.getTime() - (60 + i) * 1000).toISOString() }));
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, young, {}, opts(now)))).toBe(expected(young, now));
      const allocations = jest.spyOn(Buffer, 'allocUnsafeSlow');
      try {
        for (const seconds of [1, 2, 3]) {
          const at = new Date(now.getTime() + seconds * 1000); // every AGE has moved on
          const pieces = [...tableJson(TENANT_NAMESPACE_TABLE, young, {}, opts(at))];
          expect(join(pieces)).toBe(expected(young, at));
          expect(allocations.mock.calls.length).toBeLessThanOrEqual(seconds * pieces.length); // the list's own chunks only
        }
      } finally {
        allocations.mockRestore();
      }
    });

    it('rows whose AGE moves on by the minute, each at a second of its own, have it spliced in: no block made again on every list', () => {
      // 10 minutes to 8 hours old: AGE reads in minutes, and the rows' move on 13 s apart.
      const list = Array.from({ length: 256 }, (_, i) => tns(`m-${String(i).padStart(4, '0')}`, { creationTimestamp: new Date(now.getTime() - 600_000 - i * 13_000).toISOString() }));
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(now)))).toBe(expected(list, now));
      const allocations = jest.spyOn(Buffer, 'allocUnsafeSlow');
      try {
        for (const seconds of [20, 40, 60, 80, 200]) {
          const at = new Date(now.getTime() + seconds * 1000); // some AGE has moved on each time
          expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at)))).toBe(expected(list, at));
        }
        expect(besidesChunks(allocations)).toEqual([]); // the lists' own chunks only
      } finally {
        allocations.mockRestore();
      }
    });

    it('rows created together, whose AGE moves on by the minute at the same second, have their block made again once a minute and copied whole in between', () => {
      // An hour old, created within 2 s (in bulk): every AGE of a block moves on within those 2 s of each minute.
      const bulk = Array.from({ length: 256 }, (_, i) => tns(`b-${String(i).padStart(4, '0')}`, { creationTimestamp: new Date(now.getTime() - 3_600_000 - (i % 3) * 1000).toISOString() }));
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, bulk, {}, opts(now)))).toBe(expected(bulk, now));
      const allocations = jest.spyOn(Buffer, 'allocUnsafeSlow');
      const put = jest.spyOn(ByteChunks.prototype, 'put');
      let whole = 0;
      try {
        for (let seconds = 1; seconds <= 150; seconds++) {
          const at = new Date(now.getTime() + seconds * 1000); // a list a second for two and a half minutes
          put.mockClear();
          expect(join(tableJson(TENANT_NAMESPACE_TABLE, bulk, {}, opts(at)))).toBe(expected(bulk, at));
          if (put.mock.calls.length === 2) whole++; // each block in one piece
        }
        // Made again at each of the 2–3 minutes' turns (two blocks), not on every list, nor never.
        const blocks = besidesChunks(allocations).length;
        expect(blocks).toBeGreaterThanOrEqual(4);
        expect(blocks).toBeLessThanOrEqual(6);
        expect(whole).toBeGreaterThanOrEqual(140);
      } finally {
        allocations.mockRestore();
        put.mockRestore();
      }
    });

    it('a block whose AGE cells would then read the same for long is made again once, and copied whole after', () => {
      const old = Array.from({ length: 256 }, (_, i) => tns(`d-${String(i).padStart(4, '0')}`, { creationTimestamp: '2026-01-01T00:00:00Z' }));
      const at = new Date(now.getTime() + 3 * 86_400_000);
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, old, {}, opts(at)))).toBe(expected(old, at));
      const nextDay = new Date(at.getTime() + 86_400_000); // every AGE a day more, for a day
      const allocations = jest.spyOn(Buffer, 'allocUnsafeSlow');
      const put = jest.spyOn(ByteChunks.prototype, 'put');
      try {
        expect(join(tableJson(TENANT_NAMESPACE_TABLE, old, {}, opts(nextDay)))).toBe(expected(old, nextDay));
        expect(besidesChunks(allocations)).toHaveLength(2); // both blocks made again
        put.mockClear();
        const later = new Date(nextDay.getTime() + 2000);
        expect(join(tableJson(TENANT_NAMESPACE_TABLE, old, {}, opts(later)))).toBe(expected(old, later));
        expect(put).toHaveBeenCalledTimes(2); // each block in one piece
      } finally {
        allocations.mockRestore();
        put.mockRestore();
      }
    });

    it('an old row state a history still holds keeps its own bytes alive, not its whole block', async () => {
      const at = new Date(now.getTime() + 3 * 86_400_000);
      const big = { note: 'x'.repeat(1500) }; // rows of about 2 KB: a block of about 250 KB
      let list = many(1280).map((r) => tns(r.metadata.name, { creationTimestamp: r.metadata.creationTimestamp, annotations: big })); // 10 blocks
      const history: TenantNamespace[] = [];
      // Every block's memory, watched without being held (a jest spy would hold what it returns).
      const blocks: WeakRef<ArrayBuffer>[] = [];
      const allocate = Buffer.allocUnsafeSlow;
      Buffer.allocUnsafeSlow = (size: number) => {
        const bytes = allocate(size);
        if (size > 200 * 1024) blocks.push(new WeakRef(bytes.buffer as ArrayBuffer));
        return bytes;
      };
      const serve = () => {
        for (const piece of tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at))) listChunks.give(piece); // as sendStream gives them back
      };
      try {
        serve();
        for (let k = 0; k < 40; k++) {
          // One row of a block changes (a different block each time), its old state kept as a watch's history keeps it.
          const i = (k % 10) * 128 + 5 + Math.floor(k / 10);
          history.push(list[i]);
          list = list.map((r, j) => (j === i ? tns(r.metadata.name, { resourceVersion: String(k + 10), creationTimestamp: r.metadata.creationTimestamp, annotations: big }) : r));
          serve();
        }
      } finally {
        Buffer.allocUnsafeSlow = allocate;
      }
      expect(join(tableJson(TENANT_NAMESPACE_TABLE, list, {}, opts(at)))).toBe(expected(list, at));
      expect(blocks).toHaveLength(50); // the first 10, and one made again for each change
      await collectGarbage();
      // The 10 blocks the list uses; 50 if every old state kept the block it was a view of.
      expect(alive(blocks)).toBeLessThanOrEqual(12);
      expect(history).toHaveLength(40);
    });

    it('rows in a block that lists keep using stay encoded across turns', () => {
      const table = counting(TENANT_NAMESPACE_TABLE);
      const list = many(128);
      const at = new Date(now.getTime() + 3 * 86_400_000);
      join(tableJson(table, list, {}, opts(at)));
      const calls = table.calls;
      for (let turn = 0; turn < 3; turn++) {
        turnEncodings();
        join(tableJson(table, list, {}, opts(at)));
      }
      expect(tableRowJson(table, list[100], opts(at))).toBe(JSON.stringify(toTable(TENANT_NAMESPACE_TABLE, [list[100]], {}, opts(at)).rows[0]));
      expect(table.calls).toBe(calls); // no row made again
    });
  });

  it('a custom resource\'s creation-time date column is its AGE: the rest cached (ownedtenants)', () => {
    const table = counting(OWNED_TENANTS.table);
    const tenant = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'OwnedTenant', metadata: { name: 'oil', creationTimestamp: '2026-03-01T00:00:00Z' }, spec: { namespaceQuota: 3 }, status: { size: 1, phase: 'Active' } } as KubeObject;
    const opts = (at: Date) => ({ groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'None' as const, now: at });
    for (const at of [now, new Date(now.getTime() + 400 * 86_400_000)]) {
      expect(JSON.parse(join(tableJson(table, [tenant], {}, opts(at))))).toEqual(toTable(OWNED_TENANTS.table, [tenant], {}, opts(at)));
    }
    expect(table.calls).toBe(2); // made once (checked at two times), never again
  });

  it('a convertor whose other cells depend on the clock is never cached, and stays right', () => {
    const clock: TableConvertor<KubeObject> = {
      columns: [NAME_COLUMN, column('Seen', 'When this was printed.'), AGE_COLUMN],
      cells: (row, at) => [row.metadata.name, at.toISOString(), translateTimestampSince(row.metadata.creationTimestamp, at)],
    };
    for (const at of [now, new Date(now.getTime() + 5000)]) {
      expect(join(tableJson(clock, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now: at }))).toBe(
        JSON.stringify(toTable(clock, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'None', now: at })),
      );
    }
  });

  it('an AGE column that does not show the age of creationTimestamp is never cached', () => {
    const forever: TableConvertor<KubeObject> = { columns: [NAME_COLUMN, AGE_COLUMN], cells: (row) => [row.metadata.name, 'forever'] };
    const odd = counting(forever);
    const opts = { groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'None' as const, now };
    const expected = JSON.stringify(toTable(forever, rows, {}, opts));
    expect(join(tableJson(odd, rows, {}, opts))).toBe(expected);
    const calls = odd.calls;
    expect(join(tableJson(odd, rows, {}, opts))).toBe(expected);
    expect(odd.calls - calls).toBe(rows.length); // the second list computes every row's cells again
  });

  it('encodings unused for two turns are dropped and made again', () => {
    const table = counting(TENANT_NAMESPACE_TABLE);
    const opts = { groupVersion: 'meta.k8s.io/v1' as const, includeObject: 'None' as const, now };
    tableRowJson(table, rows[0], opts);
    turnEncodings();
    tableRowJson(table, rows[0], opts); // used in the previous generation: kept, and moved into the current one
    turnEncodings();
    tableRowJson(table, rows[0], opts);
    expect(table.calls).toBe(2);
    turnEncodings();
    turnEncodings();
    tableRowJson(table, rows[0], opts);
    expect(table.calls).toBe(4);
  });

  it('counts the row states whose encodings are kept, none once unused for two turns', async () => {
    const held = async () => (await registry.getSingleMetric('paddock_row_encodings')!.get()).values[0]!.value;
    expect(await held()).toBe(0);
    objectJson(rows[0]);
    objectJson(rows[1]);
    expect(await held()).toBe(2);
    turnEncodings();
    expect(await held()).toBe(2);
    turnEncodings();
    expect(await held()).toBe(0);
  });
});
