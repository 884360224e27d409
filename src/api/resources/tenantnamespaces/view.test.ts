import { namespaceSummary } from '../../../cache/summaries';
import type { Namespace, NamespaceClaim, Tenant } from '../../../kube/types';
import { CLAIM_TOKEN_ANNOTATION } from '../../../tenancy/claims';
import { parseFieldSelector } from '../../../selectors/field-selector';
import { parseLabelSelector } from '../../../selectors/label-selector';
import type { ListOptions } from '../../request/list-options';
import { StatusError } from '../../status';
import { encodeVersion } from '../../storage/version-codec';
import { getRow, listRows } from '../../serving/rows';
import { ListSnapshots } from '../../serving/snapshots';
import { tenantWorld } from '../../testing/tenant-world';
import { tenantNamespacesResource } from './registration';
import type { TenantNamespaceRow } from './row';
import { sameJoinInputs, type Viewer } from './view';


function setup() {
  const { tenants, namespaces, quotas, view } = tenantWorld({ window: 5 });
  // Every namespace made here is claimed by its tenant (by UID), as Paddock's would be.
  const claims = new Map<string, NamespaceClaim[]>();
  const tenant = (name: string, owners: Tenant['spec']['owners']) => tenants.set(name, { metadata: { name, uid: name }, spec: { owners }, status: { claims: claims.get(name) ?? [] } });
  const ns = (name: string, t: string, labels: Record<string, string> = {}, claimed = true) => {
    if (claimed && !(claims.get(t) ?? []).some((c) => c.name === name)) {
      claims.set(t, [...(claims.get(t) ?? []), { name, origin: 'Declared', uid: `uid-${name}` }]);
      const existing = tenants.items.get(t);
      if (existing) tenants.set(t, { ...existing, status: { claims: claims.get(t) } });
    }
    namespaces.set(name, { metadata: { name, uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'paddock.dev/tenant': t, ...labels } }, status: { phase: 'Active' } });
  };
  return { view, tenants, namespaces, quotas, tenant, ns, claims };
}

const alice: Viewer = { name: 'alice', groups: ['system:authenticated'], seesAll: false };
const bob: Viewer = { name: 'bob', groups: ['gas-devs', 'system:authenticated'], seesAll: false };
const admin: Viewer = { name: 'admin', groups: ['system:masters'], seesAll: true };
const opts = (o: Partial<ListOptions> = {}): ListOptions => ({ limit: 0, watch: false, allowWatchBookmarks: false, ...o });
const names = (rows: readonly { metadata: { name: string } }[]) => rows.map((r) => r.metadata.name);

function world() {
  const w = setup();
  w.tenant('oil', [{ kind: 'User', name: 'alice' }]);
  w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }]);
  for (const n of ['oil-b', 'oil-a', 'oil-c']) w.ns(n, 'oil');
  w.ns('gas-a', 'gas', { tier: 'prod' });
  w.namespaces.set('kube-system', { metadata: { name: 'kube-system' } });
  return w;
}

