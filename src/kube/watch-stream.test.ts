import { PassThrough } from 'node:stream';
import { WatchEvents } from './watch-stream';
import { WatchLineTooLongError } from './watch-lines';

const ev = (type: string, name: string): string => JSON.stringify({ type, object: { metadata: { name, resourceVersion: '1' } } });
const names = (events: { object: unknown }[]) => events.map((e) => (e.object as { metadata: { name: string } }).metadata.name);

async function drain<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('WatchEvents', () => {
  it('gives the events of every chunk in order, a last line without a newline too, then ends with the body', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    body.write(`${ev('ADDED', 'a')}\n${ev('MODIFIED', 'b')}\n${ev('DELETED', 'c').slice(0, 5)}`);
    body.end(`${ev('DELETED', 'c').slice(5)}`);
    expect(names(await drain(events))).toEqual(['a', 'b', 'c']);
  });

  it('resumes a waiting reader with the event a later chunk completes', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    const first = events.next();
    const line = `${ev('ADDED', 'a')}\n`;
    body.write(line.slice(0, 10));
    body.write(line.slice(10));
    expect(names([(await first).value!])).toEqual(['a']);
    body.end(ev('MODIFIED', 'tail'));
    const rest = await drain(events);
    expect(names(rest)).toEqual(['tail']);
  });

  it('reads the events before a failure, then rejects with it, and the body is destroyed on a bad line', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    body.write(`${ev('ADDED', 'a')}\nnot json\n${ev('ADDED', 'never')}\n`);
    expect(names([(await events.next()).value!])).toEqual(['a']);
    await expect(events.next()).rejects.toThrow(SyntaxError);
    expect(body.destroyed).toBe(true);
  });

  it('gives nothing after a bad line, not even the chunks the body had buffered before it was destroyed', async () => {
    const body = new PassThrough();
    body.write(`${ev('ADDED', 'a')}\n`);
    body.write(`not json\n${ev('ADDED', 'lost')}\n`);
    body.write(`${ev('ADDED', 'after')}\n`);
    const events = new WatchEvents(body);
    expect(names([(await events.next()).value!])).toEqual(['a']);
    await expect(events.next()).rejects.toThrow(SyntaxError);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('fails on a line past the bound and on a body closed before its end', async () => {
    const long = new PassThrough();
    const tooLong = new WatchEvents(long, { maxLineBytes: 16 });
    long.write('x'.repeat(20));
    await expect(tooLong.next()).rejects.toBeInstanceOf(WatchLineTooLongError);

    const cut = new PassThrough();
    const premature = new WatchEvents(cut);
    cut.write(`${ev('ADDED', 'a')}\n`);
    cut.destroy();
    expect(names([(await premature.next()).value!])).toEqual(['a']);
    await expect(premature.next()).rejects.toThrow(/premature close/i);
  });

  it('ends instead of failing once its signal aborted, and tells when it is over, once', async () => {
    const body = new PassThrough();
    const abort = new AbortController();
    let over = 0;
    const events = new WatchEvents(body, { signal: abort.signal, onOver: () => over++ });
    const waiting = events.next();
    abort.abort();
    body.destroy(new Error('aborted'));
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(over).toBe(1);
  });

  it('destroys the body when its reader stops', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    body.write(`${ev('ADDED', 'a')}\n${ev('ADDED', 'b')}\n`);
    for await (const e of events) {
      expect(names([e])).toEqual(['a']);
      break;
    }
    expect(body.destroyed).toBe(true);
  });

  it('ends a read under way when its reader leaves', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    const waiting = events.next();
    await events.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(body.destroyed).toBe(true);
  });

  it('pauses a body whose unread events hold many bytes, however few they are', async () => {
    const body = new PassThrough({ highWaterMark: 1 << 20 });
    const events = new WatchEvents(body);
    const big = (i: number) => `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: `n${i}` }, data: 'x'.repeat(100_000) } })}\n`;
    for (let i = 0; i < 60; i++) body.write(big(i));
    await new Promise((r) => setImmediate(r));
    expect(body.isPaused()).toBe(true);
    for (let i = 0; i < 60; i++) expect(names([(await events.next()).value!])).toEqual([`n${i}`]);
    body.end();
    expect((await events.next()).done).toBe(true);
  });

  it('pauses a body read far ahead of its reader, and resumes it once the reader has caught up', async () => {
    const body = new PassThrough();
    const events = new WatchEvents(body);
    body.write(Array.from({ length: 1500 }, (_, i) => `${ev('ADDED', `n${i}`)}\n`).join(''));
    await new Promise((r) => setImmediate(r));
    expect(body.isPaused()).toBe(true);
    for (let i = 0; i < 1500; i++) expect(names([(await events.next()).value!])).toEqual([`n${i}`]);
    expect(body.isPaused()).toBe(false);
    body.end();
    expect((await events.next()).done).toBe(true);
  });
});
