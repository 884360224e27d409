/**
 * Where Paddock's heap goes: a heap snapshot of the running process (written by the heap probe), its
 * objects attributed to the structures that keep them — each informer's store and indexes, the
 * informers' handlers and reflectors, the TenantNamespace rows, the projected views, the source
 * histories, the row encodings cache, list snapshots, the interning pool, the reconciler (its workqueue
 * and each of its parts), the rest.
 *
 * Attribution is a partition: the structures are visited in a fixed order (see COMPONENTS), each
 * claiming what it reaches that no earlier one claimed, so an object shared by a store and a view row
 * counts once, for the store. A walk never passes into code, functions, hidden classes or another
 * component's root, and never follows weak edges, so a component is what it alone adds to the heap.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sleep } from '../test/controlplane/processes';

/** One component's share of the heap, with the kinds of object that make it up (largest first). */
export interface HeapComponent {
  name: string;
  bytes: number;
  objects: number;
  top: { what: string; bytes: number; count: number }[];
}

export interface HeapBreakdown {
  totalBytes: number;
  components: HeapComponent[];
}

/** Asks the heap probe of process `pid` for a heap snapshot at `path` (after a full GC); resolves when written. */
export async function takeHeapSnapshot(pid: number, heapFile: string, path: string, timeoutMs = 5 * 60_000): Promise<void> {
  rmSync(path, { force: true });
  writeFileSync(heapFile + '.snapshot', path);
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(500);
    if (!existsSync(heapFile)) continue;
    try {
      if ((JSON.parse(readFileSync(heapFile, 'utf8')) as { snapshot?: string }).snapshot === path) return;
    } catch {
      /* being replaced */
    }
  }
  throw new Error(`no heap snapshot at ${path} after ${timeoutMs} ms`);
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** A parsed snapshot with named accessors over V8's flat arrays. */
class Graph {
  readonly nodeFields: number;
  readonly edgeFields: number;
  readonly count: number;
  readonly firstEdge: Uint32Array;
  readonly #typeNames: string[];
  readonly #edgeTypeNames: string[];
  readonly #o: { type: number; name: number; size: number; edges: number; eType: number; eName: number; eTo: number };

  constructor(readonly s: Snapshot) {
    const m = s.snapshot.meta;
    this.nodeFields = m.node_fields.length;
    this.edgeFields = m.edge_fields.length;
    this.count = s.nodes.length / this.nodeFields;
    this.#typeNames = m.node_types[0];
    this.#edgeTypeNames = m.edge_types[0];
    this.#o = {
      type: m.node_fields.indexOf('type'), name: m.node_fields.indexOf('name'), size: m.node_fields.indexOf('self_size'), edges: m.node_fields.indexOf('edge_count'),
      eType: m.edge_fields.indexOf('type'), eName: m.edge_fields.indexOf('name_or_index'), eTo: m.edge_fields.indexOf('to_node'),
    };
    this.firstEdge = new Uint32Array(this.count + 1);
    for (let i = 0, e = 0; i < this.count; i++) {
      this.firstEdge[i] = e;
      e += s.nodes[i * this.nodeFields + this.#o.edges];
    }
    this.firstEdge[this.count] = s.edges.length / this.edgeFields;
  }

