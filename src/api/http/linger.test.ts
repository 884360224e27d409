import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { send } from '../request/respond';
import { answerClientError } from './client-error';
import { unlessLingering } from './linger';
import { waitFor } from '../../testing/wait';

/** Far more than the kernel buffers of a loopback connection hold: most of it is still to send when the answer comes. */
const BODY = Buffer.alloc(16 * 2 ** 20, 'x');

interface Bed {
  server: Server;
  port: number;
  /** Every request handed to the listener, as `METHOD /path`. */
  seen: string[];
  /** The server's side of every connection. */
  sockets: Socket[];
}

/**
 * A server that refuses every POST body without reading it, after a moment of work (authentication,
 * say), and answers anything else with 200: its listener wrapped as Paddock's is.
 */
function refusingServer(): Promise<Bed> {
  const seen: string[] = [];
  const sockets: Socket[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method !== 'POST') return send(res, 200, 'application/json', Buffer.from('{}'));
    setTimeout(() => send(res, 413, 'application/json', Buffer.from('{"kind":"Status","code":413}')), 5);
  };
  const server = createServer(unlessLingering(listener));
  server.on('clientError', answerClientError);
  server.on('connection', (s: Socket) => sockets.push(s));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, seen, sockets })));
}

/** Posts BODY; resolves once the request is over (its 'close'), with the status read and any error. */
function post(port: number): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const out: { status?: number; error?: string } = {};
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers: { 'Content-Length': String(BODY.length) } }, (res) => {
      out.status = res.statusCode;
      res.resume();
    });
    req.on('error', (err: NodeJS.ErrnoException) => (out.error = err.code ?? err.message));
    req.on('close', () => resolve(out));
    req.end(BODY);
  });
}

describe('a connection closed with its request body unread', () => {
  let bed: Bed;
  beforeEach(async () => (bed = await refusingServer()));
  afterEach(() => new Promise((resolve) => bed.server.close(resolve)));

  // 20 posts of 16 MiB, each drained for up to the 500 ms the server lingers: up to 10 s on a loaded machine.
  it('lets the client finish sending and read the answer: no reset, no broken pipe', async () => {
    for (let i = 0; i < 20; i++) expect(await post(bed.port)).toEqual({ status: 413 });
  }, 30_000);

  it('serves nothing that follows the refused body: neither a pipelined request nor bytes that do not parse', async () => {
    const client = connect({ port: bed.port, host: '127.0.0.1', allowHalfOpen: true });
    let answer = '';
    client.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    const head = 'POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n';
    client.write(head + 'x'.repeat(10));
    await waitFor('the 413 answer', () => answer.includes('{"kind":"Status","code":413}'), 5000, 0);
    expect(answer).toMatch(/^HTTP\/1\.1 413 .*\r\n[\s\S]*Connection: close\r\n/i);
    // The rest of the body, a second request on the same connection (pipelined, or an attacker's), and junk.
    const rest = 'x'.repeat(90) + 'DELETE /second HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n' + 'G@T / HTTP/1.1\r\n\r\n';
    client.write(rest);
    // Once the server has read every byte (each is parsed as it is read), what it dispatched is known.
    const [server] = bed.sockets;
    await waitFor('the server to read the whole body', () => server.bytesRead >= Buffer.byteLength(head) + 10 + Buffer.byteLength(rest), 5000, 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(bed.seen).toEqual(['POST /big']);
    // No second answer: the connection ends after the first.
    await new Promise((resolve) => client.once('close', resolve).end());
    expect(answer.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });
});