describe('TenantNamespaceView', () => {
  it('has no row for a labelled namespace that no claim of its tenant proves (a label is not ownership)', () => {
    const { view, tenant, ns, namespaces } = setup();
    tenant('oil', [{ kind: 'User', name: 'alice' }]);
    ns('oil-planted', 'oil', {}, false);
    ns('oil-real', 'oil');
    expect(view.all().map((r) => r.metadata.name)).toEqual(['oil-real']);
    // Deleted and re-created under the same name by someone else: another UID, no row.
    namespaces.set('oil-real', { metadata: { name: 'oil-real', uid: 'uid-forged', labels: { 'paddock.dev/tenant': 'oil' } } });
    expect(view.all()).toEqual([]);
  });

  it('has one row per labelled namespace, ordered by name', () => {
    const { view } = world();
    expect(names(view.all())).toEqual(['gas-a', 'oil-a', 'oil-b', 'oil-c']);
  });

  it('shares one array of every row until a row changes (a paging snapshot keeps no copy)', () => {
    const { view, ns } = world();
    const before = view.all();
    expect(view.all()).toBe(before);
    expect(Object.isFrozen(before)).toBe(true);
    ns('oil-d', 'oil');
    expect(names(view.all())).toEqual(['gas-a', 'oil-a', 'oil-b', 'oil-c', 'oil-d']);
    expect(names(before)).toEqual(['gas-a', 'oil-a', 'oil-b', 'oil-c']);
  });

  it('shows each caller the rows of the tenants it owns, by user or group', () => {
    const { view } = world();
    expect(names(view.visibleRows(alice))).toEqual(['oil-a', 'oil-b', 'oil-c']);
    expect(names(view.visibleRows(bob))).toEqual(['gas-a']);
    expect(names(view.visibleRows({ name: 'carol', groups: [], seesAll: false }))).toEqual([]);
    expect(names(view.visibleRows(admin))).toHaveLength(4);
  });

  it('logs a change only when a row changes, and a Tenant change for each of its rows', () => {
    const { view, tenant, ns } = world();
    const live: unknown[] = [];
    view.subscribe((c) => live.push(c));
    ns('oil-a', 'oil'); // same content: nothing
    expect(live).toEqual([]);
    const rv = view.log.resourceVersion;
    tenant('oil', [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }]);
    expect(live).toHaveLength(3);
    const changes = view.log.since(rv) as readonly { type: string; object: { metadata: { name: string } } }[];
    expect(changes.map((c) => `${c.type} ${c.object.metadata.name}`).sort()).toEqual(['MODIFIED oil-a', 'MODIFIED oil-b', 'MODIFIED oil-c']);
    expect(names(view.visibleRows(bob))).toEqual(['gas-a', 'oil-a', 'oil-b', 'oil-c']);
  });

  it('reads the Namespace as cached now when it changed in what the row does not show, logging nothing', () => {
    const { view, namespaces } = world();
    const live: unknown[] = [];
    view.subscribe((c) => live.push(c));
    const before = view.get('oil-a')!;
    const cached = namespaces.items.get('oil-a')!;
    namespaces.set('oil-a', { ...cached, metadata: { ...cached.metadata, annotations: { note: 'not shown' } } });
    expect(live).toEqual([]);
    const after = view.get('oil-a') as TenantNamespaceRow;
    expect(after.namespace).toBe(namespaces.items.get('oil-a'));
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(JSON.stringify(after)).toBe(JSON.stringify(before));
  });

  describe('a Namespace update', () => {
    type Meta = Namespace['metadata'];
    const base = (name: string): Namespace => ({
      metadata: { name, uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'paddock.dev/tenant': 'oil', tier: 'dev' }, annotations: { note: 'a' } },
      status: { phase: 'Active' },
    });
    // Every field of a Namespace the join could read, changed one at a time.
    const variations: Record<string, (m: Meta, ns: Namespace) => Namespace> = {
      'another label': (m, ns) => ({ ...ns, metadata: { ...m, labels: { ...m.labels, tier: 'prod' } } }),
      'a label added': (m, ns) => ({ ...ns, metadata: { ...m, labels: { ...m.labels, team: 'x' } } }),
      'the tenant label': (m, ns) => ({ ...ns, metadata: { ...m, labels: { ...m.labels, 'paddock.dev/tenant': 'gas' } } }),
      'the tenant label removed': (m, ns) => ({ ...ns, metadata: { ...m, labels: { tier: 'dev' } } }),
      'the UID': (m, ns) => ({ ...ns, metadata: { ...m, uid: 'uid-forged' } }),
      'an annotation': (m, ns) => ({ ...ns, metadata: { ...m, annotations: { note: 'b' } } }),
      'the claim token': (m, ns) => ({ ...ns, metadata: { ...m, annotations: { ...m.annotations, [CLAIM_TOKEN_ANNOTATION]: 'token' } } }),
      'the deletion time': (m, ns) => ({ ...ns, metadata: { ...m, deletionTimestamp: '2026-01-02T00:00:00Z' } }),
      'the phase': (_m, ns) => ({ ...ns, status: { phase: 'Terminating' } }),
      'the deletion time, without a phase': (m) => ({ metadata: { ...m, deletionTimestamp: '2026-01-02T00:00:00Z' } }),
      'the phase removed': (m) => ({ metadata: m }),
      'the creation time': (m, ns) => ({ ...ns, metadata: { ...m, creationTimestamp: '2026-01-03T00:00:00Z' } }),
      'the resourceVersion': (m, ns) => ({ ...ns, metadata: { ...m, resourceVersion: '42' } }),
      'finalizers': (m, ns) => ({ ...ns, metadata: { ...m, finalizers: ['x'] } }),
      'spec': (_m, ns) => ({ ...ns, spec: { finalizers: ['kubernetes'] } }),
    };
    const READ_BY_JOIN = ['the tenant label', 'the tenant label removed', 'the UID', 'the claim token', 'the deletion time', 'the phase', 'the deletion time, without a phase', 'the phase removed'];
    // A record, as the cache keeps a Namespace (records.ts), with a resourceVersion of its own.
    let revision = 0;
    const asCached = (ns: Namespace) => namespaceSummary({ ...ns, metadata: { ...ns.metadata, resourceVersion: ns.metadata.resourceVersion ?? `r${++revision}` } });
    // A world where `name` gets `ns` as an update, and one where it is added so (joined from scratch).
    const rowsAfter = (name: string, ns: Namespace, cached: (ns: Namespace) => Namespace, claimed: boolean) => {
      const make = () => {
        const w = setup();
        w.tenant('oil', [{ kind: 'User', name: 'alice' }]);
        w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }]);
        if (claimed) w.ns(name, 'oil');
        w.quotas.set(`${name}/q`, { metadata: { name: 'q', namespace: name }, spec: { hard: { pods: '10' } }, status: { hard: { pods: '10' }, used: { pods: '3' } } });
        return w;
      };
      const updated = make();
      updated.namespaces.set(name, cached(base(name)));
      updated.namespaces.set(name, cached(ns));
      const added = make();
      added.namespaces.remove(name);
      added.namespaces.set(name, cached(ns));
      const shown = (w: ReturnType<typeof setup>) => {
        const row = w.view.get(name);
        return row && JSON.stringify({ ...JSON.parse(JSON.stringify(row)), metadata: { ...row.metadata, resourceVersion: undefined } });
      };
      const seen = (w: ReturnType<typeof setup>) => [alice, bob].map((v) => names(w.view.visibleRows(v)));
      return { updated: shown(updated), added: shown(added), seenUpdated: seen(updated), seenAdded: seen(added) };
    };

    for (const [what, vary] of Object.entries(variations)) {
      for (const [form, cached] of [['as given', (ns: Namespace) => ns], ['as the cache keeps it', asCached]] as const) {
        it(`changing ${what} (${form}) gives the row a join from scratch gives`, () => {
          for (const claimed of [true, false]) {
            const next = vary(base('oil-a').metadata, base('oil-a'));
            const { updated, added, seenUpdated, seenAdded } = rowsAfter('oil-a', next, cached, claimed);
            expect(updated).toEqual(added);
            expect(seenUpdated).toEqual(seenAdded);
            // The row is kept exactly when what changed is not read by the join (the cache drops the token).
            if (form === 'as given') expect(sameJoinInputs(base('oil-a'), next)).toBe(!READ_BY_JOIN.includes(what));
          }
        });
      }
    }

    it('keeps who may see the row as the Tenant\'s last change made it, through label changes', () => {
      const { view, tenant, namespaces } = world();
      const relabel = (value: string) => {
        const cached = namespaces.items.get('oil-a')!;
        namespaces.set('oil-a', { ...cached, metadata: { ...cached.metadata, resourceVersion: undefined, labels: { ...cached.metadata.labels, tier: value } } });
      };
      tenant('oil', [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'gas-devs' }]);
      relabel('one');
      expect(names(view.visibleRows(bob))).toContain('oil-a');
      tenant('oil', [{ kind: 'User', name: 'alice' }]);
      relabel('two');
      expect(names(view.visibleRows(bob))).not.toContain('oil-a');
      expect(view.canSee(bob, view.get('oil-a')!)).toBe(false);
      expect(view.get('oil-a')!.status!.owners).toEqual([{ kind: 'User', name: 'alice', role: 'admin' }]);
    });

    it('keeps the row\'s spec and status when only what its metadata shows changed, and sends the change', () => {
      const { view, namespaces } = world();
      const live: { type: string }[] = [];
      view.subscribe((c) => live.push(c as never));
      const before = view.row('oil-a')!;
      const cached = namespaces.items.get('oil-a')!;
      namespaces.set('oil-a', { ...cached, metadata: { ...cached.metadata, labels: { ...cached.metadata.labels, tier: 'prod' } } });
      const after = view.row('oil-a')!;
      expect(after.status).toBe(before.status);
      expect(after.spec).toBe(before.spec);
      expect(after.metadata.labels).toEqual(expect.objectContaining({ tier: 'prod' }));
      expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
      expect(live.map((c) => c.type)).toEqual(['MODIFIED']);
    });
  });

  it('reflects quota usage and drops a row whose namespace loses its tenant label', () => {
    const { view, quotas, namespaces } = world();
    quotas.set('oil-a/q', { metadata: { name: 'q', namespace: 'oil-a' }, spec: { hard: { pods: '10' } }, status: { hard: { pods: '10' }, used: { pods: '3' } } });
    expect(view.get('oil-a')!.status!.quota).toEqual({ hard: { pods: '10' }, used: { pods: '3' } });
    const rv = view.log.resourceVersion;
    namespaces.set('oil-a', { metadata: { name: 'oil-a' } });
    expect(view.get('oil-a')).toBeUndefined();
    expect(view.log.since(rv)).toEqual([expect.objectContaining({ type: 'DELETED' })]);
  });
});