  type(n: number): string { return this.#typeNames[this.s.nodes[n * this.nodeFields + this.#o.type]]; }
  name(n: number): string { return this.s.strings[this.s.nodes[n * this.nodeFields + this.#o.name]]; }
  size(n: number): number { return this.s.nodes[n * this.nodeFields + this.#o.size]; }

  /** The edges of node `n`: type, name (a string, or an index as a string) and target node. */
  *edges(n: number): Generator<{ type: string; name: string; to: number }> {
    for (let e = this.firstEdge[n]; e < this.firstEdge[n + 1]; e++) {
      const at = e * this.edgeFields;
      const type = this.#edgeTypeNames[this.s.edges[at + this.#o.eType]];
      const raw = this.s.edges[at + this.#o.eName];
      const name = type === 'element' || type === 'hidden' ? String(raw) : this.s.strings[raw];
      yield { type, name, to: this.s.edges[at + this.#o.eTo] / this.nodeFields };
    }
  }

  /** The text of a string node: a concatenated string's parts joined (a sliced one shows its name). */
  text(n: number): string {
    if (this.type(n) !== 'concatenated string') return this.name(n);
    const first = this.edge(n, 'first');
    const second = this.edge(n, 'second');
    return (first === undefined ? '' : this.text(first)) + (second === undefined ? '' : this.text(second));
  }

  edge(n: number, name: string): number | undefined {
    for (const e of this.edges(n)) if (e.name === name && e.type !== 'weak') return e.to;
    return undefined;
  }

  nodesNamed(type: string, name: string): number[] {
    const out: number[] = [];
    for (let n = 0; n < this.count; n++) if (this.name(n) === name && this.type(n) === type) out.push(n);
    return out;
  }
}

/** Node types a walk does not enter: they belong to the program, not to any cached data. */
const OPAQUE_TYPES = new Set(['code', 'closure', 'object shape', 'regexp', 'synthetic']);

function opaque(g: Graph, n: number): boolean {
  if (OPAQUE_TYPES.has(g.type(n))) return true;
  const name = g.name(n);
  return name === 'system / Map' || name === 'system / Context' || name.startsWith('system / NativeContext') || name === 'system / DescriptorArray';
}

/** Edges a walk does not follow: weak ones, and those to an object's hidden class or prototype. */
function followed(e: { type: string; name: string }): boolean {
  return e.type !== 'weak' && e.type !== 'shortcut' && e.name !== 'map' && e.name !== '__proto__' && e.name !== 'prototype' && e.name !== 'constructor';
}

/** What a node is, for the breakdown's detail: its type, and its constructor or system name (not a string's text). */
function kindOf(g: Graph, n: number): string {
  const type = g.type(n);
  return type.endsWith('string') ? type : `${type} ${withoutCheckout(g.name(n)).slice(0, 60)}`;
}

/** A name with the checkout's own location left out (`file:///…/node_modules/x` → `node_modules/x`): results hold no machine's paths. */
const CHECKOUT_URL = pathToFileURL(resolve(__dirname, '..')).href + '/';
const withoutCheckout = (name: string) => name.split(CHECKOUT_URL).join('');

/** The named roots of the components in the snapshot, in attribution order. */
function componentRoots(g: Graph): { name: string; roots: number[] }[] {
  const out: { name: string; roots: number[] }[] = [];
  const add = (name: string, roots: (number | undefined)[]) => {
    const present = roots.filter((r): r is number => r !== undefined);
    if (present.length) out.push({ name, roots: present });
  };
  // The row encodings cache: the module context holding its two generations.
  const encodings: number[] = [];
  for (let n = 0; n < g.count; n++) {
    if (g.name(n) !== 'system / Context') continue;
    const current = g.edge(n, 'current');
    const previous = g.edge(n, 'previous');
    if (current === undefined || previous === undefined || g.name(current) !== 'WeakMap' || g.name(previous) !== 'WeakMap') continue;
    if (g.edge(n, 'turnEncodings') === undefined && g.edge(n, 'encodingsOf') === undefined && g.edge(n, 'timer') === undefined) continue;
    encodings.push(current, previous);
  }
  add('row encodings', encodings);
  const informers = g.nodesNamed('object', 'SharedInformer').map((n) => ({ n, name: g.text(g.edge(n, 'name') ?? n).split(/[ .]/)[0], store: g.edge(n, '#store') }));
  informers.sort((a, b) => a.name.localeCompare(b.name));
  for (const i of informers) if (i.store !== undefined) add(`store ${i.name}: objects`, [g.edge(i.store, '#clusterScoped'), g.edge(i.store, '#namespaced')]);
  for (const i of informers) if (i.store !== undefined) add(`store ${i.name}: indexes`, [g.edge(i.store, '#indices')]);
  // The rest of each informer (handlers, reflector, its last list's resourceVersion), so that what reaches
  // an informer (a history's source, the reconciler's cache) does not claim it.
  add('informers (handlers, reflectors)', informers.map((i) => i.n));
  for (const v of g.nodesNamed('object', 'TenantNamespaceView')) {
    const store = g.edge(v, 'store');
    if (store === undefined) continue;
    add('tenantnamespaces view: rows', [g.edge(store, '#rows')]);
    add('tenantnamespaces view: names, by tenant, all', [g.edge(store, '#names'), g.edge(store, '#groups'), g.edge(store, '#all')]);
  }
  add('projected views (classes, nodes, tenants)', g.nodesNamed('object', 'ProjectedView'));
  for (const h of g.nodesNamed('object', 'SourceHistory')) {
    const informer = g.edge(h, 'source');
    add(`history ${informer === undefined ? '?' : g.text(g.edge(informer, 'name') ?? informer).split(/[ .]/)[0]}`, [h]);
  }
  add('list snapshots', g.nodesNamed('object', 'ListSnapshots'));
  add('interning pool', g.nodesNamed('object', 'Interner'));
  // What the reconciler keeps: its workqueue (dirty, processing, delays, rate limiters' failures), then
  // its per-tenant state (status writes in flight, event batches, hostname ledger, quota shares, recent
  // Events), the write fence and the leader elector. Last, so that they claim only what no cache or view holds.
  add('reconciler: workqueue', g.nodesNamed('object', 'WorkQueue'));
  for (const name of ['TenantReconciler', 'EventRecorder', 'HostnameHoldings', 'TenantQuotaController', 'QuotaRebalancer', 'TenantController', 'WriteFence', 'Writer', 'LeaderElector']) {
    add(`reconciler: ${name}`, g.nodesNamed('object', name));
  }
  return out;
}

/** Attributes the heap of the snapshot at `path` to Paddock's structures (see the file comment). */
export function heapBreakdown(path: string): HeapBreakdown {
  const g = new Graph(JSON.parse(readFileSync(path, 'utf8')) as Snapshot);
  const claimed = new Uint8Array(g.count);
  const components: HeapComponent[] = [];
  const specs = componentRoots(g);
  for (const spec of specs) for (const r of spec.roots) claimed[r] = 1;
  let totalBytes = 0;
  for (let n = 0; n < g.count; n++) totalBytes += g.size(n);
  let claimedBytes = 0;
  for (const spec of specs) {
    const kinds = new Map<string, { bytes: number; count: number }>();
    let bytes = 0;
    let objects = 0;
    const stack = [...spec.roots];
    const visit = (n: number) => {
      const size = g.size(n);
      bytes += size;
      objects++;
      const what = kindOf(g, n);
      const k = kinds.get(what) ?? { bytes: 0, count: 0 };
      k.bytes += size;
      k.count++;
      kinds.set(what, k);
    };
    for (const r of spec.roots) visit(r);
    while (stack.length) {
      const n = stack.pop()!;
      for (const e of g.edges(n)) {
        if (claimed[e.to] || !followed(e) || opaque(g, e.to)) continue;
        claimed[e.to] = 1;
        visit(e.to);
        stack.push(e.to);
      }
    }
    claimedBytes += bytes;
    const top = [...kinds].map(([what, k]) => ({ what, ...k })).sort((a, b) => b.bytes - a.bytes).slice(0, 8);
    components.push({ name: spec.name, bytes, objects, top });
  }
  const rest = new Map<string, { bytes: number; count: number }>();
  for (let n = 0; n < g.count; n++) {
    if (claimed[n]) continue;
    const what = kindOf(g, n);
    const k = rest.get(what) ?? { bytes: 0, count: 0 };
    k.bytes += g.size(n);
    k.count++;
    rest.set(what, k);
  }
  const restTop = [...rest].map(([what, k]) => ({ what, ...k })).sort((a, b) => b.bytes - a.bytes).slice(0, 400);
  components.push({ name: 'everything else', bytes: totalBytes - claimedBytes, objects: 0, top: restTop });
  return { totalBytes, components };
}

/** The breakdown as text: one line per component, bytes per namespace beside it, then its main kinds. */
export function breakdownText(b: HeapBreakdown, namespaces: number, detail = true): string {
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const lines = [`heap in snapshot ${(b.totalBytes / 2 ** 20).toFixed(1)} MiB at ${namespaces} namespaces`];
  const small = b.components.filter((c) => c.bytes < 16 * 1024);
  for (const c of b.components) {
    if (c.bytes < 16 * 1024) continue;
    const per = namespaces > 0 ? `${Math.round(c.bytes / namespaces)} B/ns` : '';
    lines.push(`  ${c.name.padEnd(48)} ${kib(c.bytes).padStart(12)} ${per.padStart(10)}`);
    if (detail) for (const t of c.top) if (t.bytes > c.bytes / 20) lines.push(`      ${t.what.padEnd(60)} ${kib(t.bytes).padStart(12)} ×${t.count}`);
  }
  if (small.length) lines.push(`  (${small.length} components under 16 KiB: ${kib(small.reduce((a, c) => a + c.bytes, 0))} together)`);
  return lines.join('\n');
}

// `tsx bench/heap-breakdown.ts <file.heapsnapshot> <namespaces>`: the breakdown of a snapshot already written.
if (require.main === module) {
  const [path, namespaces] = process.argv.slice(2);
  if (!path) throw new Error('usage: heap-breakdown.ts <file.heapsnapshot> [namespaces]');
  console.log(breakdownText(heapBreakdown(path), Number(namespaces ?? 0)));
}
