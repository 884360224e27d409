import { LineSplitter, parseWatchLine, WatchLineTooLongError } from './watch-lines';

/** The lines `chunks` make, split as they come and ended. */
function split(chunks: (string | Buffer)[], max?: number): string[] {
  const splitter = new LineSplitter(max);
  const lines: string[] = [];
  for (const c of chunks) splitter.push(Buffer.isBuffer(c) ? c : Buffer.from(c), (l) => lines.push(l.toString('utf8')));
  splitter.end((l) => lines.push(l.toString('utf8')));
  return lines;
}

describe('watch line splitting', () => {
  it('gives one line per newline when a chunk holds several lines', () => {
    expect(split(['a\nb\n'])).toEqual(['a', 'b']);
  });

  it('joins a line split across chunks, even inside a multi-byte character', () => {
    const line = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'ünïcode' } } })}\n`);
    const lines = split(Array.from(line, (_b, i) => line.subarray(i, i + 1)));
    expect(lines).toHaveLength(1);
    expect(parseWatchLine<{ metadata: { name: string } }>(lines[0]!).object.metadata.name).toBe('ünïcode');
  });

  it('handles a very large line delivered in many chunks', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const line = Buffer.from(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'big' }, data: big } })}\n`);
    const parts: Buffer[] = [];
    for (let i = 0; i < line.length; i += 16 * 1024) parts.push(line.subarray(i, i + 16 * 1024));
    const lines = split(parts);
    expect((parseWatchLine(lines[0]!).object as unknown as { data: string }).data).toHaveLength(big.length);
  });

  it('skips blank lines and gives a final line without a newline at the end', () => {
    expect(split(['\n', 'a\r\n', '  \n', 'b'])).toEqual(['a\r', 'b']);
  });

  it('throws when a line exceeds the bound, within a chunk or across chunks', () => {
    expect(() => split(['0123456789', 'abc\n'], 8)).toThrow(WatchLineTooLongError);
    expect(() => split(['0123', '4567', '89\n'], 8)).toThrow(WatchLineTooLongError);
    expect(split(['0123', '4567\n'], 8)).toEqual(['01234567']);
  });

  it('refuses lines that are not watch events', () => {
    expect(() => parseWatchLine('{"type":"NOPE","object":{}}')).toThrow(/malformed/);
    expect(() => parseWatchLine('{"type":"ADDED"}')).toThrow(/malformed/);
    expect(() => parseWatchLine('{"type":"ADDED",')).toThrow();
  });
});
