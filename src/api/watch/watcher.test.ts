import { Change, type ChangeType, type RowState } from '../storage/change';
import { NumberedFeed } from '../storage/testing/numbered-feed';
import { CATCH_UP_SLICE_BYTES, STALLED_GRACES, Watcher, type WatchSink } from './watcher';

interface Row { name: string; v: number }

class MemorySink implements WatchSink {
  lines: string[] = [];
  bufferedBytes = 0;
  ended = false;
  destroyed = false;
  write(bytes: Buffer): boolean {
    this.lines.push(bytes.toString());
    this.bufferedBytes += bytes.length;
    return true;
  }
  end(): void { this.ended = true; }
  destroy(): void { this.destroyed = true; }
  /** What was written before each flush: the lines on the wire. */
  flushedAt: number[] = [];
  flush(): void { this.flushedAt.push(this.lines.length); }
  /** Who waits for the buffer to empty. */
  #drainWaiters: (() => void)[] = [];
  onDrain(ready: () => void): void { this.#drainWaiters.push(ready); }
  /** The client reads everything written so far: the buffer empties, and who waited for that is told. */
  readAll(): void {
    this.bufferedBytes = 0;
    for (const ready of this.#drainWaiters.splice(0)) ready();
  }
  get waitingForDrain(): boolean { return this.#drainWaiters.length > 0; }
}

/** A row state whose audience is the given user names. */
const state = (name: string, v: number, ...users: string[]): RowState<Row> => ({ object: { name, v }, audience: new Set(users) });

function setup(user = 'alice', maxBufferedBytes = 1 << 20) {
  const log = new NumberedFeed<Row>();
  const sink = new MemorySink();
  const closes: string[] = [];
  const watcher = new Watcher<Row>(sink, {
    sight: { admits: (audience) => audience.has(user), matches: () => true },
    encode: (_c: Change<Row>, type: ChangeType, r: Row) => Buffer.from(`${type} ${r.name} v${r.v}`),
    maxBufferedBytes,
    onClose: (why) => closes.push(why),
  });
  log.subscribe((c) => watcher.deliver(c));
  return { log, sink, watcher, closes };
}

describe('Watcher', () => {
  it('hides rows the caller may not see', () => {
    const { log, sink } = setup();
    log.append(undefined, state('oil-a', 1, 'alice'));
    log.append(undefined, state('gas-a', 1, 'bob'));
    expect(sink.lines).toEqual(['ADDED oil-a v1']);
  });

  it('turns a change that grants a row into ADDED, and one that takes it away into DELETED with the state before', () => {
    const { log, sink } = setup();
    const s1 = state('gas-a', 1, 'bob');
    const s2 = state('gas-a', 2, 'bob', 'alice');
    const s3 = state('gas-a', 3, 'bob', 'alice');
    const s4 = state('gas-a', 4, 'bob');
    log.append(undefined, s1);
    log.append(s1, s2);
    log.append(s2, s3);
    log.append(s3, s4);
    log.append(s4, undefined);
    expect(sink.lines).toEqual(['ADDED gas-a v2', 'MODIFIED gas-a v3', 'DELETED gas-a v3']);
  });

  it('puts each live event on the wire as it is written, and a replay once, at its end', () => {
    const { log, sink, watcher } = setup();
    log.append(undefined, state('oil-a', 1, 'alice'));
    log.append(undefined, state('gas-a', 1, 'bob'));
    log.append(undefined, state('oil-b', 1, 'alice'));
    expect(sink.flushedAt).toEqual([1, 2]);
    const r1 = new Change('9', undefined, state('oil-c', 1, 'alice'));
    const r2 = new Change('10', undefined, state('oil-d', 1, 'alice'));
    watcher.replay([r1, r2]);
    expect(sink.lines.slice(2)).toEqual(['ADDED oil-c v1', 'ADDED oil-d v1']);
    expect(sink.flushedAt).toEqual([1, 2, 4]);
  });

  it('sends the initial state as ADDED and then only changes', () => {
    const { log, sink, watcher } = setup();
    const s1 = state('oil-a', 1, 'alice');
    watcher.sendInitial((o) => new Change(log.resourceVersion, undefined, { object: o, audience: s1.audience }), [s1.object]);
    log.append(s1, state('oil-a', 2, 'alice'));
    expect(sink.lines).toEqual(['ADDED oil-a v1', 'MODIFIED oil-a v2']);
  });

  it('closes a watcher whose client does not read, once, as slow', () => {
    const { log, sink, watcher, closes } = setup('alice', 20);
    for (let i = 0; i < 30; i++) log.append(undefined, state(`oil-${i}`, 1, 'alice'));
    expect(watcher.closed).toBe(true);
    expect(sink.destroyed).toBe(true);
    expect(closes).toEqual(['slow']);
    expect(sink.lines.length).toBeLessThan(30);
  });

  it('lets a burst pass the bound if the client catches up within the grace, and closes it if not', () => {
    jest.useFakeTimers();
    try {
      const reader = setup('alice', 20);
      reader.log.append(undefined, state('oil-burst-1', 1, 'alice'));
      reader.log.append(undefined, state('oil-burst-2', 1, 'alice'));
      expect(reader.sink.bufferedBytes).toBeGreaterThan(20);
      reader.sink.bufferedBytes = 0; // the client read everything
      jest.advanceTimersByTime(2000);
      expect(reader.watcher.closed).toBe(false);

      const stuck = setup('alice', 20);
      stuck.log.append(undefined, state('oil-burst-1', 1, 'alice'));
      stuck.log.append(undefined, state('oil-burst-2', 1, 'alice'));
      jest.advanceTimersByTime(2000);
      expect(stuck.closes).toEqual(['slow']);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('a catch-up (the initial events, a replay) larger than the bound', () => {
    /** A watcher with a 20-byte bound that was just asked to send 10 initial rows (about 150 bytes). */
    function catchingUp() {
      jest.useFakeTimers();
      const w = setup('alice', 20);
      const rows = Array.from({ length: 10 }, (_, i) => state(`oil-${i}`, 1, 'alice'));
      w.watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: rows[0].audience }), rows.map((r) => r.object));
      return w;
    }
    /** The client reads everything, slice after slice, until nothing more comes. */
    function readToEnd(sink: MemorySink): void {
      while (sink.waitingForDrain) sink.readAll();
    }
    afterEach(() => jest.useRealTimers());

    it('is written a slice at a time, each once the client has taken the one before', () => {
      const { sink, watcher, closes } = catchingUp();
      // 'ADDED oil-0 v1' is 14 bytes: two of them fill a 20-byte slice.
      expect(sink.lines).toEqual(['ADDED oil-0 v1', 'ADDED oil-1 v1']);
      expect(sink.flushedAt).toEqual([2]);
      sink.readAll();
      expect(sink.lines).toHaveLength(4);
      readToEnd(sink);
      expect(sink.lines).toEqual(Array.from({ length: 10 }, (_, i) => `ADDED oil-${i} v1`));
      expect(watcher.closed).toBe(false);
      expect(closes).toEqual([]);
    });

    it(`holds a slice for a client that reads none of it, and closes it after ${STALLED_GRACES} graces in a row without a byte read`, () => {
      const { sink, closes } = catchingUp();
      jest.advanceTimersByTime(2000 * (STALLED_GRACES - 1)); // busy, reading nothing yet: not taken for stalled
      expect(closes).toEqual([]);
      expect(sink.lines).toHaveLength(2);
      sink.bufferedBytes -= 5; // it read some, not all (28 bytes were written): the count starts again
      jest.advanceTimersByTime(2000);
      jest.advanceTimersByTime(2000 * (STALLED_GRACES - 1));
      expect(closes).toEqual([]);
      jest.advanceTimersByTime(2000); // and then nothing, for the whole time
      expect(closes).toEqual(['slow']);
      expect(sink.destroyed).toBe(true);
    });

    it('sends what comes meanwhile after it, in order: live events, then a bookmark', () => {
      const { log, sink, watcher } = catchingUp();
      log.append(undefined, state('oil-live', 1, 'alice'));
      log.append(undefined, state('gas-live', 1, 'bob')); // not alice's: nothing to send
      watcher.writeRaw(Buffer.from('BOOKMARK'));
      expect(sink.lines).toHaveLength(2);
      readToEnd(sink);
      expect(sink.lines.slice(8)).toEqual(['ADDED oil-8 v1', 'ADDED oil-9 v1', 'ADDED oil-live v1', 'BOOKMARK']);
      log.append(undefined, state('oil-after', 1, 'alice')); // live again: written at once
      expect(sink.lines.at(-1)).toBe('ADDED oil-after v1');
    });

    it('counts what waits behind it as falling behind the live events, and the bound applies from its end', () => {
      const piledUp = catchingUp();
      piledUp.log.append(undefined, state('oil-live-1', 1, 'alice')); // 18 bytes waiting: within the bound
      jest.advanceTimersByTime(2000);
      piledUp.sink.bufferedBytes -= 10; // reading its catch-up, slowly
      expect(piledUp.closes).toEqual([]);
      piledUp.log.append(undefined, state('oil-live-2', 1, 'alice')); // 36 bytes waiting
      piledUp.sink.bufferedBytes -= 10;
      jest.advanceTimersByTime(2000);
      expect(piledUp.closes).toEqual(['slow']);

      const flood = catchingUp();
      for (let i = 0; i < 5; i++) flood.log.append(undefined, state(`oil-live-${i}`, 1, 'alice')); // past 4× the bound
      expect(flood.closes).toEqual(['slow']);

      const done = catchingUp();
      readToEnd(done.sink);
      done.log.append(undefined, state('oil-live-1', 1, 'alice'));
      done.log.append(undefined, state('oil-live-2', 1, 'alice')); // 36 bytes unread past its end
      jest.advanceTimersByTime(2000);
      expect(done.closes).toEqual(['slow']);
    });

    it('drops what waits behind it when the watch closes: no bookmark for a state not sent in full', () => {
      const { sink, watcher, closes } = catchingUp();
      watcher.writeRaw(Buffer.from('BOOKMARK'));
      watcher.close('done');
      readToEnd(sink);
      expect(sink.lines).toHaveLength(2);
      expect(sink.ended).toBe(true);
      expect(closes).toEqual(['done']);
    });

    it('a replay alike: a resume of many changes is sent a slice at a time, the changes the client may not see left out', () => {
      jest.useFakeTimers();
      const { sink, watcher } = setup('alice', 20);
      const changes = Array.from({ length: 10 }, (_, i) => new Change(String(i + 2), undefined, state(`oil-${i}`, 1, i % 2 ? 'bob' : 'alice')));
      watcher.replay(changes);
      expect(sink.lines).toEqual(['ADDED oil-0 v1', 'ADDED oil-2 v1']);
      readToEnd(sink);
      expect(sink.lines).toEqual(['ADDED oil-0 v1', 'ADDED oil-2 v1', 'ADDED oil-4 v1', 'ADDED oil-6 v1', 'ADDED oil-8 v1']);
      expect(watcher.closed).toBe(false);
    });

    it('a catch-up that fits in one slice is written at once, in the caller\'s turn', () => {
      const { sink, watcher } = setup();
      watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set(['alice']) }), [{ name: 'oil-a', v: 1 }, { name: 'oil-b', v: 1 }]);
      expect(sink.lines).toEqual(['ADDED oil-a v1', 'ADDED oil-b v1']);
      expect(sink.waitingForDrain).toBe(false);
      expect(CATCH_UP_SLICE_BYTES).toBeGreaterThan(sink.bufferedBytes);
    });

    it('ends a slice once a slice has been made in the turn, even when the connection took it all at once', () => {
      jest.useFakeTimers();
      const sink = new (class extends MemorySink {
        override write(bytes: Buffer): boolean {
          super.write(bytes);
          this.bufferedBytes = 0; // the kernel took it
          return true;
        }
      })();
      const watcher = new Watcher<Row>(sink, { sight: { admits: () => true, matches: () => true }, encode: (_c, type, r) => Buffer.from(`${type} ${r.name} v${r.v}`), maxBufferedBytes: 20, onClose: () => {} });
      watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set() }), Array.from({ length: 10 }, (_, i) => ({ name: `oil-${i}`, v: 1 })));
      expect(sink.lines).toHaveLength(2);
      expect(sink.waitingForDrain).toBe(true);
      readToEnd(sink);
      expect(sink.lines).toHaveLength(10);
    });

