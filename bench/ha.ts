/**
 * Scenario 8: two replicas behind one balancer. client-go informers of several owners (list+watch,
 * WatchList and metadata-only, as kube-controller-manager's garbage collector and quota controller run)
 * follow tenantnamespaces through kube-apiserver while the two replicas restart in turn at a fixed
 * period, as in back-to-back rollouts: each restart ends every watch on that replica cleanly and its
 * clients watch again on the other one, with the resourceVersion the first gave them. An admin changes
 * a label on one namespace of each owner every second; every informer of that owner must report each
 * change exactly once. Counted: reconnects, relists (a list, or a watch with initial events, after the
 * first), changes never reported (lost), and updates that changed nothing (duplicates).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildGoInformer, isRow, startGoInformer, type InformerClient } from '../test/clients/informers';
import { clientKubeconfig } from '../test/controlplane/controlplane';
import { registerApiService, startPaddock, stopPaddock, type PaddockProcess } from '../test/controlplane/paddock';
import { killGroup, sleep, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster } from './cluster';
import type { BenchConfig } from './scenarios';
import { round } from './stats';

export interface HaResult {
  owners: number;
  informers: number;
  kinds: string[];
  seconds: number;
  /** How often a replica restarted (the two in turn). */
  restartEverySeconds: number;
  restarts: number;
  changes: number;
  /** Watch requests after each informer's first, all informers. */
  reconnects: number;
  /** Lists (or watches with initial events) after each informer's first, all informers. */
  replicaSwitchRelists: number;
  relistsPerHourPerInformer: number;
  /** Changes an informer's owner made and the informer never reported. */
  lostEvents: number;
  /** Updates that changed nothing but the resourceVersion. */
  duplicateEvents: number;
}

const KINDS = [
  { kind: 'list+watch', watchList: false, metadata: false },
  { kind: 'WatchList', watchList: true, metadata: false },
  { kind: 'metadata', watchList: false, metadata: true },
];

const BALANCER = resolve(__dirname, '..', 'test', 'controlplane', 'balancer.mjs');

