import type { Namespace, ResourceQuota, RoleBinding, Tenant } from '../kube/types';
import { guardrailSummary, Interner, namespaceSummary, tenantSummary, type KeptAnnotations } from './summaries';
import { tenant } from '../testing/tenants';
import { prepareForCache } from './transform';
import { alive, collectGarbage } from '../testing/collect';

const owner = { apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', name: 'oil', uid: 't-uid', controller: true, blockOwnerDeletion: true };
const labels = { 'app.kubernetes.io/managed-by': 'paddock', 'paddock.dev/tenant': 'oil' };

function quota(namespace: string): ResourceQuota {
  return JSON.parse(JSON.stringify({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: {
      name: 'paddock-quota-0', namespace, uid: `${namespace}-uid`, resourceVersion: '7', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z',
      labels, ownerReferences: [owner], annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' }, finalizers: ['x/y'],
    },
    spec: { hard: { cpu: '1', pods: '10' } },
    status: { hard: { cpu: '1', pods: '10' }, used: { cpu: '0', pods: '0' }, extra: 'dropped' },
  })) as ResourceQuota;
}

describe('guardrailSummary', () => {
  it('keeps identity, labels, owners, content and a quota\'s hard and used; drops the rest', () => {
    const s = guardrailSummary(quota('oil-a'), new Interner());
    expect(JSON.parse(JSON.stringify(s))).toEqual({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'paddock-quota-0', namespace: 'oil-a', resourceVersion: '7', labels, ownerReferences: [owner] },
      spec: { hard: { cpu: '1', pods: '10' } },
      status: { hard: { cpu: '1', pods: '10' }, used: { cpu: '0', pods: '0' } },
    });
  });

  it('keeps a binding\'s roleRef and subjects', () => {
    const rb = { metadata: { name: 'b', namespace: 'oil-a', labels }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }] } as RoleBinding;
    const s = guardrailSummary(rb, new Interner());
    expect(s.roleRef).toEqual(rb.roleRef);
    expect(s.subjects).toEqual(rb.subjects);
    expect(s.metadata.deletionTimestamp).toBeUndefined();
  });

  it('shares equal labels, owners and content between objects, frozen', () => {
    const pool = new Interner();
    const a = prepareForCache(quota('oil-a'), (o) => guardrailSummary(o, pool));
    const b = prepareForCache(quota('oil-b'), (o) => guardrailSummary(o, pool));
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.metadata.ownerReferences).toBe(a.metadata.ownerReferences);
    expect(b.spec).toBe(a.spec);
    expect(b.status).toBe(a.status);
    expect(b.metadata).not.toBe(a.metadata);
    expect(Object.isFrozen(a.spec!.hard)).toBe(true);
  });
});

describe('namespaceSummary', () => {
  /** Keeps `x/book`, shared, and the key it names. What Paddock keeps: tenancy/cache-options.test.ts. */
  const kept: KeptAnnotations = { shared: 'x/book', keep: (a) => (key) => key === a['x/book'] };
  const ns = (name: string, annotations: Record<string, string>): Namespace => ({ metadata: { name, annotations } });

  it('keeps the annotations it is told to keep, and none unless told', () => {
    const annotations = { 'x/book': 'note', note: 'mine', other: 'theirs' };
    expect(namespaceSummary(ns('oil-a', annotations), new Interner(), kept).metadata.annotations).toEqual({ 'x/book': 'note', note: 'mine' });
    expect(namespaceSummary(ns('oil-a', annotations), new Interner()).metadata.annotations).toBeUndefined();
  });

  it('shares the annotations of alike namespaces that hold only the shared one', () => {
    const pool = new Interner();
    const [a, b] = ['oil-a', 'oil-b'].map((n) => namespaceSummary(ns(n, { 'x/book': 'same', other: 'theirs' }), pool, kept));
    expect(a!.metadata.annotations).toEqual({ 'x/book': 'same' });
    expect(a!.metadata.annotations).toBe(b!.metadata.annotations);
  });
});

