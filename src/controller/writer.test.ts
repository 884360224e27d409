import type { KubeClient, RequestOptions } from '../kube/client';
import type { KubeObject } from '../kube/types';
import { WriteFence } from './write-fence';
import { Writer } from './writer';

/**
 * A client that behaves like KubeClient around a request: it waits for the rate limiter (here: until the
 * test releases it), then calls `beforeSend` and only then "sends" (records) the request.
 */
class FakeClient {
  sent: string[] = [];
  readonly bodies: unknown[] = [];
  readonly #waiting: (() => void)[] = [];
  limited = false;

  release(): void { for (const go of this.#waiting.splice(0)) go(); }
  get waiting(): number { return this.#waiting.length; }

  async #send(method: string, path: string, opts: RequestOptions = {}): Promise<unknown> {
    opts.signal?.throwIfAborted();
    if (this.limited) {
      await new Promise<void>((resolve, reject) => {
        this.#waiting.push(resolve);
        opts.signal?.addEventListener('abort', () => reject(opts.signal!.reason), { once: true });
      });
    }
    opts.beforeSend?.();
    this.sent.push(`${method} ${path}`);
    this.bodies.push(opts.body);
    return opts.body;
  }

  create(path: string, body: unknown, opts: RequestOptions = {}) { return this.#send('POST', path, { ...opts, body }); }
  update(path: string, body: unknown, opts: RequestOptions = {}) { return this.#send('PUT', path, { ...opts, body }); }
  delete(path: string, opts: RequestOptions = {}) { return this.#send('DELETE', path, opts); }
  get(path: string, opts: RequestOptions = {}) { return this.#send('GET', path, opts); }
}

const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const flush = () => new Promise((r) => setImmediate(r));

describe('Writer', () => {
  it('deletes only the object it decided about: by uid, or by resourceVersion for a summary without one', async () => {
    const client = new FakeClient();
    const fence = new WriteFence();
    fence.begin(performance.now(), 10_000);
    const writer = new Writer(client as unknown as KubeClient, { fence });
    await writer.delete({ ...ns('a'), metadata: { name: 'a', uid: 'u1', resourceVersion: '5' } });
    await writer.delete({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'paddock-limits-0', namespace: 'a', resourceVersion: '7' } });
    expect(client.bodies.map((b) => (b as { preconditions?: unknown }).preconditions)).toEqual([{ uid: 'u1' }, { resourceVersion: '7' }]);
  });

  it('sends nothing while the fence is closed (before leading, or after the term ended)', async () => {
    const client = new FakeClient();
    const fence = new WriteFence();
    const writer = new Writer(client as unknown as KubeClient, { fence });
    await expect(writer.create(ns('a'))).rejects.toThrow(/not leading/);
    fence.begin(performance.now(), 10_000);
    await writer.create(ns('b'));
    fence.end('the Lease is held by usurper');
    await expect(writer.update(ns('c'))).rejects.toThrow(/usurper/);
    await expect(writer.delete(ns('d'))).rejects.toThrow(/usurper/);
    expect(client.sent).toEqual(['POST /api/v1/namespaces']);
  });

  it('checks the fence after the rate limiter, right before sending: a write that waited past the deadline is never sent', async () => {
    let now = 0;
    const client = new FakeClient();
    client.limited = true;
    const fence = new WriteFence(() => now);
    fence.begin(0, 4000);
    const writer = new Writer(client as unknown as KubeClient, { fence });
    const write = writer.create(ns('late'));
    await flush();
    expect(client.waiting).toBe(1); // admitted by the fence, waiting for a token
    now = 4000; // the renew deadline passes while it waits
    client.release();
    await expect(write).rejects.toThrow(/renew deadline/);
    expect(client.sent).toEqual([]);
    fence.end('done');
  });

  it('cancels the writes of a scope when its signal aborts: waiting ones reject, later ones are never sent', async () => {
    const client = new FakeClient();
    const writer = new Writer(client as unknown as KubeClient);
    const cancel = new AbortController();
    const results: string[] = [];
    const pass = writer.within(cancel.signal, async () => {
      await writer.create(ns('one'));
      client.limited = true;
      const waiting = writer.create(ns('two')).then(() => 'sent', (err: Error) => `rejected: ${err.message}`);
      await flush();
      cancel.abort(new Error('leadership ended'));
      results.push(await waiting);
      results.push(await writer.update(ns('three')).then(() => 'sent', (err: Error) => `rejected: ${err.message}`));
    });
    await pass;
    expect(results).toEqual(['rejected: leadership ended', 'rejected: leadership ended']);
    expect(client.sent).toEqual(['POST /api/v1/namespaces']);
    // Outside the scope the writer is not cancelled.
    client.limited = false;
    await writer.create(ns('four'));
    expect(client.sent).toHaveLength(2);
  });

  it('keeps the scope across callbacks a pass schedules (timers, promise chains)', async () => {
    const client = new FakeClient();
    const writer = new Writer(client as unknown as KubeClient);
    const cancel = new AbortController();
    let later!: Promise<unknown>;
    writer.within(cancel.signal, () => {
      later = new Promise((r) => setTimeout(r, 5)).then(() => writer.create(ns('late')));
    });
    cancel.abort(new Error('leadership ended'));
    await expect(later).rejects.toThrow('leadership ended');
    expect(client.sent).toEqual([]);
  });
});
