import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { buildGoInformer, isRow, startGoInformer, type ClientEvent, type InformerClient, type RowEvent } from '../clients/informers';
import { applyObject, controlPlane, kubeconfigOf, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { replicas, startReplica, stopReplica } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { TenantOwner } from '../../src/kube/types';

jest.setTimeout(300_000);

// Two replicas behind one balancer, as a Service spreads connections over a Deployment's pods: every
// reconnect of a watch may reach the other replica, with a resourceVersion the first one gave. Clients
// follow alice's TenantNamespaces through kube-apiserver while the replicas restart one at a time, round
// after round, as in a rollout: each restart ends every watch on that replica, and its clients watch
// again — on the other one. None of them may relist because of a replica switch, miss a change or get
// one twice.

const id = uniqueName('h').slice(2);
const OIL = `hoil${id}`;
const GAS = `hgas${id}`;
const ALICE: TenantOwner[] = [{ kind: 'User', name: 'alice' }];
const GAS_DEVS: TenantOwner[] = [{ kind: 'Group', name: 'gas-devs' }];
const tenant = (name: string, owners: TenantOwner[], namespaces: string[]) => tenantNamed(name, { owners, namespaces, deletionPolicy: 'Delete' });

const CLIENTS = ['client-go informer (list+watch)', 'client-go informer (WatchList)', 'client-go metadata informer'] as const;
const clients = new Map<string, InformerClient>();
const client = (name: string) => clients.get(name)!;
const rowsOf = (c: InformerClient, name: string) => c.events.filter(isRow).filter((e) => e.name === name);

async function reported(c: InformerClient, what: string, match: (e: ClientEvent) => boolean): Promise<void> {
  await waitFor(`${c.name} to report ${what}`, async () => c.events.some(match), 60_000, 50).catch((err) => {
    const tail = c.events.slice(-12).map((e) => JSON.stringify(e)).join('\n  ');
    throw new Error(`${(err as Error).message}; last events:\n  ${tail}\n${c.diagnostics().slice(-1500)}`);
  });
}

const labelled = (name: string, key: string, value: string) => (e: ClientEvent) => isRow(e) && e.name === name && e.event !== 'delete' && e.labels[key] === value;

async function label(namespace: string, value: string): Promise<void> {
  const res = await kubectl('admin', ['label', 'namespace', namespace, `round=${value}`, '--overwrite']);
  if (res.code !== 0) throw new Error(res.stderr);
}

/** Every client reports the namespace labelled round=`value`. */
async function everyClientSees(namespace: string, value: string): Promise<void> {
  for (const c of clients.values()) await reported(c, `${namespace} with round=${value}`, labelled(namespace, 'round', value));
}

/** The requests of a client-go client that (re)load the whole state — lists, and watches that start with initial events — with their answers. */
function loads(c: InformerClient): string[] {
  const requests = c.events.filter((e) => e.event === 'request') as { query: string; status?: number; error?: string }[];
  return requests.filter((r) => {
    const q = new URLSearchParams(r.query);
    return q.get('watch') !== 'true' || q.get('sendInitialEvents') === 'true';
  }).map((r) => `${r.status ?? r.error} ${r.query}`);
}

/** Every request of a client-go client after its first load, with its answer (what a failure shows). */
const requestsOf = (c: InformerClient) => (c.events.filter((e) => e.event === 'request') as { query: string; status?: number; error?: string }[]).slice(1).map((r) => `${r.status ?? r.error} ${r.query}`);

const watches = (c: InformerClient) => c.events.filter((e) => e.event === 'request' && new URLSearchParams((e as { query: string }).query).get('watch') === 'true').length;

beforeAll(async () => {
  const binary = buildGoInformer();
  await applyObject(tenant(OIL, ALICE, ['a', 'b']));
  await applyObject(tenant(GAS, GAS_DEVS, ['a']));
  await waitFor('rows served to alice', async () => (await kubectl('alice', ['get', 'tns', `${OIL}-a`, `${OIL}-b`])).code === 0, 90_000, 250);
  await waitFor('row served to bob', async () => (await kubectl('bob', ['get', 'tns', `${GAS}-a`])).code === 0, 90_000, 250);
  const kubeconfig = controlPlane().kubeconfigs.alice;
  clients.set(CLIENTS[0], startGoInformer(CLIENTS[0], binary, kubeconfig, false));
  clients.set(CLIENTS[1], startGoInformer(CLIENTS[1], binary, kubeconfig, true));
  clients.set(CLIENTS[2], startGoInformer(CLIENTS[2], binary, kubeconfig, false, true));
  for (const c of clients.values()) await reported(c, 'synced', (e) => e.event === 'synced');
}, 15 * 60_000);

afterAll(async () => {
  for (const c of clients.values()) await c.stop();
  await kubectl('admin', ['delete', 'tenants', OIL, GAS, '--ignore-not-found', '--wait=false']);
});

describe('replicas restarting one at a time, round after round', () => {
  const ROUNDS = 6;
  const marks = new Map<string, number>();
  const replicaPorts = new Set<number>();

  beforeAll(async () => {
    for (const [name, c] of clients) marks.set(name, watches(c));
    for (let round = 0; round < ROUNDS; round++) {
      const name = round % 2 === 0 ? 'paddock-a' : 'paddock-b';
      await stopReplica(name);
      // A change while one replica is down: the other serves every client meanwhile.
      await label(`${OIL}-a`, `r${round}`);
      // Ownership changes on the way: gas's row appears for alice, then goes again.
      if (round === 2) await applyObject(tenant(GAS, [...GAS_DEVS, ...ALICE], ['a']));
      if (round === 4) await applyObject(tenant(GAS, GAS_DEVS, ['a']));
      await everyClientSees(`${OIL}-a`, `r${round}`);
      replicaPorts.add((await startReplica(name)).port);
      await label(`${OIL}-b`, `r${round}`);
      await everyClientSees(`${OIL}-b`, `r${round}`);
    }
  }, 600_000);

  it.each(CLIENTS)('%s watched again after the restarts, and the replicas of every generation served', (name) => {
    // Each restart moves every watch on that replica to the other one; from the second on, that is all of them.
    expect(watches(client(name)) - marks.get(name)!).toBeGreaterThanOrEqual(ROUNDS - 1);
    const { dir } = controlPlane();
    const reached = new Set(readFileSync(`${dir}/logs/balancer.log`, 'utf8').split('\n').filter((l) => l.startsWith('{"connection"')).map((l) => JSON.parse(l).connection as number));
    // The last one started after the last switch; every earlier generation took the other's clients.
    for (const port of [...replicaPorts].slice(0, -1)) expect(reached.has(port)).toBe(true);
  });

  it.each(CLIENTS)('%s saw every change once, and gas granted then revoked', (name) => {
    const c = client(name);
    for (const ns of [`${OIL}-a`, `${OIL}-b`]) {
      const rounds = rowsOf(c, ns).map((e) => e.labels.round).filter(Boolean);
      expect([...new Set(rounds)]).toEqual(Array.from({ length: ROUNDS }, (_, i) => `r${i}`));
    }
    // Granted: add; revoked: delete; in between the row may change (its guardrails converging), never go.
    const gas = rowsOf(c, `${GAS}-a`).map((e) => e.event);
    expect([gas[0], gas.at(-1), gas.filter((e) => e !== 'update').length]).toEqual(['add', 'delete', 2]);
  });
});

describe('over the whole run', () => {
  it.each(CLIENTS)('%s loaded the state once: no relist, no 410', (name) => {
    const c = client(name);
    if (loads(c).length !== 1) throw new Error(`loaded ${loads(c).length} times:\n${loads(c).join('\n')}\nevery request after the first, with its answer:\n${requestsOf(c).join('\n')}`);
    expect(c.events.filter((e) => e.event === 'error')).toEqual([]);
  });

  it.each(CLIENTS)('%s got no event that changed nothing', (name) => {
    expect(client(name).events.filter(isRow).filter((e) => (e as RowEvent).same)).toEqual([]);
  });

  it.each(CLIENTS)("%s holds exactly alice's rows of these tenants, as kube-apiserver serves them now", async (name) => {
    const server = await kubectlJson('alice', ['get', 'tns', '-o', 'json']);
    const expected = new Map<string, string | undefined>(server.items.filter((o: any) => o.metadata.name.startsWith(OIL) || o.metadata.name.startsWith(GAS))
      .map((o: any) => [o.metadata.name, o.metadata.labels?.round]));
    const held = new Map<string, string | undefined>();
    for (const e of client(name).events.filter(isRow)) {
      if (!e.name.startsWith(OIL) && !e.name.startsWith(GAS)) continue;
      if (e.event === 'delete') held.delete(e.name);
      else held.set(e.name, e.labels.round);
    }
    expect(held).toEqual(expected);
  });
});

describe('kubectl: a list answered by one replica, a watch by the other', () => {
  it('resumes on the second replica from the resourceVersion the first gave, with exactly the later change', async () => {
    const [first, second] = replicas();
    const direct = (port: number) => [`--server=https://127.0.0.1:${port}`, '--tls-server-name=localhost'];
    // The list as the server sent it (`kubectl get -o json` would wrap the items in a List of its own, without a resourceVersion).
    const raw = await kubectl('alice', [...direct(first.port), 'get', '--raw', '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces']);
    const list = JSON.parse(raw.stdout);
    expect(list.metadata.resourceVersion).toMatch(/\S/);
    const child = spawn('kubectl', ['--kubeconfig', kubeconfigOf('alice')!, ...direct(second.port), 'get', '--raw',
      `/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?watch=true&resourceVersion=${encodeURIComponent(list.metadata.resourceVersion)}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    try {
      await label(`${OIL}-a`, 'crossed');
      const events = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: any });
      await waitFor('the change on the watch', async () => events().some((e) => e.object?.metadata?.labels?.round === 'crossed'), 60_000, 50)
        .catch((e) => { throw new Error(`${(e as Error).message}; kubectl printed ${out.slice(-2000)} ${err.slice(-1000)}`); });
      // Nothing before it: the list already held every earlier state, so the first event is the change itself.
      expect(events().filter((e) => e.object?.metadata?.name?.startsWith(OIL))[0]).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: `${OIL}-a`, labels: { round: 'crossed' } } } });
      expect(events().filter((e) => e.type === 'ERROR')).toEqual([]);
    } finally {
      child.kill();
    }
  });
});
