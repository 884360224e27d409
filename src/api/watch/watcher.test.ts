import { Change, type ChangeType, type RowState } from '../storage/change';
import { NumberedFeed } from '../storage/testing/numbered-feed';
import { STALLED_GRACES, Watcher, type WatchSink } from './watcher';

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
    /** A watcher with a 20-byte bound that was just sent 10 initial rows (about 150 bytes, none read). */
    function caughtUp() {
      jest.useFakeTimers();
      const w = setup('alice', 20);
      const rows = Array.from({ length: 10 }, (_, i) => state(`oil-${i}`, 1, 'alice'));
      w.watcher.sendInitial((o) => new Change('1', undefined, { object: o, audience: rows[0].audience }), rows.map((r) => r.object));
      return { ...w, size: w.sink.bufferedBytes };
    }
    afterEach(() => jest.useRealTimers());

    it('is written whole, and the watch stays open as long as the client reads some of it every grace', () => {
      const { sink, watcher, closes, size } = caughtUp();
      expect(sink.lines).toHaveLength(10);
      expect(size).toBeGreaterThan(4 * 20);
      for (let unread = size - 10; unread > 0; unread -= 10) {
        sink.bufferedBytes = unread;
        jest.advanceTimersByTime(2000);
      }
      expect(watcher.closed).toBe(false);
      expect(closes).toEqual([]);
    });

    it(`does not hold the watch open for a client that reads none of it for ${STALLED_GRACES} graces in a row`, () => {
      const { sink, closes } = caughtUp();
      jest.advanceTimersByTime(2000 * (STALLED_GRACES - 1)); // busy, reading nothing yet: not taken for stalled
      expect(closes).toEqual([]);
      sink.bufferedBytes -= 10;
      jest.advanceTimersByTime(2000); // it read some: the count starts again
      jest.advanceTimersByTime(2000 * (STALLED_GRACES - 1));
      expect(closes).toEqual([]);
      jest.advanceTimersByTime(2000); // and then nothing, for the whole time
      expect(closes).toEqual(['slow']);
    });

    it('does not count toward falling behind the live events, which do', () => {
      const { log, sink, closes } = caughtUp();
      sink.bufferedBytes -= 10; // reading its catch-up, slowly
      log.append(undefined, state('oil-live-1', 1, 'alice')); // 18 bytes behind: within the bound
      jest.advanceTimersByTime(2000);
      expect(closes).toEqual([]);
      sink.bufferedBytes -= 10;
      log.append(undefined, state('oil-live-2', 1, 'alice')); // 36 bytes behind
      jest.advanceTimersByTime(2000);
      expect(closes).toEqual(['slow']);
    });

    it('a replay alike: a resume of many changes is written whole', () => {
      jest.useFakeTimers();
      const { sink, watcher } = setup('alice', 20);
      watcher.replay(Array.from({ length: 10 }, (_, i) => new Change(String(i + 2), undefined, state(`oil-${i}`, 1, 'alice'))));
      expect(sink.lines).toHaveLength(10);
      expect(watcher.closed).toBe(false);
    });
  });
});
