import { Change, ChangeLog, type ChangeType } from './changelog';
import { ResourceVersions } from './resource-version';
import { Watcher, type WatchSink } from './watcher';

interface Row { name: string; tenant: string }

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
}

function setup(visibleTenants: Set<string>, maxBufferedBytes = 1 << 20) {
  const log = new ChangeLog<Row>(new ResourceVersions(1), 100);
  const sink = new MemorySink();
  const closes: string[] = [];
  const watcher = new Watcher<Row>(sink, {
    nameOf: (r) => r.name,
    visible: (r) => visibleTenants.has(r.tenant),
    encode: (_c: Change<Row>, type: ChangeType, r: Row) => Buffer.from(`${type} ${r.name}`),
    maxBufferedBytes,
    onClose: (why) => closes.push(why),
  });
  log.subscribe((c) => watcher.deliver(c));
  return { log, sink, watcher, closes };
}

describe('Watcher', () => {
  it('hides rows of tenants the caller does not own', () => {
    const { log, sink } = setup(new Set(['oil']));
    log.append('ADDED', { name: 'oil-a', tenant: 'oil' }, undefined);
    log.append('ADDED', { name: 'gas-a', tenant: 'gas' }, undefined);
    expect(sink.lines).toEqual(['ADDED oil-a']);
  });

  it('turns a change that makes a row visible into ADDED and one that hides it into DELETED', () => {
    const tenants = new Set(['oil']);
    const { log, sink } = setup(tenants);
    const gas = { name: 'gas-a', tenant: 'gas' };
    log.append('ADDED', gas, undefined);
    tenants.add('gas'); // the caller became an owner of gas; the row's owners changed
    log.append('MODIFIED', gas, gas);
    log.append('MODIFIED', gas, gas);
    tenants.delete('gas');
    log.append('MODIFIED', gas, gas);
    log.append('DELETED', gas, gas);
    expect(sink.lines).toEqual(['ADDED gas-a', 'MODIFIED gas-a', 'DELETED gas-a']);
  });

  it('sends the initial state as ADDED and then only changes', () => {
    const { log, sink, watcher } = setup(new Set(['oil']));
    const row = { name: 'oil-a', tenant: 'oil' };
    watcher.sendInitial((o) => new Change(log.seq, log.resourceVersion, 'ADDED', o, undefined), [row]);
    log.append('MODIFIED', row, row);
    expect(sink.lines).toEqual(['ADDED oil-a', 'MODIFIED oil-a']);
  });

  it('closes a watcher whose client does not read, once, as slow', () => {
    const { log, sink, watcher, closes } = setup(new Set(['oil']), 20);
    for (let i = 0; i < 30; i++) log.append('ADDED', { name: `oil-${i}`, tenant: 'oil' }, undefined);
    expect(watcher.closed).toBe(true);
    expect(sink.destroyed).toBe(true);
    expect(closes).toEqual(['slow']);
    expect(sink.lines.length).toBeLessThan(30);
  });

  it('lets a burst pass the bound if the client catches up within the grace, and closes it if not', () => {
    jest.useFakeTimers();
    try {
      const reader = setup(new Set(['oil']), 20);
      reader.log.append('ADDED', { name: 'oil-burst-1', tenant: 'oil' }, undefined);
      reader.log.append('ADDED', { name: 'oil-burst-2', tenant: 'oil' }, undefined);
      expect(reader.sink.bufferedBytes).toBeGreaterThan(20);
      reader.sink.bufferedBytes = 0; // the client read everything
      jest.advanceTimersByTime(2000);
      expect(reader.watcher.closed).toBe(false);

      const stuck = setup(new Set(['oil']), 20);
      stuck.log.append('ADDED', { name: 'oil-burst-1', tenant: 'oil' }, undefined);
      stuck.log.append('ADDED', { name: 'oil-burst-2', tenant: 'oil' }, undefined);
      jest.advanceTimersByTime(2000);
      expect(stuck.closes).toEqual(['slow']);
    } finally {
      jest.useRealTimers();
    }
  });
});
