import { parseWatchLine, parseWatchStream, splitLines, WatchLineTooLongError } from './watch-lines';

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.isBuffer(p) ? p : Buffer.from(p);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const ev = (type: string, name: string): string => JSON.stringify({ type, object: { metadata: { name, resourceVersion: '1' } } });

describe('watch line parsing', () => {
  it('yields one event per line when a chunk holds several lines', async () => {
    const events = await collect(parseWatchStream(chunks(`${ev('ADDED', 'a')}\n${ev('MODIFIED', 'b')}\n`)));
    expect(events.map((e) => [e.type, (e.object as { metadata: { name: string } }).metadata.name])).toEqual([['ADDED', 'a'], ['MODIFIED', 'b']]);
  });

  it('joins a line split across chunks, even inside a multi-byte character', async () => {
    const line = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'ünïcode' } } })}\n`);
    const parts = Array.from(line, (_b, i) => line.subarray(i, i + 1));
    const events = await collect(parseWatchStream(chunks(...parts)));
    expect(events).toHaveLength(1);
    expect((events[0]!.object as { metadata: { name: string } }).metadata.name).toBe('ünïcode');
  });

  it('handles a very large line delivered in many chunks', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const line = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'big' }, data: big } })}\n`);
    const parts: Buffer[] = [];
    for (let i = 0; i < line.length; i += 16 * 1024) parts.push(line.subarray(i, i + 16 * 1024));
    const events = await collect(parseWatchStream(chunks(...parts)));
    expect((events[0]!.object as unknown as { data: string }).data).toHaveLength(big.length);
  });

  it('skips blank lines and yields a final line without a newline', async () => {
    const lines = await collect(splitLines(chunks('\n', 'a\r\n', '  \n', 'b')));
    expect(lines.map(String)).toEqual(['a\r', 'b']);
  });

  it('ends with an error when a line exceeds the bound', async () => {
    await expect(collect(splitLines(chunks('0123456789', 'abc\n'), 8))).rejects.toBeInstanceOf(WatchLineTooLongError);
  });

  it('refuses lines that are not watch events', () => {
    expect(() => parseWatchLine('{"type":"NOPE","object":{}}')).toThrow(/malformed/);
    expect(() => parseWatchLine('{"type":"ADDED"}')).toThrow(/malformed/);
    expect(() => parseWatchLine('{"type":"ADDED",')).toThrow();
  });
});
