import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { followWatch, type WatchStream } from './watch';

const event = (type: string, seq: string) =>
  `${JSON.stringify({ type, object: { kind: 'TenantNamespace', metadata: { name: 'ns', labels: { 'bench.paddock.dev/seq': seq } } } })}\n`;
const expired = `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 1 (2)' } })}\n`;

let server: Server;
let serve: (res: ServerResponse) => void;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    serve(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Follows a watch served by `handler` until `done` says the stream has told enough. */
async function follow(handler: (res: ServerResponse) => void, done: (s: WatchStream) => boolean): Promise<{ stream: WatchStream; delivered: number[] }> {
  serve = handler;
  const delivered: number[] = [];
  const res = await new Promise<IncomingMessage>((resolve, reject) => get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, resolve).on('error', reject));
  const stream = followWatch(res, 'w10p0', (seq) => delivered.push(seq));
  const deadline = Date.now() + 5000;
  while (!done(stream) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  res.destroy();
  return { stream, delivered };
}

describe('a watch the benchmark follows', () => {
  it('counts each change of its phase once, and is not ended while the server keeps it open', async () => {
    const { stream, delivered } = await follow((res) => {
      res.write(event('MODIFIED', 'w1p0-3') + event('MODIFIED', 'w10p0-1') + event('MODIFIED', 'w10p0-1'));
      res.write(event('MODIFIED', 'w10p0-2'));
    }, (s) => s.seen.size === 2);
    expect(delivered).toEqual([1, 2]);
    expect(stream.ended).toBeUndefined();
  });

  it('records the ERROR event that ended it (a resourceVersion past the watch window: 410 Expired)', async () => {
    const { stream, delivered } = await follow((res) => res.end(expired), (s) => !!s.ended);
    expect(delivered).toEqual([]);
    expect(stream.ended).toEqual({ why: 'ERROR 410 Expired', message: 'too old resource version: 1 (2)' });
  });

  it('records a stream the server ended without an ERROR event', async () => {
    const { stream, delivered } = await follow((res) => res.end(event('MODIFIED', 'w10p0-7')), (s) => !!s.ended);
    expect(delivered).toEqual([7]);
    expect(stream.ended?.why).toBe('end');
  });

  it('records a connection that broke', async () => {
    const { stream } = await follow((res) => {
      res.write(event('MODIFIED', 'w10p0-1'));
      setTimeout(() => res.destroy(), 20);
    }, (s) => !!s.ended);
    expect(stream.ended?.why).toMatch(/^(error: |close$)/);
  });
});