describe('tenantSummary', () => {
  const stored = (name: string): Tenant => tenant(name, {
    owners: [{ kind: 'User', name: `${name}-owner` }],
    namespaces: ['a', 'b'],
    resourceQuotas: [{ hard: { pods: '10' } }],
    limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '500m' } }] }],
    podSecurity: { enforce: 'baseline' },
  }, {
    phase: 'Active',
    namespaces: [`${name}-a`, `${name}-b`],
    claims: [
      { name: `${name}-a`, origin: 'Declared', claimedAt: '2026-01-01T00:00:00Z', uid: `${name}-a-uid` },
      { name: `${name}-b`, origin: 'SelfService', proof: 'p', claimedAt: '2026-01-01T00:00:00Z' },
    ],
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Reconciled', message: '2 namespaces in sync', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 },
      { type: 'Other', status: 'False' },
    ],
  }, { uid: `${name}-uid`, resourceVersion: '9', finalizers: ['paddock.dev/cleanup'], annotations: { note: 'kept' } });
  const cachedNamespace = (name: string): Namespace => ({ metadata: { name, uid: `${name}-uid` } });

  it('keeps all of the Tenant, field for field and in the same order', () => {
    const t = stored('oil');
    expect(JSON.stringify(tenantSummary(t, new Interner(), cachedNamespace))).toBe(JSON.stringify(t));
    expect(JSON.stringify(tenantSummary(t, new Interner()))).toBe(JSON.stringify(t));
    const bare = { ...t, status: undefined };
    expect(JSON.stringify(tenantSummary(bare, new Interner()))).toBe(JSON.stringify(bare));
  });

  it('shares the template fields of equal offers between tenants, not their owners or namespaces', () => {
    const pool = new Interner();
    const [oil, gas] = [tenantSummary(stored('oil'), pool), tenantSummary(stored('gas'), pool)];
    expect(gas.spec.resourceQuotas).toBe(oil.spec.resourceQuotas);
    expect(gas.spec.limitRanges).toBe(oil.spec.limitRanges);
    expect(gas.spec.podSecurity).toBe(oil.spec.podSecurity);
    expect(gas.spec.namespaces).not.toBe(oil.spec.namespaces);
    expect(gas.spec.owners).not.toBe(oil.spec.owners);
  });

  it('shares a spec field it has never heard of as it shares the offer: a field added to the Tenant is shared without naming it here', () => {
    const pool = new Interner();
    const withNew = (name: string) => ({ ...stored(name), spec: { ...stored(name).spec, services: { types: { allowed: ['ClusterIP', 'NodePort'] } } } });
    const [oil, gas] = [tenantSummary(withNew('oil') as never, pool), tenantSummary(withNew('gas') as never, pool)];
    expect((gas.spec as unknown as Record<string, unknown>).services).toBe((oil.spec as unknown as Record<string, unknown>).services);
  });

  it('takes condition words and the short messages of conditions that hold from the pool of strings', () => {
    const pooled: unknown[] = [];
    const pool = new (class extends Interner {
      override string<T extends string | undefined>(s: T): T {
        pooled.push(s);
        return super.string(s);
      }
    })();
    const long = stored('tin');
    const message = `not in sync: ${'tin-x (missing), '.repeat(10)}`;
    long.status!.conditions![1]!.message = message;
    long.status!.conditions!.push({ type: 'Third', status: 'False', message: 'tin-x (missing)' });
    const summary = tenantSummary(long, pool);
    expect(pooled).toEqual(expect.arrayContaining(['Ready', 'True', 'Reconciled', '2 namespaces in sync', 'Other', 'False']));
    expect(pooled).not.toContain(message);
    expect(pooled).not.toContain('tin-x (missing)');
    expect(summary.status!.conditions![1]!.message).toBe(message);
    expect(Object.keys(summary.status!.conditions![1]!)).toEqual(['type', 'status', 'message']);
  });
});

describe('Interner', () => {
  it('returns one frozen value per distinct JSON text, and primitives as they are', () => {
    const pool = new Interner();
    const a = pool.value({ x: [1, 2] });
    expect(pool.value({ x: [1, 2] })).toBe(a);
    expect(pool.value({ x: [2, 1] })).not.toBe(a);
    expect(Object.isFrozen(a.x)).toBe(true);
    expect(pool.value(undefined)).toBeUndefined();
    expect(pool.value('s')).toBe('s');
  });

  it('drops the entries of collected values when it sweeps, and keeps the live ones', async () => {
    const pool = new Interner();
    const gone = Array.from({ length: 100 }, (_, i) => new WeakRef(pool.value({ gone: i })));
    const kept = pool.value({ kept: true });
    expect(pool.size).toBe(101);
    await collectGarbage();
    const survivors = alive(gone); // none, unless the collector kept some (each still in the pool then)
    expect(survivors).toBeLessThan(100);
    pool.sweep();
    expect(pool.size).toBe(survivors + 1);
    expect(pool.value({ kept: true })).toBe(kept);
  }, 60_000);

  it('sweeps itself once as many values have been added as it held, so collected ones never pile up', async () => {
    const pool = new Interner();
    const gone = Array.from({ length: 1023 }, (_, i) => new WeakRef(pool.value({ gone: i })));
    await collectGarbage();
    expect(pool.size).toBe(1023);
    const survivors = alive(gone);
    expect(survivors).toBeLessThan(1023);
    pool.value({ last: true }); // the 1024th value added: a sweep, which leaves only it and the survivors
    expect(pool.size).toBe(survivors + 1);
  }, 60_000);

  it('keeps one reference for a value that is collected and comes back, however often', async () => {
    const pool = new Interner();
    for (let i = 0; i < 5; i++) {
      pool.value({ hard: { pods: '10' }, used: { pods: '1' } }); // a quota's usage that flaps back, say
      await collectGarbage();
    }
    expect(pool.size).toBe(1);
  }, 60_000);

  it('stops adding strings at its limit', () => {
    const pool = new Interner(1);
    expect(pool.string('a')).toBe('a');
    expect(pool.string('b')).toBe('b');
    expect(pool.string(undefined)).toBeUndefined();
  });
});