describe('the share of a tenant-wide quota', () => {
  const shareAt = (hard: string, used: string) => ({
    metadata: { name: 'paddock-tenant-quota', namespace: 'oil-a' }, spec: { hard: { pods: hard } }, status: { hard: { pods: hard }, used: { pods: used } },
  });

  it('gives watchers MODIFIED when the share moves or its use changes, and nothing when it is rewritten unchanged', () => {
    const { view, quotas, tenants } = world();
    const oil = tenants.items.get('oil')!;
    tenants.set('oil', { ...oil, spec: { ...oil.spec, quota: { hard: { pods: '20' } } } });
    quotas.set('oil-a/paddock-tenant-quota', shareAt('5', '0'));
    expect(view.get('oil-a')!.status!.tenantQuota).toEqual({ share: { pods: '5' }, used: { pods: '0' } });
    const rv = view.log.resourceVersion;
    quotas.set('oil-a/paddock-tenant-quota', { ...shareAt('5', '0'), spec: { hard: { pods: '2' } } });
    quotas.set('oil-a/paddock-tenant-quota', shareAt('2', '0'));
    quotas.set('oil-a/paddock-tenant-quota', shareAt('2', '1'));
    quotas.set('oil-a/paddock-tenant-quota', shareAt('2', '1'));
    const changes = view.log.since(rv) as readonly { type: string; object: { metadata: { name: string }; status: { tenantQuota: unknown } } }[];
    expect(changes.map((c) => [c.type, c.object.metadata.name, c.object.status.tenantQuota])).toEqual([
      ['MODIFIED', 'oil-a', { share: { pods: '5' }, used: { pods: '0' }, pending: { pods: '2' } }],
      ['MODIFIED', 'oil-a', { share: { pods: '2' }, used: { pods: '0' } }],
      ['MODIFIED', 'oil-a', { share: { pods: '2' }, used: { pods: '1' } }],
    ]);
    expect(new Set(changes.map((c) => (c.object as { metadata: { resourceVersion?: string } }).metadata.resourceVersion)).size).toBe(3);
  });

  it('drops status.tenantQuota from every row when the Tenant loses its budget', () => {
    const { view, quotas, tenants } = world();
    const oil = tenants.items.get('oil')!;
    tenants.set('oil', { ...oil, spec: { ...oil.spec, quota: { hard: { pods: '20' } } } });
    quotas.set('oil-a/paddock-tenant-quota', shareAt('5', '0'));
    expect(view.get('oil-b')!.status!.tenantQuota).toEqual({ share: {}, used: {} });
    tenants.set('oil', oil);
    expect(view.get('oil-a')!.status!.tenantQuota).toBeUndefined();
    expect(view.get('oil-a')!.status!.quota).toEqual({ hard: { pods: '5' }, used: { pods: '0' } });
  });
});

