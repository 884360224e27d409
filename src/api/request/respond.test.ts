import { createServer, get, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listChunks } from '../encoding/chunk-pool';
import { CHUNK_BYTES, sendStream, STREAM_HIGH_WATER } from './respond';

let server: Server;
let base: string;
let body: () => Iterable<string | Buffer>;
let finished: Promise<void>;

beforeEach(async () => {
  let done: () => void;
  finished = new Promise((resolve) => (done = resolve));
  server = createServer((_req: IncomingMessage, res: ServerResponse) => void sendStream(res, 200, 'application/json', body()).finally(() => done()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function fetchAll(method = 'GET'): Promise<{ headers: IncomingMessage['headers']; body: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(base, { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sendStream', () => {
  it('sends a body that fits in one chunk whole, with Content-Length', async () => {
    body = () => ['{"items":[', '"é"', ']}'];
    const res = await fetchAll();
    expect(res.body).toBe('{"items":["é"]}');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength('{"items":["é"]}')));
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-cache, private');
  });

  it('an empty body too', async () => {
    body = () => [];
    const res = await fetchAll();
    expect(res).toMatchObject({ body: '', headers: { 'content-length': '0' } });
  });

  it('streams a long body in chunks, every byte in order, text and buffers alike', async () => {
    const pieces = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? Buffer.from(`<${i}>`) : `${i}:${'ü'.repeat(1000)};`));
    body = () => pieces;
    const res = await fetchAll();
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body).toBe(pieces.map((p) => p.toString()).join(''));
  });

  it('answers HEAD with the length of the whole body', async () => {
    const text = 'x'.repeat(3 * CHUNK_BYTES);
    body = () => [text.slice(0, CHUNK_BYTES), text.slice(CHUNK_BYTES)];
    const res = await fetchAll('HEAD');
    expect(res.headers['content-length']).toBe(String(text.length));
    expect(res.body).toBe('');
  });

  it('stops making the body when the client goes away', async () => {
    let made = 0;
    let closed = false;
    body = function* () {
      try {
        for (let i = 0; i < 100_000; i++) {
          made++;
          yield 'y'.repeat(CHUNK_BYTES);
        }
      } finally {
        closed = true;
      }
    };
    await new Promise<void>((resolve) => {
      const req = get(base, (res) => {
        res.once('data', () => {
          res.destroy();
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
    });
    await finished;
    expect(closed).toBe(true);
    expect(made).toBeLessThan(100_000);
  });
});

describe('sendStream backpressure', () => {
  it('waits for the connection to drain only once STREAM_HIGH_WATER is buffered: a few turns for 6 MB, not one per chunk', async () => {
    let waits = 0;
    const counted = createServer((_req: IncomingMessage, res: ServerResponse) => {
      const on = res.on.bind(res);
      res.on = ((event: string, listener: (...args: unknown[]) => void) => {
        if (event === 'drain') waits++;
        return on(event, listener);
      }) as typeof res.on;
      void sendStream(res, 200, 'application/json', Array.from({ length: 96 }, (_, i) => Buffer.alloc(CHUNK_BYTES, 97 + (i % 26))));
    });
    await new Promise<void>((resolve) => counted.listen(0, '127.0.0.1', resolve));
    try {
      const body = await new Promise<Buffer>((resolve, reject) => {
        get(`http://127.0.0.1:${(counted.address() as AddressInfo).port}`, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject);
      });
      expect(body.length).toBe(96 * CHUNK_BYTES);
      expect(waits).toBeLessThanOrEqual(Math.ceil((96 * CHUNK_BYTES) / STREAM_HIGH_WATER) + 1);
    } finally {
      counted.closeAllConnections();
      await new Promise<void>((resolve) => counted.close(() => resolve()));
    }
  });
});

describe('sendStream with pooled chunks', () => {
  /** A body of `n` chunks borrowed from listChunks, chunk i filled with byte `fill + i`: what a Table list is made of. */
  function* pooled(n: number, fill: number): Generator<Buffer> {
    for (let i = 0; i < n; i++) yield listChunks.take().fill(fill + i);
  }
  const expected = (n: number, fill: number) => Buffer.concat(Array.from({ length: n }, (_, i) => Buffer.alloc(listChunks.size, fill + i)));

  it('gives each chunk back once the connection has written it, and lends it to the next body', async () => {
    const idle = listChunks.idle;
    body = () => pooled(4, 1);
    const res = await fetchAll();
    await finished;
    expect(res.bytes.equals(expected(4, 1))).toBe(true);
    expect(listChunks.idle).toBeGreaterThan(idle);
  });

  it('never lends a chunk to a second body while a slow client has not read the first', async () => {
    // The first client reads nothing until the second response is whole; chunks written to the first
    // connection but not yet taken by the kernel must not be reused by the second body.
    const n = 200; // 12.5 MiB: more than the sockets' buffers hold
    const bodies = [() => pooled(n, 10), () => pooled(n, 100)];
    body = () => bodies.shift()!();
    const slow = await new Promise<IncomingMessage>((resolve, reject) => get(base, resolve).on('error', reject));
    slow.pause();
    const fast = await fetchAll();
    expect(fast.bytes.equals(expected(n, 100))).toBe(true);
    const chunks: Buffer[] = [];
    slow.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => slow.on('end', resolve).resume());
    expect(Buffer.concat(chunks).equals(expected(n, 10))).toBe(true);
  });

  it('a body of one pooled chunk (a short list) is given back after it is written', async () => {
    const chunk = listChunks.take();
    chunk.write('{"rows":[]}');
    body = () => [chunk.subarray(0, 11)];
    const res = await fetchAll();
    await finished;
    expect(res.body).toBe('{"rows":[]}');
    expect(listChunks.take().buffer).toBe(chunk.buffer);
  });
});
