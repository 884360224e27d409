import { createServer, get, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHUNK_BYTES, sendStream } from './respond';

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

function fetchAll(method = 'GET'): Promise<{ headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(base, { method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
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
