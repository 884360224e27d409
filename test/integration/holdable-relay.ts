/**
 * A TCP relay to kube-apiserver whose answers can be held back: a Paddock replica that reaches
 * kube-apiserver through it sees nothing kube-apiserver sends while it is held (its watches deliver no
 * change), so it stays behind the other replicas until the relay is released — as a replica whose watch
 * lags. What the replica sends still goes through.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { controlPlane } from './env';
import { PADDOCK_STATE_FILE } from './global-setup';

export class HoldableRelay {
  readonly #server: Server;
  readonly #pairs = new Set<{ client: Socket; upstream: Socket }>();
  #held = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** A relay on a free port of 127.0.0.1 to `target` (`https://host:port`). */
  static async start(target: string): Promise<HoldableRelay> {
    const { hostname, port } = new URL(target);
    const relay: HoldableRelay = new HoldableRelay(createServer((client) => relay.#connect(client, hostname, Number(port))));
    await new Promise<void>((resolve) => relay.#server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  #connect(client: Socket, host: string, port: number): void {
    const upstream = connect({ host, port });
    const pair = { client, upstream };
    this.#pairs.add(pair);
    const close = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    if (this.#held) upstream.pause();
    else upstream.pipe(client);
  }

  /** From now on, nothing kube-apiserver sends is passed on (it waits in the relay and the kernel's buffers). */
  hold(): void {
    this.#held = true;
    for (const { client, upstream } of this.#pairs) {
      upstream.unpipe(client);
      upstream.pause();
    }
  }

  /** Passes on what was held, and everything after it. */
  release(): void {
    if (!this.#held) return;
    this.#held = false;
    for (const { client, upstream } of this.#pairs) upstream.pipe(client);
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.#pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * One more Paddock replica, `name` (API only, no leader election), that reaches kube-apiserver through a
 * HoldableRelay: its watches, and its reviews' answers, stop while the relay holds. `stop` ends both.
 */
export async function startReplicaBehindRelay(name: string): Promise<{ relay: HoldableRelay; replica: PaddockProcess; stop(): Promise<void> }> {
  const state = controlPlane();
  const relay = await HoldableRelay.start(state.server);
  const { kubeconfig } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { kubeconfig: string };
  const config = JSON.parse(readFileSync(kubeconfig, 'utf8'));
  config.clusters[0].cluster.server = `https://127.0.0.1:${relay.port}`;
  const relayed = join(state.dir, `${name}.kubeconfig`);
  writeFileSync(relayed, JSON.stringify(config));
  let replica: PaddockProcess;
  try {
    replica = await startPaddock(state, relayed, { name, mode: 'apiserver', extraArgs: ['--leader-elect=false'] });
  } catch (err) {
    await relay.close();
    throw err;
  }
  return {
    relay, replica,
    async stop() {
      relay.release();
      await stopPaddock(replica);
      await relay.close();
    },
  };
}