    it('makes its first event in the caller\'s turn even when the sink already holds a slice', () => {
      const { sink, watcher } = setup('alice', 20);
      sink.bufferedBytes = 100; // a client that has read nothing yet
      watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set(['alice']) }), [{ name: 'oil-a', v: 1 }, { name: 'oil-b', v: 1 }]);
      expect(sink.lines).toEqual(['ADDED oil-a v1']);
      sink.readAll();
      expect(sink.lines).toEqual(['ADDED oil-a v1', 'ADDED oil-b v1']);
    });

    it(`closes a client that stops reading mid catch-up after ${STALLED_GRACES} graces, with a bound larger than a slice`, () => {
      jest.useFakeTimers();
      const sink = new MemorySink();
      const closes: string[] = [];
      const watcher = new Watcher<Row>(sink, {
        sight: { admits: () => true, matches: () => true },
        encode: (_c, type, r) => Buffer.alloc(100 * 1024, `${type} ${r.name}`),
        maxBufferedBytes: 8 * CATCH_UP_SLICE_BYTES, // a slice (1 MiB) never holds the bound
        onClose: (why) => closes.push(why),
      });
      watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set() }), Array.from({ length: 40 }, (_, i) => ({ name: `oil-${i}`, v: 1 })));
      expect(sink.bufferedBytes).toBeLessThan(8 * CATCH_UP_SLICE_BYTES);
      jest.advanceTimersByTime(2000 * (STALLED_GRACES - 1));
      expect(closes).toEqual([]);
      jest.advanceTimersByTime(2000);
      expect(closes).toEqual(['slow']);
    });

    it('closes the watch, and throws, when its first slice cannot be made: nothing waits behind it', () => {
      const sink = new MemorySink();
      const closes: string[] = [];
      const watcher = new Watcher<Row>(sink, {
        sight: { admits: () => true, matches: () => true },
        encode: () => { throw new Error('cannot encode'); },
        maxBufferedBytes: 20,
        onClose: (why) => closes.push(why),
      });
      expect(() => watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set() }), [{ name: 'oil-a', v: 1 }])).toThrow('cannot encode');
      expect(watcher.closed).toBe(true);
      expect(closes).toEqual(['failed']);
      expect(sink.destroyed).toBe(true);
    });

    it('closes the watch as failed when making a later slice throws, and says why', () => {
      jest.useFakeTimers();
      const errors: unknown[] = [];
      const sink = new MemorySink();
      const closes: string[] = [];
      const watcher = new Watcher<Row>(sink, {
        sight: { admits: () => true, matches: () => true },
        encode: (_c, type, r) => {
          if (r.v === 0) throw new Error('cannot encode');
          return Buffer.from(`${type} ${r.name} v${r.v}`);
        },
        maxBufferedBytes: 20,
        onClose: (why) => closes.push(why),
        onError: (err) => errors.push(err),
      });
      const rows = [{ name: 'oil-a', v: 1 }, { name: 'oil-b', v: 1 }, { name: 'oil-c', v: 0 }];
      watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: new Set() }), rows);
      expect(sink.lines).toHaveLength(2);
      sink.readAll();
      expect(closes).toEqual(['failed']);
      expect(sink.destroyed).toBe(true);
      expect(String(errors[0])).toContain('cannot encode');
    });
  });
});
