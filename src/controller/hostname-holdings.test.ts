import type { PaddockCache } from '../cache/paddock-cache';
import { FakeInformer } from '../cache/testing/fake-informer';
import { KubeApiError } from '../kube/errors';
import type { KubeObject, Tenant } from '../kube/types';
import type { HostnameLedger } from '../tenancy/hostnames/ledger';
import { tenant } from '../testing/tenants';
import { HostnameHoldings } from './hostname-holdings';
import type { Writer } from './writer';

const KEY = 'paddock-system/paddock-hostnames';

/** The ledger as kube-apiserver keeps it: one object, a write accepted only at its current resourceVersion. */
class FakeApiServer {
  ledger: HostnameLedger | undefined;
  rv = 0;
  readonly writes: string[] = [];

  #conflict(what: string): never {
    throw new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: what === 'create' ? 'AlreadyExists' : 'Conflict', code: 409, message: 'the object has been modified' });
  }

  writer(): Writer {
    return {
      get: async () => this.ledger,
      createIfAbsent: async (obj: HostnameLedger) => {
        if (this.ledger) return undefined;
        this.ledger = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
        this.writes.push(`create ${JSON.stringify(obj.spec.hostnameHolders)}`);
        return this.ledger;
      },
      update: async (obj: HostnameLedger) => {
        if (!this.ledger || obj.metadata.resourceVersion !== this.ledger.metadata.resourceVersion) this.#conflict('update');
        this.ledger = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
        this.writes.push(`update ${JSON.stringify(obj.spec.hostnameHolders)}`);
        return this.ledger;
      },
    } as unknown as Writer;
  }
}

/** A replica: its own cache of Tenants and of the ledger (which it is told of only when `sync` says). */
function replica(api: FakeApiServer, tenants: Tenant[]) {
  const tenantInformer = new FakeInformer<Tenant>();
  for (const t of tenants) tenantInformer.set(t.metadata.name, t);
  tenantInformer.markListed();
  const ledger = new FakeInformer<KubeObject>();
  ledger.markListed();
  const cache = { tenants: tenantInformer, hostnameLedger: ledger } as unknown as PaddockCache;
  return { holdings: new HostnameHoldings(cache, api.writer()), sync: () => api.ledger && ledger.set(KEY, api.ledger) };
}

const oil = tenant('oil', { owners: [{ kind: 'User', name: 'alice' }], hostnames: { allowed: ['*.oil.example.com'] } });
const rival = tenant('rival', { owners: [{ kind: 'User', name: 'bob' }], hostnames: { allowed: ['api.oil.example.com'] } });
const plain = tenant('plain', { owners: [{ kind: 'User', name: 'carol' }] });

describe('HostnameHoldings', () => {
  it('two replicas deciding on the same stale ledger: the second write gets 409, decides again on the live ledger, and is refused', async () => {
    const api = new FakeApiServer();
    const [a, b] = [replica(api, [oil, rival]), replica(api, [oil, rival])];
    expect(await a.holdings.hold(oil)).toEqual([]);
    // b's cache has not seen the ledger: it would create it, finds it there, and reads it live.
    expect(await b.holdings.hold(rival)).toEqual(['api.oil.example.com']);
    expect(api.ledger!.spec.hostnameHolders).toEqual({ '*.oil.example.com': 'oil' });
    expect(api.writes).toEqual(['create {"*.oil.example.com":"oil"}']);
  });

  it('an update from a stale cache is a 409, decided again on the live ledger', async () => {
    const api = new FakeApiServer();
    const [a, b] = [replica(api, [oil, rival, plain]), replica(api, [oil, rival, plain])];
    await a.holdings.hold(tenant('plain', { owners: [{ kind: 'User', name: 'carol' }], hostnames: { allowed: ['www.plain.example.com'] } }));
    a.sync();
    b.sync(); // both caches at this version
    expect(await a.holdings.hold(oil)).toEqual([]);
    expect(await b.holdings.hold(rival)).toEqual(['api.oil.example.com']); // b wrote over the old version: 409, then refused
    expect(Object.values(api.ledger!.spec.hostnameHolders!)).not.toContain('rival');
  });

  it('writes nothing when the ledger already says what the Tenant wants, or when a Tenant without hostnames holds none', async () => {
    const api = new FakeApiServer();
    const a = replica(api, [oil, plain]);
    await a.holdings.hold(oil);
    a.sync();
    const before = api.writes.length;
    expect(await a.holdings.hold(oil)).toEqual([]);
    expect(await a.holdings.hold(plain)).toEqual([]);
    expect(api.writes.length).toBe(before);
  });

  it('releases what a Tenant holds, and the refused one may hold it then', async () => {
    const api = new FakeApiServer();
    const a = replica(api, [oil, rival]);
    await a.holdings.hold(oil);
    a.sync();
    expect(await a.holdings.hold(rival)).toEqual(['api.oil.example.com']);
    await a.holdings.release('oil');
    a.sync();
    expect(await a.holdings.hold(rival)).toEqual([]);
    expect(api.ledger!.spec.hostnameHolders).toEqual({ 'api.oil.example.com': 'rival' });
  });
});