describe('list and get', () => {
  it('filters by label and field selectors and hides what the caller may not see', () => {
    const { view } = world();
    expect(names(listRows(tenantNamespacesResource(view), admin, opts({ labelSelector: parseLabelSelector('tier=prod') })).items)).toEqual(['gas-a']);
    expect(names(listRows(tenantNamespacesResource(view), alice, opts({ fieldSelector: parseFieldSelector('spec.tenant=gas') })).items)).toEqual([]);
    expect(names(listRows(tenantNamespacesResource(view), alice, opts({ fieldSelector: parseFieldSelector('metadata.name=oil-b') })).items)).toEqual(['oil-b']);
    expect(() => getRow(tenantNamespacesResource(view), alice, 'gas-a')).toThrow('tenantnamespaces.tenancy.paddock.dev "gas-a" not found');
  });

  it('pages with limit and continue, and counts what remains', () => {
    const { view } = world();
    const first = listRows(tenantNamespacesResource(view), alice, opts({ limit: 2 }));
    expect(names(first.items)).toEqual(['oil-a', 'oil-b']);
    expect(first.metadata.remainingItemCount).toBe(1);
    const second = listRows(tenantNamespacesResource(view), alice, opts({ limit: 2, continueToken: first.metadata.continue }));
    expect(names(second.items)).toEqual(['oil-c']);
    expect(second.metadata.continue).toBeUndefined();
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });

  it('expires a continue token when a row after its start changed, and keeps it when only earlier rows did', () => {
    const { view, ns } = world();
    const first = listRows(tenantNamespacesResource(view), alice, opts({ limit: 1 }));
    ns('oil-a', 'oil', { touched: 'yes' }); // before the start of the next page
    expect(names(listRows(tenantNamespacesResource(view), alice, opts({ limit: 1, continueToken: first.metadata.continue })).items)).toEqual(['oil-b']);
    ns('oil-c', 'oil', { touched: 'yes' });
    expect(() => listRows(tenantNamespacesResource(view), alice, opts({ continueToken: first.metadata.continue }))).toThrow(/continue parameter is too old/);
  });

  it('serves every page of a list from its first page\'s snapshot, whatever changed since', () => {
    const { view, ns } = world();
    const snapshots = new ListSnapshots();
    const first = listRows(tenantNamespacesResource(view), alice, opts({ limit: 1 }), snapshots);
    ns('oil-c', 'oil', { touched: 'yes' });
    ns('oil-d', 'oil');
    const second = listRows(tenantNamespacesResource(view), alice, opts({ limit: 1, continueToken: first.metadata.continue }), snapshots);
    const third = listRows(tenantNamespacesResource(view), alice, opts({ limit: 1, continueToken: second.metadata.continue }), snapshots);
    expect([...first.items, ...second.items, ...third.items].map((r) => [r.metadata.name, r.metadata.labels?.touched])).toEqual([['oil-a', undefined], ['oil-b', undefined], ['oil-c', undefined]]);
    expect(third.metadata.continue).toBeUndefined();
    // Another caller cannot read alice's snapshot: the token falls back to the change log, which has moved on.
    expect(() => listRows(tenantNamespacesResource(view), admin, opts({ limit: 1, continueToken: first.metadata.continue }), snapshots)).toThrow(/too old/);
  });

  type World = ReturnType<typeof world>;
  /** A resourceVersion of `w`'s view taken before six more changes: more than its window of five keeps. */
  const forgotten = (w: World) => {
    const rv = w.view.log.resourceVersion;
    for (let i = 0; i < 6; i++) w.ns('oil-a', 'oil', { round: String(i) });
    return rv;
  };
  const previous = (w: World) => {
    const rv = w.view.log.resourceVersion;
    w.ns('oil-a', 'oil', { touched: 'yes' });
    return rv;
  };
  it.each([
    ["kube-apiserver's or an earlier version's integer resourceVersion", () => '12345', undefined, 410],
    ["kube-apiserver's largest integer resourceVersion (a uint64)", () => '18446744073709551615', undefined, 410],
    ['a resourceVersion whose state is no longer retained', forgotten, undefined, 410],
    ['a resourceVersion this replica has not reached', (w: World) => w.view.log.seal.seal(encodeVersion(w.view.log.sources.map((s) => ({ rev: s.rev + 5, fingerprint: 'ffffffffffffffff' })))), undefined, 504],
    ['an Exact resourceVersion that is not the current one', previous, 'Exact' as const, 410],
    ['a resourceVersion that is not one', () => 'abc', undefined, 400],
  ])('answers a list at %s with its Status', (_what, rv, match, code) => {
    const w = world();
    const { view } = w;
    try {
      listRows(tenantNamespacesResource(view), alice, opts({ resourceVersion: rv(w), resourceVersionMatch: match }));
      throw new Error('listed');
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(code);
    }
  });

  const ahead = (w: World) => w.view.log.seal.seal(encodeVersion(w.view.log.sources.map((s) => ({ rev: s.rev + 5, fingerprint: 'ffffffffffffffff' }))));
  it.each([
    ['a resourceVersion this replica has not reached', ahead, 504],
    ['a resourceVersion that is not one', () => 'abc', 400],
  ])('answers a get at %s with its Status', (_what, rv, code) => {
    const w = world();
    try {
      getRow(tenantNamespacesResource(w.view), alice, 'oil-a', { resourceVersion: rv(w) });
      throw new Error('got');
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(code);
    }
  });

  // Not older than: the current state is newer than any state this replica has passed, retained or not.
  it.each([
    ['an earlier one', previous],
    ['one no longer retained', forgotten],
    ["kube-apiserver's integer one", () => '12345'],
  ])('answers a get at %s with the current row', (_what, rv) => {
    const w = world();
    const at = rv(w);
    w.ns('oil-a', 'oil', { now: 'yes' });
    expect(getRow(tenantNamespacesResource(w.view), alice, 'oil-a', { resourceVersion: at }).metadata.labels).toMatchObject({ now: 'yes' });
  });

  it('serves a NotOlderThan resourceVersion it has reached', () => {
    const w = world();
    const { view } = w;
    const rv = previous(w);
    expect(listRows(tenantNamespacesResource(view), alice, opts({ resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' })).metadata.resourceVersion).toBe(view.log.resourceVersion);
  });

  it('stamps the rows made while its sources list with one resourceVersion once all have listed: a state they all have', async () => {
    const { view, tenants, namespaces, quotas, tenant, ns } = setup();
    tenant('oil', [{ kind: 'User', name: 'alice' }]);
    for (const n of ['oil-a', 'oil-b', 'oil-c']) ns(n, 'oil');
    const stamps = () => view.all().map((r) => r.metadata.resourceVersion);
    expect(new Set(stamps()).size).toBe(3);
    namespaces.markListed();
    tenants.markListed();
    await Promise.resolve();
    expect(new Set(stamps()).size).toBe(3); // quotas have not listed yet
    quotas.markListed();
    await new Promise((resolve) => setImmediate(resolve));
    const rv = view.log.resourceVersion;
    expect(stamps()).toEqual([rv, rv, rv]);
    // A state the rows really have: nothing changed since, and the delete precondition holds on it.
    expect(view.log.since(rv)).toEqual([]);
    expect(view.unchangedSince('oil-b', rv)).toBe(true);
    // A later change is stamped as before: its own resourceVersion.
    ns('oil-d', 'oil');
    expect(view.get('oil-d')!.metadata.resourceVersion).not.toBe(rv);
    expect(view.get('oil-a')!.metadata.resourceVersion).toBe(rv);
  });
});
