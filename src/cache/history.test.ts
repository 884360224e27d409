import type { KubeObject } from '../kube/types';
import { SharedInformer } from './informer';
import { SourceHistory } from './history';
import type { ListerWatcher } from './list-watch';
import { FakeInformer } from './testing/fake-informer';

const obj = (name: string, rv: number, extra = ''): KubeObject => ({ metadata: { name, resourceVersion: String(rv), labels: extra ? { extra } : undefined } });

describe('SourceHistory', () => {
  it('names a state by what it holds, whatever the order the objects came in', () => {
    const a = new FakeInformer<KubeObject>();
    const b = new FakeInformer<KubeObject>();
    const ha = new SourceHistory(a, 10);
    const hb = new SourceHistory(b, 10);
    a.set('x', obj('x', 1));
    a.set('y', obj('y', 2));
    a.set('x', obj('x', 3));
    b.set('y', obj('y', 2));
    b.set('x', obj('x', 3));
    expect(ha.fingerprint).toBe(hb.fingerprint);
    a.remove('y');
    expect(ha.fingerprint).not.toBe(hb.fingerprint);
    b.remove('y');
    expect(ha.fingerprint).toBe(hb.fingerprint);
  });

  it('finds the latest retained position of a state and the changes after it', () => {
    const inf = new FakeInformer<KubeObject>();
    const h = new SourceHistory(inf, 10);
    inf.set('x', obj('x', 1));
    const fp = h.fingerprint;
    inf.set('y', obj('y', 2));
    inf.set('x', obj('x', 3));
    const seq = h.locate(fp)!;
    expect(h.entriesAfter(seq).map((e) => `${e.key}:${e.before?.metadata.resourceVersion ?? '-'}→${e.after?.metadata.resourceVersion ?? '-'}`)).toEqual(['y:-→2', 'x:1→3']);
    // The store as it was at that position.
    const at = h.at(seq);
    expect(at.get('x')?.metadata.resourceVersion).toBe('1');
    expect(at.get('y')).toBeUndefined();
    expect(at.list().map((o) => o.metadata.name)).toEqual(['x']);
  });

  it('tells apart two states whose fingerprints share their high half', () => {
    const inf = new FakeInformer<KubeObject>();
    const h = new SourceHistory(inf, 10);
    // x at these two resourceVersions hashes to the same first 32 bits (ddff17fb), not the same last.
    inf.set('x', obj('x', 102582));
    const first = h.position;
    inf.set('x', obj('x', 110594));
    expect(h.fingerprint.slice(0, 8)).toBe(first.fingerprint.slice(0, 8));
    expect(h.fingerprint).not.toBe(first.fingerprint);
    expect(h.locate(first.fingerprint)).toBe(1);
    expect(h.locate(h.fingerprint)).toBe(2);
    expect(h.locate(`${first.fingerprint.slice(0, 8)}00000000`)).toBeUndefined();
  });

  it('places a state that recurs by the revision the client had reached there', () => {
    const inf = new FakeInformer<KubeObject>();
    const h = new SourceHistory(inf, 10);
    inf.set('x', obj('x', 1));
    const first = h.position;
    inf.set('y', obj('y', 2));
    inf.remove('y'); // the state of x alone recurs
    expect(h.fingerprint).toBe(first.fingerprint);
    expect(h.entriesAfter(h.locate(first.fingerprint, first.rev)!).map((e) => e.key)).toEqual(['y', 'y']);
    expect(h.locate(first.fingerprint)).toBe(h.head);
  });

  it('forgets positions beyond its capacity, and beyond its byte budget', () => {
    const inf = new FakeInformer<KubeObject>();
    const h = new SourceHistory(inf, 3);
    inf.set('x', obj('x', 1));
    const first = h.fingerprint;
    for (let rv = 2; rv <= 5; rv++) inf.set('x', obj('x', rv));
    expect(h.locate(first)).toBeUndefined();
    expect(h.locate(h.fingerprint)).toBe(h.head);

    const small = new FakeInformer<KubeObject>();
    const tight = new SourceHistory(small, 1000, 200);
    small.set('x', obj('x', 1, 'a'.repeat(150)));
    const before = tight.fingerprint;
    small.set('x', obj('x', 2, 'b'.repeat(150)));
    small.set('x', obj('x', 3, 'c'.repeat(150)));
    expect(tight.locate(before)).toBeUndefined();
    expect(tight.locate(tight.fingerprint)).toBe(tight.head);
  });

  it('keeps every change younger than the window, and of older ones only the latest minKept', () => {
    const inf = new FakeInformer<KubeObject>();
    let now = 1_000_000;
    const h = new SourceHistory(inf, 10_000, Infinity, { maxAgeMs: 60_000, minKept: 2, now: () => now });
    inf.set('x', obj('x', 1));
    const start = h.position;
    for (let rv = 2; rv <= 5; rv++) inf.set('x', obj('x', rv));
    // All younger than the window: the first state still resumes, with every change after it.
    expect(h.entriesAfter(h.locate(start.fingerprint, start.rev)!).map((e) => e.after?.metadata.resourceVersion)).toEqual(['2', '3', '4', '5']);
    now += 60_001;
    inf.set('y', obj('y', 6));
    // The changes before it are older than the window: only the two latest changes are retained.
    expect(h.retained).toBe(2);
    expect(h.locate(start.fingerprint, start.rev)).toBeUndefined();
    const kept = h.entriesAfter(h.head - 2).map((e) => `${e.key}:${e.after?.metadata.resourceVersion}`);
    expect(kept).toEqual(['x:5', 'y:6']);
  });

  it('forgets old changes on a timer when nothing else changes', async () => {
    jest.useFakeTimers({ now: 5_000_000 });
    try {
      const inf = new FakeInformer<KubeObject>();
      const h = new SourceHistory(inf, 10_000, Infinity, { maxAgeMs: 1000, minKept: 1 });
      // More than one block of changes (256), each replacing an object the history holds as `before`.
      for (let rv = 1; rv <= 600; rv++) inf.set('x', obj('x', rv, `v${rv}`));
      const first = h.head - 599;
      expect(h.retained).toBe(600);
      expect(h.retains(first)).toBe(true);
      await jest.advanceTimersByTimeAsync(999);
      expect(h.retained).toBe(600);
      await jest.advanceTimersByTimeAsync(1500);
      expect(h.retained).toBe(1);
      expect(h.retains(first)).toBe(false);
      // The current position is always retained, with the change that made it.
      expect(h.locate(h.fingerprint)).toBe(h.head);
      expect(h.entriesAfter(h.head - 1).map((e) => e.before?.metadata.resourceVersion)).toEqual(['599']);
      expect(() => h.entriesAfter(first)).toThrow(RangeError);
    } finally {
      jest.useRealTimers();
    }
  });

  it('reaches a revision by events, bookmarks and lists, and never goes back', () => {
    const inf = new FakeInformer<KubeObject>();
    const h = new SourceHistory(inf, 10);
    const woken: number[] = [];
    h.onAdvance(() => woken.push(h.rev));
    inf.set('x', obj('x', 40));
    for (const handler of inf.handlers) handler.progress?.('90');
    inf.set('y', obj('y', 12)); // an older object noticed late (a relist's): the revision stays
    expect(h.rev).toBe(90);
    expect(woken).toEqual([40, 90, 90]);
  });

  it('reads every position of a relist back as the state its handlers saw there', () => {
    // A relist after a watch was down: two objects changed, one deleted, one created meanwhile.
    const neverRun = {} as ListerWatcher<KubeObject>;
    const inf = new SharedInformer<KubeObject>('things', neverRun);
    const h = new SourceHistory(inf, 100);
    const names = (objs: KubeObject[]) => objs.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
    const seenAt = new Map<number, string[]>();
    inf.addEventHandler({
      add: () => seenAt.set(h.head, names(inf.store.list())),
      update: () => seenAt.set(h.head, names(inf.store.list())),
      delete: () => seenAt.set(h.head, names(inf.store.list())),
    });
    inf.replace([obj('a', 1), obj('b', 2), obj('c', 3)], '10');
    inf.replace([obj('a', 21), obj('b', 22), obj('d', 23)], '30');
    expect(seenAt.size).toBe(h.head);
    // A replay reads position p through the history: it must find what a handler found there live.
    for (const [seq, seen] of seenAt) expect([seq, names(h.at(seq).list())]).toEqual([seq, seen]);
  });
});
