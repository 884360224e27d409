import { existsSync } from 'node:fs';
import { pressureDelta, pressureNow } from './pressure';

describe('the machine\'s pressure stall totals', () => {
  it('are read where the kernel has them, and only grow', () => {
    const before = pressureNow();
    if (!existsSync('/proc/pressure/io')) {
      expect(before).toBeUndefined();
      return;
    }
    const d = pressureDelta(before, pressureNow())!;
    expect(d.ioMs).toBeGreaterThanOrEqual(0);
    expect(d.memoryMs).toBeGreaterThanOrEqual(0);
  });

  it('give no delta unless both ends were read', () => {
    expect(pressureDelta(undefined, { ioMs: 1, memoryMs: 1 })).toBeUndefined();
    expect(pressureDelta({ ioMs: 1, memoryMs: 2 }, { ioMs: 4, memoryMs: 2.5 })).toEqual({ ioMs: 3, memoryMs: 0.5 });
  });
});
