import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schedAutogroup } from './proc';

describe('schedAutogroup', () => {
  it('reads the kernel switch, and says nothing where there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'autogroup-'));
    writeFileSync(join(dir, 'on'), '1\n');
    writeFileSync(join(dir, 'off'), '0\n');
    expect(schedAutogroup(join(dir, 'on'))).toBe(true);
    expect(schedAutogroup(join(dir, 'off'))).toBe(false);
    expect(schedAutogroup(join(dir, 'missing'))).toBeUndefined();
  });
});
