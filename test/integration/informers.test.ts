import {
  buildGoInformer, isRow, startGoInformer, startNodeInformer, startNodeWatchList, TNS_PATH,
  type ClientEvent, type InformerClient, type RowEvent,
} from '../clients/informers';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { startReplica, stopReplica } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { TenantOwner } from '../../src/kube/types';

jest.setTimeout(120_000);

// Four real clients follow tenantnamespaces through kube-apiserver's aggregation layer as alice, all at
// once: every change below is made once and each client must report it.
const GO_LIST_WATCH = 'client-go informer (list+watch)';
const GO_WATCH_LIST = 'client-go informer (WatchList)';
const NODE_INFORMER = 'client-node informer';
const NODE_WATCH_LIST = 'client-node Watch (WatchList)';
const CLIENTS = [GO_LIST_WATCH, GO_WATCH_LIST, NODE_INFORMER, NODE_WATCH_LIST];

const id = uniqueName('i').slice(2);
/** alice's, before the clients start: part of every client's initial state. */
const PRE = `pre${id}`;
/** alice's, created once the clients are synced: the tenant whose rows change under them. */
const OIL = `oil${id}`;
/** gas-devs', one before and one after the clients start: alice's clients never see their rows. */
const GAS_BEFORE = `gasb${id}`;
const GAS_AFTER = `gasa${id}`;

function tenant(name: string, owners: TenantOwner[], namespaces: string[]) {
  return tenantNamed(name, { owners, namespaces, deletionPolicy: 'Delete' });
}
const ALICE: TenantOwner[] = [{ kind: 'User', name: 'alice' }];
const GAS_DEVS: TenantOwner[] = [{ kind: 'Group', name: 'gas-devs' }];

/** Waits until `user` can get every named row through kube-apiserver (Paddock serves them). */
async function served(user: string, names: string[]): Promise<void> {
  await waitFor(`${names.join(', ')} served to ${user}`, async () => (await kubectl(user, ['get', 'tns', ...names])).code === 0, 60_000, 250);
}

const clients = new Map<string, InformerClient>();

function client(name: string): InformerClient {
  const c = clients.get(name);
  if (!c) throw new Error(`${name} did not start`);
  return c;
}

/** The row events a client reported for one TenantNamespace, in order. */
function rowsOf(c: InformerClient, name: string): RowEvent[] {
  return c.events.filter(isRow).filter((e) => e.name === name);
}

/** Waits for a client to report an event; the failure shows what it did report. */
async function reported(c: InformerClient, what: string, match: (e: ClientEvent) => boolean, timeoutMs = 60_000): Promise<ClientEvent> {
  let found: ClientEvent | undefined;
  await waitFor(`${c.name} to report ${what}`, async () => (found = c.events.find(match)) !== undefined, timeoutMs, 50).catch((err) => {
    const tail = c.events.filter((e) => e.event !== 'request').slice(-15).map((e) => JSON.stringify(e)).join('\n  ');
    throw new Error(`${(err as Error).message}; last events:\n  ${tail}\n${c.diagnostics().slice(-2000)}`);
  });
  return found!;
}

const hasRow = (event: RowEvent['event'], name: string, extra: (e: RowEvent) => boolean = () => true) =>
  (e: ClientEvent) => isRow(e) && e.event === event && e.name === name && extra(e);

beforeAll(async () => {
  const binary = buildGoInformer();
  await applyObject(tenant(PRE, ALICE, ['a']));
  await applyObject(tenant(GAS_BEFORE, GAS_DEVS, ['a']));
  await served('alice', [`${PRE}-a`]);
  await served('bob', [`${GAS_BEFORE}-a`]);

  const kubeconfig = controlPlane().kubeconfigs.alice;
  clients.set(GO_LIST_WATCH, startGoInformer(GO_LIST_WATCH, binary, kubeconfig, false));
  clients.set(GO_WATCH_LIST, startGoInformer(GO_WATCH_LIST, binary, kubeconfig, true));
  clients.set(NODE_INFORMER, await startNodeInformer(NODE_INFORMER, kubeconfig));
  clients.set(NODE_WATCH_LIST, await startNodeWatchList(NODE_WATCH_LIST, kubeconfig));
  for (const c of clients.values()) await reported(c, 'synced', (e) => e.event === 'synced');
}, 15 * 60_000);

afterAll(async () => {
  for (const c of clients.values()) await c.stop();
  await kubectl('admin', ['delete', 'tenants', PRE, OIL, GAS_BEFORE, GAS_AFTER, '--ignore-not-found', '--wait=false']);
});

