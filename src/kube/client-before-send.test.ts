import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeClient } from './client';

// The kubeconfig loader (an ES module) is not needed: the test builds the connection itself.
jest.mock('./connection', () => ({ loadConnection: jest.fn() }));

describe('KubeClient beforeSend', () => {
  let server: Server;
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.setHeader('Content-Type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('runs after the rate limiter, right before sending; throwing sends nothing', async () => {
    const { port } = server.address() as AddressInfo;
    const client = new KubeClient({ server: new URL(`http://127.0.0.1:${port}`), tls: {}, authHeaders: async () => ({}) }, { qps: 20, burst: 1 });
    let open = true;
    await client.create('/first', {}, { beforeSend: () => { if (!open) throw new Error('fenced'); } });
    // No token left: this one waits ~50 ms for the limiter, and the fence closes meanwhile.
    const second = client.create('/second', {}, { beforeSend: () => { if (!open) throw new Error('fenced'); } });
    open = false;
    await expect(second).rejects.toThrow('fenced');
    expect(received).toEqual(['POST /first']);
    client.close();
  });
});
