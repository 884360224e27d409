import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { CertFiles } from '../controlplane/pki';
import { HTTP_CASES, RAW_CASES, type HttpCase } from './bad-input-corpus';
import { controlPlane, httpsRequest } from './env';
import { replicas } from './paddock-env';
import { rawRequest } from './raw-http';

jest.setTimeout(120_000);

const MiB = 1 << 20;
const { pki } = controlPlane();

interface Outcome {
  name: string;
  status: number;
  bytes: number;
  problem?: string;
}

/** One corpus request through an ordinary HTTPS client; never rejects. A watch that is answered 200 is left after its headers. */
function send(port: number, agent: Agent, c: HttpCase): Promise<Outcome> {
  return new Promise((resolve) => {
    let bytes = 0;
    let done = false;
    const finish = (o: Omit<Outcome, 'name' | 'bytes'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ name: c.name, bytes, ...o });
    };
    let req: ReturnType<typeof request>;
    try {
      req = request({ host: '127.0.0.1', port, servername: 'localhost', agent, method: c.method, path: c.path, headers: c.headers }, (res) => {
        const status = res.statusCode ?? 0;
        if (status === 200 && /[?&]watch=(1|t|T|true|TRUE|True)(&|$)/.test(c.path)) {
          res.destroy();
          finish({ status });
          return;
        }
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MiB) {
            res.destroy();
            finish({ status, problem: 'answer over 1 MiB' });
          }
        });
        res.on('end', () => finish({ status }));
        res.on('error', (err) => finish({ status, problem: `answer cut: ${err.message}` }));
      });
    } catch (err) {
      finish({ status: 0, problem: `the client refused to send it: ${(err as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: 0, problem: 'no answer within 15 s' });
    }, 15_000);
    req.on('error', (err) => finish({ status: 0, problem: `no answer: ${err.message}` }));
    req.end(c.body);
  });
}

async function inBatches<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  }));
  return out;
}

function verdict(o: Outcome): string | undefined {
  if (o.problem) return o.problem;
  if (o.status === 0) return 'no HTTP answer';
  if (o.status >= 500) return `answered ${o.status}`;
  if (o.bytes > MiB) return 'answer over 1 MiB';
  return undefined;
}

describe('the bad-input corpus against a real Paddock', () => {
  it('has at least 300 distinct requests', () => {
    expect(HTTP_CASES.length + RAW_CASES.length).toBeGreaterThanOrEqual(300);
    expect(new Set(HTTP_CASES.map((c) => c.name)).size).toBe(HTTP_CASES.length);
  });

  it('answers every one with a small non-5xx answer, and stays ready throughout', async () => {
    const target = replicas().find((r) => r.identity === 'paddock-a')!;
    const readyz = () => httpsRequest(`https://127.0.0.1:${target.port}/readyz`, { cert: pki.users.admin }).then((r) => r.status, () => 0);
    expect(await readyz()).toBe(200);

    const readiness: number[] = [];
    let running = true;
    const prober = (async () => {
      while (running) {
        readiness.push(await readyz());
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const agentFor = (cert: CertFiles) => new Agent({ keepAlive: true, maxSockets: 6, ca: readFileSync(pki.ca.cert), cert: readFileSync(cert.cert), key: readFileSync(cert.key) });
    const users = { admin: agentFor(pki.users.admin), alice: agentFor(pki.users.alice) };
    const started = Date.now();
    const [httpOutcomes, rawOutcomes] = await Promise.all([
      inBatches(Object.entries(users).flatMap(([user, agent]) => HTTP_CASES.map((c) => ({ user, agent, c }))), 12,
        async ({ user, agent, c }) => ({ ...(await send(target.port, agent, c)), name: `${user}: ${c.name}` })),
      inBatches(RAW_CASES, 16, async (c) => {
        const a = await rawRequest(target.port, c.payload, { cert: c.user ? pki.users[c.user] : undefined, timeoutMs: 15_000, maxBytes: MiB + 1 });
        return { name: `raw: ${c.name}`, status: a.status, bytes: a.bytes, problem: a.timedOut ? 'no answer within 15 s' : a.error } as Outcome;
      }),
    ]);
    running = false;
    await prober;
    for (const a of Object.values(users)) a.destroy();

    const failures = [...httpOutcomes, ...rawOutcomes].flatMap((o) => {
      const v = verdict(o);
      return v ? [`${o.name} → ${v} (status ${o.status}, ${o.bytes} bytes)`] : [];
    });
    expect(failures).toEqual([]);
    expect(httpOutcomes.length + rawOutcomes.length).toBe(2 * HTTP_CASES.length + RAW_CASES.length);
    expect(readiness.length).toBeGreaterThan(0);
    expect(readiness.filter((s) => s !== 200)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(60_000);

    // The same process, still serving.
    expect(replicas().find((r) => r.identity === 'paddock-a')!.pid).toBe(target.pid);
    expect(() => process.kill(target.pid, 0)).not.toThrow();
    expect(await readyz()).toBe(200);
  });
});
