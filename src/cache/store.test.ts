import type { KubeObject } from '../kube/types';
import { seededRandom } from '../testing/seeded-random';
import { NAMESPACE_INDEX, namespaceIndexFunc, Store } from './store';

const obj = (name: string, rv: string, labels: Record<string, string> = {}, namespace?: string): KubeObject =>
  ({ metadata: { name, namespace, resourceVersion: rv, labels } });
const byTenant = (o: KubeObject): string[] => (o.metadata.labels?.tenant ? [o.metadata.labels.tenant] : []);
const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata.name).sort();

describe('Store', () => {
  it('keys objects by namespace/name, or name when cluster-scoped', () => {
    const s = new Store();
    s.upsert(obj('a', '1', {}, 'ns1'));
    s.upsert(obj('b', '1'));
    expect(s.keys().sort()).toEqual(['b', 'ns1/a']);
    expect(s.get('ns1/a')?.metadata.name).toBe('a');
  });

  it('finds objects by index value and follows label changes', () => {
    const s = new Store({ tenant: byTenant, [NAMESPACE_INDEX]: namespaceIndexFunc });
    s.upsert(obj('oil-a', '1', { tenant: 'oil' }));
    s.upsert(obj('oil-b', '1', { tenant: 'oil' }));
    s.upsert(obj('gas-a', '1', { tenant: 'gas' }));
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['oil-a', 'oil-b']);
    s.upsert(obj('oil-b', '2', { tenant: 'gas' }));
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['oil-a']);
    expect(names(s.byIndex('tenant', 'gas'))).toEqual(['gas-a', 'oil-b']);
    s.delete('oil-a');
    expect(s.byIndex('tenant', 'oil')).toEqual([]);
    expect(s.indexValues('tenant')).toEqual(['gas']);
  });

  it('builds an index added later over the current contents', () => {
    const s = new Store();
    s.upsert(obj('x', '1', { tenant: 'oil' }));
    s.addIndexers({ tenant: byTenant });
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['x']);
    expect(() => s.addIndexers({ tenant: () => [] })).toThrow(/already exists/);
    expect(() => s.byIndex('nope', 'x')).toThrow(/no index/);
  });

  it('replace reports adds, changed objects and deletions, and skips unchanged ones', () => {
    const s = new Store({ tenant: byTenant });
    const kept = obj('kept', '1', { tenant: 'oil' });
    s.upsert(kept);
    s.upsert(obj('changed', '1', { tenant: 'oil' }));
    s.upsert(obj('gone', '1', { tenant: 'oil' }));
    const deltas = [...s.replace([obj('kept', '1', { tenant: 'oil' }), obj('changed', '2', { tenant: 'gas' }), obj('new', '3')])];
    expect(deltas.map((d) => `${d.type}:${d.obj.metadata.name}`).sort()).toEqual(['add:new', 'delete:gone', 'update:changed']);
    const upd = deltas.find((d) => d.type === 'update');
    expect(upd?.type === 'update' && upd.old.metadata.resourceVersion).toBe('1');
    expect(s.get('kept')).toBe(kept);
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['kept']);
    expect(names(s.byIndex('tenant', 'gas'))).toEqual(['changed']);
    expect(s.size).toBe(3);
  });

  it('keeps an index value with one key and with several through adds, moves and deletes', () => {
    const s = new Store({ tenant: byTenant });
    s.upsert(obj('a', '1', { tenant: 'oil' }));
    s.upsert(obj('a', '2', { tenant: 'oil' }));
    expect(s.indexKeys('tenant', 'oil')).toEqual(['a']);
    s.upsert(obj('b', '1', { tenant: 'oil' }));
    s.upsert(obj('c', '1', { tenant: 'oil' }));
    expect(s.indexKeys('tenant', 'oil').sort()).toEqual(['a', 'b', 'c']);
    s.delete('b');
    s.upsert(obj('c', '2', { tenant: 'gas' }));
    expect(s.indexKeys('tenant', 'oil')).toEqual(['a']);
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['a']);
    s.upsert(obj('d', '1', { tenant: 'oil' }));
    expect(names(s.byIndex('tenant', 'oil'))).toEqual(['a', 'd']);
    s.delete('a');
    s.delete('d');
    expect(s.byIndex('tenant', 'oil')).toEqual([]);
    expect(s.indexValues('tenant')).toEqual(['gas']);
  });
});

describe('Store, against a plain Map of keys', () => {
  const byColour = (o: KubeObject): string[] => (o.metadata.labels?.colour ? [o.metadata.labels.colour] : []);

  // Namespaces of 0..12 objects: groups pass through one object, an array and a Map, and back.
  it.each([1, 2, 3, 4, 5])('agrees on gets, lists and both indexes through random upserts and deletes (seed %i)', (seed) => {
    const rnd = seededRandom(seed);
    const store = new Store<KubeObject>({ colour: byColour, [NAMESPACE_INDEX]: namespaceIndexFunc });
    const model = new Map<string, KubeObject>();
    const namespaces = ['', 'a', 'b'];
    for (let step = 0; step < 3000; step++) {
      const namespace = rnd.pick(namespaces) || undefined;
      const name = `o${rnd.int(12)}`;
      const key = namespace ? `${namespace}/${name}` : name;
      if (rnd.chance(0.35)) {
        expect(store.delete(key)).toBe(model.get(key));
        model.delete(key);
      } else {
        const o = obj(name, String(step), { colour: rnd.pick(['red', 'blue']) }, namespace);
        const delta = store.upsert(o);
        expect(delta.type === 'update' ? delta.old : undefined).toBe(model.get(key));
        model.set(key, o);
      }
      expect(store.size).toBe(model.size);
      expect(store.get(key)).toBe(model.get(key));
    }
    const all = [...model.values()];
    expect(store.keys().sort()).toEqual([...model.keys()].sort());
    for (const [key, o] of model) expect(store.get(key)).toBe(o);
    for (const ns of namespaces) {
      expect(new Set(store.byIndex(NAMESPACE_INDEX, ns))).toEqual(new Set(all.filter((o) => (o.metadata.namespace ?? '') === ns)));
    }
    for (const colour of ['red', 'blue']) {
      expect(new Set(store.byIndex('colour', colour))).toEqual(new Set(all.filter((o) => o.metadata.labels?.colour === colour)));
    }
    expect(store.indexValues(NAMESPACE_INDEX).sort()).toEqual([...new Set(all.map((o) => o.metadata.namespace ?? ''))].sort());
  });
});