/** The informers' owners: the first owners of the size-step tenants, one namespace each changed per second. */
export async function highAvailability(c: BenchCluster, config: BenchConfig, namespaceOf: (owner: string) => string, owners: string[]): Promise<HaResult> {
  const { seconds, restartEverySeconds } = config.ha;
  const dir = c.state.dir;
  const stateFile = join(dir, 'ha-replicas.json');
  const portFile = join(dir, 'ha-balancer.port');
  const replicas: PaddockProcess[] = [c.paddock!];
  const writeReplicas = () => writeFileSync(stateFile, JSON.stringify({ replicas }));
  replicas.push(await startPaddock(c.state, c.paddockKubeconfig, { name: 'paddock-b', mode: 'apiserver', extraArgs: ['--leader-elect=false', '--log-level=info'] }));
  writeReplicas();
  rmSync(portFile, { force: true });
  const balancerLog = join(dir, 'logs', 'ha-balancer.log');
  const balancer = startDetached(process.execPath, [BALANCER, stateFile, portFile], balancerLog);
  const informers: { owner: string; client: InformerClient }[] = [];
  try {
    await waitFor('the balancer', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 10_000, 50);
    const port = Number(readFileSync(portFile, 'utf8'));
    await registerApiService(c.state, port);

    const binary = buildGoInformer();
    for (const owner of owners) {
      const kubeconfig = join(dir, `kubeconfig-ha-${owner}`);
      writeFileSync(kubeconfig, clientKubeconfig(c.state.server, c.state.pki.ca.cert, owner, c.userCert(owner)));
      for (const k of KINDS) informers.push({ owner, client: startGoInformer(`${owner} ${k.kind}`, binary, kubeconfig, k.watchList, k.metadata) });
    }
    for (const { client } of informers) await waitFor(`${client.name} synced`, async () => client.events.some((e) => e.event === 'synced'), 180_000, 100);
    const firstWatches = new Map(informers.map(({ client }) => [client, watchRequests(client)]));

    const expected = new Map<string, string[]>(owners.map((o) => [o, []]));
    let restarts = 0;
    const restartLog: string[] = [];
    const started = Date.now();
    for (let s = 0; s < seconds; s++) {
      const tick = Date.now();
      for (const owner of owners) {
        const value = `s${s}`;
        const res = await c.admin.send('PATCH', `/api/v1/namespaces/${namespaceOf(owner)}`, { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
          JSON.stringify({ metadata: { labels: { 'bench-ha': value } } }));
        if (res.status !== 200) throw new Error(`PATCH namespace ${namespaceOf(owner)}: ${res.status}`);
        expected.get(owner)!.push(value);
      }
      if (s > 0 && s % restartEverySeconds === 0) {
        // One replica at a time, the two in turn: the other serves every reconnect meanwhile. As a rollout
        // takes a pod out of the Service's endpoints before it stops it, the replica leaves the balancer first.
        const i = restarts % 2;
        writeFileSync(stateFile, JSON.stringify({ replicas: replicas.filter((_, k) => k !== i) }));
        if (i === 0) {
          // The main replica (it reconciles), with the flags it had; the APIService keeps pointing at the balancer.
          await c.stopPaddock();
          replicas[0] = await c.startPaddock(c.flags!, 'paddock', undefined, false);
          writeReplicas();
        } else {
          await stopPaddock(replicas[1]);
          replicas[1] = await startPaddock(c.state, c.paddockKubeconfig, { name: 'paddock-b', mode: 'apiserver', extraArgs: ['--leader-elect=false', '--log-level=info'] });
          writeReplicas();
        }
        restarts++;
        restartLog.push(`${new Date().toISOString()} restarted replica ${i}`);
      }
      await sleep(Math.max(0, 1000 - (Date.now() - tick)));
    }
    const elapsed = (Date.now() - started) / 1000;
    // Every change must arrive: wait for the last one of each owner at each informer (a positive event).
    for (const { owner, client } of informers) {
      const last = expected.get(owner)!.at(-1)!;
      await waitFor(`${client.name} to report ${last}`, async () => labelsSeen(client, namespaceOf(owner)).has(last), 60_000, 100).catch(() => undefined);
    }
    let lost = 0;
    let duplicates = 0;
    let relists = 0;
    let reconnects = 0;
    for (const { owner, client } of informers) {
      const seen = labelsSeen(client, namespaceOf(owner));
      lost += expected.get(owner)!.filter((v) => !seen.has(v)).length;
      duplicates += client.events.filter(isRow).filter((e) => e.same).length;
      relists += loads(client) - 1;
      reconnects += watchRequests(client) - firstWatches.get(client)!;
    }
    // What each informer sent and what client-go logged: why it relisted, when it did.
    writeFileSync(join(dir, 'logs', 'ha-informers.log'), [...restartLog, ...informers.map(({ client }) => [
      `== ${client.name}`,
      ...client.events.filter((e) => e.event === 'request').map((e) => JSON.stringify(e)),
      client.diagnostics(),
    ].join('\n'))].join('\n'));
    return {
      owners: owners.length, informers: informers.length, kinds: KINDS.map((k) => k.kind), seconds: round(elapsed), restartEverySeconds,
      restarts, changes: owners.length * seconds, reconnects, replicaSwitchRelists: relists,
      relistsPerHourPerInformer: round((relists / informers.length) * (3600 / elapsed)), lostEvents: lost, duplicateEvents: duplicates,
    };
  } finally {
    for (const { client } of informers) await client.stop();
    await killGroup(balancer);
    const [, second] = replicas;
    if (second) await stopPaddock(second);
    // Later scenarios talk to the main replica: the APIService points at it again.
    if (c.paddock) await registerApiService(c.state, c.paddock.port);
  }
}

/** The values of the label bench-ha an informer reported for `namespace`, in any order. */
function labelsSeen(client: InformerClient, namespace: string): Set<string> {
  return new Set(client.events.filter(isRow).filter((e) => e.name === namespace && e.event !== 'delete').map((e) => e.labels['bench-ha']).filter(Boolean));
}

function queries(client: InformerClient): URLSearchParams[] {
  return client.events.filter((e) => e.event === 'request').map((e) => new URLSearchParams((e as { query: string }).query));
}

const watchRequests = (client: InformerClient) => queries(client).filter((q) => q.get('watch') === 'true').length;
const loads = (client: InformerClient) => queries(client).filter((q) => q.get('watch') !== 'true' || q.get('sendInitialEvents') === 'true').length;
