/**
 * The floor of a watch hop in Node.js (goal 1's explanation): `watch-relay-floor-server.mjs`, which
 * relays each watch to kube-apiserver and copies its bytes through, as capsule-proxy does, on Paddock's
 * runtime. A phase of the watch scenario: each owner's watchers watch namespaces through it with the
 * owner's label selector, and its hop (its delivery minus kube-apiserver's own) is what passing an event
 * on costs a Node.js process on this machine, before any work of Paddock's.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { killGroup, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster } from './cluster';
import type { Client } from './http';
import { ratio, round } from './stats';
import { labelSelectedWatchPath, type HopFloor, type Phase, type WatchResult, type WatchWorld } from './watch';

const SERVER = resolve(__dirname, 'watch-relay-floor-server.mjs');
export const WATCH_RELAY_FLOOR_TARGET = 'Node.js relay of the label-selected watch (floor of a Node.js hop)';

/** Starts the relay; `phase` is its phase of the watch scenario, `stop` ends it. */
export async function startWatchRelayFloor(cluster: BenchCluster, world: WatchWorld, maxSockets: number): Promise<{ phase: Phase; stop(): Promise<void> }> {
  const { dir, pki, server } = cluster.state;
  const portFile = join(dir, 'watch-relay-floor.port');
  rmSync(portFile, { force: true });
  const pid = startDetached(process.execPath, [SERVER, pki.paddockServing.cert, pki.paddockServing.key, server, pki.ca.cert, pki.users.admin.cert, pki.users.admin.key, portFile],
    join(dir, 'logs', 'watch-relay-floor-server.log'));
  let client: Client | undefined;
  const stop = async () => {
    client?.close();
    await killGroup(pid);
  };
  try {
    await waitFor('the watch relay floor server', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 10_000, 50);
    const url = `https://127.0.0.1:${readFileSync(portFile, 'utf8')}`;
    // The relay's clients need no identity of their own (it relays as the admin): any certificate will do.
    client = cluster.client(url, pki.users.admin, maxSockets);
    const agent = client.agent;
    const phase: Phase = {
      target: WATCH_RELAY_FLOOR_TARGET, role: 'baseline', proxy: { name: 'the Node.js relay', pid },
      watchesOf: (owner) => ({ agent, url: `${url}${labelSelectedWatchPath(world, owner)}` }),
    };
    return { phase, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Runs `measure` with the relay's phase while the relay serves (for as many watches as `maxSockets`), then stops it. */
export async function withWatchRelayFloor<T>(cluster: BenchCluster, world: WatchWorld, maxSockets: number, measure: (phase: Phase) => Promise<T>): Promise<T> {
  const relay = await startWatchRelayFloor(cluster, world, maxSockets);
  try {
    return await measure(relay.phase);
  } finally {
    await relay.stop();
  }
}

/** Paddock's hop beside the relay's, at each fan-out both were measured at. */
export function hopFloors(w: WatchResult): HopFloor[] {
  return w.phases.filter((r) => r.target === WATCH_RELAY_FLOOR_TARGET && r.hop).flatMap((r) => {
    const p = w.phases.find((x) => x.role === 'paddock' && x.watchers === r.watchers && x.hop);
    if (!p) return [];
    const [paddock, relay] = [p.hop!, r.hop!];
    return [{
      watchers: r.watchers, paddock: { p50: round(paddock.p50), p99: round(paddock.p99) }, relay: { p50: round(relay.p50), p99: round(relay.p99) },
      ratioP50: ratio(paddock.p50, relay.p50), ratioP99: ratio(paddock.p99, relay.p99),
    }];
  });
}