describe('the initial state', () => {
  it.each(CLIENTS)('%s holds alice\'s existing rows when it reports synced', (name) => {
    const c = client(name);
    const initial = c.events.slice(0, c.events.findIndex((e) => e.event === 'synced'));
    // Every row's first event is an add. (Rows of alice's other tenants may still be converging, so an
    // update can arrive before the client reports synced: client-go dispatches watch events as they come.)
    const first = new Map<string, string>();
    for (const e of initial.filter(isRow)) if (!first.has(e.name)) first.set(e.name, e.event);
    expect([...first.values()].every((event) => event === 'add')).toBe(true);
    expect(initial).toContainEqual(expect.objectContaining({ event: 'add', name: `${PRE}-a`, tenant: PRE, phase: 'Active' }));
  });

  it('comes to client-go in list+watch mode from a list, then a watch from its resourceVersion', () => {
    const c = client(GO_LIST_WATCH);
    const requests = c.events.filter((e) => e.event === 'request').map((e) => new URLSearchParams(e.query));
    expect(requests[0].get('watch')).toBeNull();
    expect(requests.some((q) => q.get('watch') === 'true' && q.get('resourceVersion') && !q.has('sendInitialEvents'))).toBe(true);
    expect(c.events).toContainEqual({ event: 'synced', watchList: false });
  });

  it('comes to client-go in WatchList mode from one watch with sendInitialEvents and no list', () => {
    const c = client(GO_WATCH_LIST);
    const requests = c.events.filter((e) => e.event === 'request');
    expect(requests.every((r) => r.path === TNS_PATH)).toBe(true);
    const queries = requests.map((e) => new URLSearchParams(e.query));
    expect(queries.filter((q) => q.get('watch') !== 'true')).toEqual([]);
    expect(Object.fromEntries(queries[0])).toMatchObject({ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' });
    expect(c.events).toContainEqual({ event: 'synced', watchList: true });
  });

  it('comes to a WatchList stream as ADDED events, then one bookmark annotated k8s.io/initial-events-end', () => {
    const c = client(NODE_WATCH_LIST);
    const end = c.events.findIndex((e) => e.event === 'bookmark' && e.initialEventsEnd);
    expect(end).toBeGreaterThan(0);
    expect(c.events.slice(0, end).every((e) => e.event === 'add')).toBe(true);
    const bookmark = c.events[end] as { resourceVersion: string };
    expect(bookmark.resourceVersion).toMatch(/\S/);
    expect(c.events[end + 1]).toEqual({ event: 'synced' });
  });
});

describe('a new Tenant owned by alice', () => {
  beforeAll(async () => {
    await applyObject(tenant(GAS_AFTER, GAS_DEVS, ['a']));
    await applyObject(tenant(OIL, ALICE, ['a']));
  });

  it.each(CLIENTS)('%s reports add for its namespace', async (name) => {
    const add = await reported(client(name), `add ${OIL}-a`, hasRow('add', `${OIL}-a`));
    expect(add).toMatchObject({ tenant: OIL, resourceVersion: expect.stringMatching(/\S/) });
  });
});

describe('a label added to the namespace', () => {
  beforeAll(async () => {
    const res = await kubectl('admin', ['label', 'namespace', `${OIL}-a`, 'foo=bar']);
    if (res.code !== 0) throw new Error(res.stderr);
  });

  it.each(CLIENTS)('%s reports update with the label', async (name) => {
    const c = client(name);
    await reported(c, `update ${OIL}-a with foo=bar`, hasRow('update', `${OIL}-a`, (e) => e.labels.foo === 'bar'));
    const events = rowsOf(c, `${OIL}-a`);
    expect(events[0].event).toBe('add');
    expect(events.at(-1)!.resourceVersion).not.toBe(events[0].resourceVersion);
  });
});

describe('a second namespace added to the Tenant', () => {
  beforeAll(async () => {
    await served('alice', [`${OIL}-a`]);
    await applyObject(tenant(OIL, ALICE, ['a', 'b']));
  });

  it.each(CLIENTS)('%s reports add for it', async (name) => {
    await reported(client(name), `add ${OIL}-b`, hasRow('add', `${OIL}-b`, (e) => e.tenant === OIL));
  });
});

describe('a namespace removed from the Tenant (deletionPolicy Delete)', () => {
  beforeAll(async () => {
    await applyObject(tenant(OIL, ALICE, ['a']));
  });

  it.each(CLIENTS)('%s reports it Terminating, then delete once it is gone', async (name) => {
    const c = client(name);
    await reported(c, `delete ${OIL}-b`, hasRow('delete', `${OIL}-b`), 90_000);
    const events = rowsOf(c, `${OIL}-b`).map((e) => `${e.event}:${e.phase}`);
    expect(events[0]).toBe('add:Active');
    expect(events.at(-1)).toMatch(/^delete:/);
    expect(events.slice(0, -1)).toContain('update:Terminating');
    expect(events.filter((e) => e.startsWith('delete'))).toHaveLength(1);
  });

  it.each(CLIENTS)('%s keeps the other namespace', (name) => {
    expect(rowsOf(client(name), `${OIL}-a`).map((e) => e.event)).not.toContain('delete');
  });
});

describe("another tenant's rows", () => {
  beforeAll(async () => {
    await served('bob', [`${GAS_BEFORE}-a`, `${GAS_AFTER}-a`]);
  });

  it.each(CLIENTS)('%s never sees those of group gas-devs, existing or new', (name) => {
    const c = client(name);
    const seen = c.events.filter(isRow).filter((e) => e.tenant === GAS_BEFORE || e.tenant === GAS_AFTER || e.name.startsWith(`${GAS_BEFORE}-`) || e.name.startsWith(`${GAS_AFTER}-`));
    expect(seen).toEqual([]);
  });
});

describe('ownership of a tenant granted to alice', () => {
  beforeAll(async () => {
    await applyObject(tenant(GAS_BEFORE, [...GAS_DEVS, ...ALICE], ['a']));
  });

  it.each(CLIENTS)('%s reports add for its row', async (name) => {
    await reported(client(name), `add ${GAS_BEFORE}-a`, hasRow('add', `${GAS_BEFORE}-a`, (e) => e.tenant === GAS_BEFORE));
  });
});

describe('that ownership revoked', () => {
  beforeAll(async () => {
    await applyObject(tenant(GAS_BEFORE, GAS_DEVS, ['a']));
  });

  it.each(CLIENTS)('%s reports delete for the row', async (name) => {
    await reported(client(name), `delete ${GAS_BEFORE}-a`, hasRow('delete', `${GAS_BEFORE}-a`));
    expect(rowsOf(client(name), `${GAS_BEFORE}-a`).map((e) => e.event)).toEqual(['add', 'delete']);
  });
});

describe('every client', () => {
  it.each(CLIENTS.slice(1))("%s reported the same changes to alice's rows as client-go list+watch", (name) => {
    // Rows come and go in the same order for every client; a replica's intermediate states (the order it
    // received the sources' events in) may differ from another's, so updates are compared by what they end at.
    const changes = (c: InformerClient) => {
      const rows = c.events.filter(isRow).filter((e) => e.tenant === OIL || e.tenant === GAS_BEFORE);
      const last = new Map(rows.map((e) => [e.name, `${e.phase} ${JSON.stringify(e.labels)}`]));
      return [...rows.filter((e) => e.event !== 'update').map((e) => `${e.event} ${e.name}`), ...[...last].map(([n, s]) => `${n}: ${s}`)];
    };
    const reference = changes(client(GO_LIST_WATCH));
    expect(reference.length).toBeGreaterThanOrEqual(5);
    expect(changes(client(name))).toEqual(reference);
  });
});

describe('paddock-a restarting under the clients', () => {
  // A resourceVersion names the states of the view's sources, not a position in one process's log: the
  // restarted replica (and the other one) places each client's resourceVersion, and no client relists.
  const marks = new Map<string, number>();
  beforeAll(async () => {
    for (const [name, c] of clients) marks.set(name, c.events.length);
    await stopReplica('paddock-a');
    await startReplica('paddock-a');
    await served('alice', [`${OIL}-a`]);
    const res = await kubectl('admin', ['label', 'namespace', `${OIL}-a`, 'foo=baz', '--overwrite']);
    if (res.code !== 0) throw new Error(res.stderr);
  }, 180_000);

  it.each(CLIENTS)('%s recovers and reports the next change', async (name) => {
    const c = client(name);
    await reported(c, `update ${OIL}-a with foo=baz`, hasRow('update', `${OIL}-a`, (e) => e.labels.foo === 'baz'), 90_000);
    const since = c.events.slice(marks.get(name));
    expect(since.filter(isRow).filter((e) => e.event === 'delete' && e.name.startsWith(OIL))).toEqual([]);
  });

  it.each(CLIENTS.slice(0, 2))('%s did not relist', (name) => {
    // Every request since the restart, with its answer: a relist would show as a list (or a watch with initial events).
    const since = client(name).events.slice(marks.get(name)).filter((e) => e.event === 'request') as { query: string; status?: number; error?: string }[];
    const described = since.map((r) => `${r.status ?? r.error} ${r.query}`);
    const loads = described.filter((_, i) => {
      const q = new URLSearchParams(since[i].query);
      return q.get('watch') !== 'true' || q.get('sendInitialEvents') === 'true';
    });
    if (loads.length) throw new Error(`relisted:\n${loads.join('\n')}\nevery request since the restart, with its answer:\n${described.join('\n')}`);
  });

  it(`every client ends holding ${OIL}-a as alice gets it from kubectl`, async () => {
    const server = async () => (await kubectlJson('alice', ['get', 'tns', `${OIL}-a`])).metadata.labels?.foo as string;
    for (const c of clients.values()) expect(rowsOf(c, `${OIL}-a`).at(-1)?.labels.foo).toBe(await server());
  });
});

describe('all along', () => {
  it.each(CLIENTS)('%s reported no error', (name) => {
    expect(client(name).events.filter((e) => e.event === 'error')).toEqual([]);
  });
});
