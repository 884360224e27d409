import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from '../request/respond';

/** Far more than the kernel buffers of a loopback connection hold: most of it is still to send when the answer comes. */
const BODY = Buffer.alloc(16 * 2 ** 20, 'x');

/** A server that refuses every body without reading it, after a moment of work (authentication, say). */
function refusingServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    setTimeout(() => send(res, 413, 'application/json', Buffer.from('{"kind":"Status","code":413}')), 5);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
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
  let bed: { server: Server; port: number };
  beforeAll(async () => (bed = await refusingServer()));
  afterAll(() => new Promise((resolve) => bed.server.close(resolve)));

  it('lets the client finish sending and read the answer: no reset, no broken pipe', async () => {
    for (let i = 0; i < 20; i++) expect(await post(bed.port)).toEqual({ status: 413 });
  });
});
