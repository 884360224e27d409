import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { closeGracefully, UndeliveredResponses } from './graceful-close';

/** Far more than the kernel buffers of a loopback connection hold: most of it waits in the server's socket. */
const BODY_BYTES = 24 * 2 ** 20;
const PIECE = Buffer.alloc(64 * 1024, 'x');

interface Bed {
  server: Server;
  responses: UndeliveredResponses;
  port: number;
  /** Resolves once the handler has ended its response (every byte written, most of them still queued). */
  ended: Promise<ServerResponse>;
}

function bed(): Promise<Bed> {
  let ended!: (res: ServerResponse) => void;
  const endedPromise = new Promise<ServerResponse>((r) => (ended = r));
  const server = createServer((req, res) => {
    if (req.url === '/small') {
      res.end('ok');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    for (let sent = 0; sent < BODY_BYTES; sent += PIECE.length) res.write(PIECE);
    res.end();
    ended(res);
  });
  const responses = new UndeliveredResponses(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, responses, port: (server.address() as AddressInfo).port, ended: endedPromise })));
}

/** A client that sends `path` and reads nothing until `resume` is called; `done` has everything it got. */
function pausedClient(port: number, path: string): { socket: Socket; resume(): void; done: Promise<Buffer> } {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  const done = new Promise<Buffer>((resolve) => socket.on('close', () => resolve(Buffer.concat(chunks))).on('error', () => {}));
  return { socket, resume: () => socket.resume(), done };
}

/** The body length of a chunked HTTP/1.1 body, and whether it ended with its final chunk. */
function dechunk(body: string): { bytes: number; complete: boolean } {
  let bytes = 0;
  for (let at = 0; ;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return { bytes, complete: false };
    const size = parseInt(body.slice(at, eol), 16);
    if (size === 0) return { bytes, complete: body.slice(eol, eol + 4) === '\r\n\r\n' };
    if (eol + 2 + size + 2 > body.length) return { bytes: bytes + body.length - eol - 2, complete: false };
    bytes += size;
    at = eol + 2 + size + 2;
  }
}

describe('closeGracefully', () => {
  it('delivers the whole of a response that ended before the close, to a peer that reads slowly', async () => {
    const b = await bed();
    const client = pausedClient(b.port, '/big');
    const res = await b.ended;
    // The premise: the response has ended, and bytes of it still wait in the socket.
    expect(res.writableEnded && res.writableLength > 0).toBe(true);
    expect(b.responses.size).toBe(1);
    const closing = closeGracefully(b.server, b.responses, 60_000);
    client.resume();
    const got = (await client.done).toString('latin1');
    await closing;
    expect(dechunk(got.slice(got.indexOf('\r\n\r\n') + 4))).toEqual({ bytes: BODY_BYTES, complete: true });
    expect(b.server.listening).toBe(false);
  });

  it('stops accepting connections at once, while what is under way drains', async () => {
    const b = await bed();
    const client = pausedClient(b.port, '/big');
    await b.ended;
    const closing = closeGracefully(b.server, b.responses, 60_000);
    const refused = await new Promise<string>((resolve) => connect(b.port, '127.0.0.1').on('connect', () => resolve('accepted')).on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error')));
    expect(refused).toBe('ECONNREFUSED');
    client.resume();
    await client.done;
    await closing;
  });

  it('closes idle keep-alive connections once everything is delivered', async () => {
    const b = await bed();
    const socket = connect(b.port, '127.0.0.1');
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const gone = new Promise<void>((resolve) => socket.on('close', () => resolve()).on('error', () => {}));
    socket.write('GET /small HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
    await closeGracefully(b.server, b.responses, 60_000);
    await gone;
    expect(b.responses.size).toBe(0);
  });

  it('gives up on a peer that never reads at the deadline, and closes its connection', async () => {
    const b = await bed();
    const client = pausedClient(b.port, '/big');
    await b.ended;
    await closeGracefully(b.server, b.responses, 100);
    client.resume();
    const got = (await client.done).toString('latin1');
    expect(dechunk(got.slice(got.indexOf('\r\n\r\n') + 4)).complete).toBe(false);
  });
});
