import { historyOf, type HistoryEntry } from '../../cache/history';
import { addKey, keysIn, removeKey, type KeySet } from '../../cache/key-sets';
import { splitKey } from '../../cache/keys';
import { INDEX, type PaddockCache } from '../../cache/paddock-cache';
import { NAMESPACE_INDEX } from '../../cache/store';
import { PADDOCK, type KubeObject, type Namespace, type ResourceQuota, type Tenant, type TenantNamespace } from '../../kube/types';
import { claimsOf, isProvisioned } from '../../tenancy/claims';
import { ownerKeysOfTenant } from '../../tenancy/owner-keys';
import type { RowView, Viewer } from '../serving/resource';
import { admits, audienceOfKeys, restampRows, rowChange, viewerKeys, whenListed } from '../serving/rows';
import { sameContent } from '../serving/same-content';
import { SortedNames } from '../serving/sorted-names';
import type { Audience, Change } from '../watch/changelog';
import type { ResourceVersionSeal } from '../watch/version-seal';
import { ViewLog, type RowJoin, type SourcesAt } from '../watch/view-log';
import { tenantNamespaceBody, type GuardrailSummary } from './read-model';
import { restampRow, TenantNamespaceRow } from './row';

export type { Viewer } from '../serving/resource';

/** A row as served (stamped with the resourceVersion of its last change), with who may see it. Immutable. */
type Row = TenantNamespaceRow;

/** What a row is joined from, read now (from the cache) or at a client's resourceVersion (a replay). */
interface Sources {
  namespace(name: string): Namespace | undefined;
  tenant(name: string): Tenant | undefined;
  quotasIn(namespace: string): ResourceQuota[];
}

/** The sources of the view, in the order of its resourceVersions' positions. */
const NAMESPACES = 0;
const TENANTS = 1;
const QUOTAS = 2;

const NOBODY: Audience = Object.freeze(new Set<string>());

/** Who may see the rows of `tenant` (besides callers that see all): its owners. */
function audienceOf(tenant: Tenant | undefined): Audience {
  return tenant ? audienceOfKeys(ownerKeysOfTenant(tenant)) : NOBODY;
}

/**
 * The TenantNamespace rows, joined from the shared cache and kept current by its events, with the
 * change log that list resourceVersions and watches are numbered by.
 *
 * Invariants:
 * - there is one row per namespace that carries a `paddock.dev/tenant` label and is proven that
 *   tenant's by one of its claims (a label alone never makes a row: see tenancy/claims.ts);
 * - a row changes (and the log gets one change) only when its served content or who may see it changes;
 *   a change of who may see it alone keeps its resourceVersion and reaches only the callers who gain or
 *   lose it (see rowChange). Here the audience is the owners the row shows (status.owners), so a change
 *   of it is a change of content too; the rule is the one every view follows;
 * - each row records who may see it (its audience); `canSee` and every watch judge by that record, so a
 *   list, a get and a watch (live or resumed) agree on each state of each row;
 * - `names` is always sorted, so lists come out ordered by name as kube-apiserver orders them;
 * - what a caller may see is computed from indexes (owner subject → tenants → rows), so it costs what
 *   the caller can see, not the size of the cluster.
 */
export class TenantNamespaceView implements RowView<TenantNamespace> {
  readonly log: ViewLog<TenantNamespace>;
  readonly #rows = new Map<string, Row>();
  /** Tenant → the names of its rows (see key-sets.ts). */
  readonly #byTenant = new Map<string, KeySet>();
  readonly #names = new SortedNames();
  readonly #now: Sources;
  /** Every row in name order, made on first use after a change (see `all`); undefined once a row changes. */
  #all: readonly TenantNamespace[] | undefined;

  constructor(readonly cache: PaddockCache, window: number, seal: ResourceVersionSeal) {
    const sources = [cache.namespaces, cache.tenants, cache.resourceQuotas].map((informer) => historyOf<KubeObject>(informer as never, window));
    this.log = new ViewLog<TenantNamespace>(sources, this.#join(), restampRow, seal);
    this.#now = {
      namespace: (name) => cache.namespaces.store.get(name),
      tenant: (name) => cache.tenants.store.get(name),
      quotasIn: (namespace) => cache.quotasIn(namespace),
    };
    cache.namespaces.addEventHandler({
      add: (ns) => this.#refresh(ns.metadata.name, NAMESPACES),
      update: (_old, ns) => this.#refresh(ns.metadata.name, NAMESPACES),
      delete: (ns) => this.#refresh(ns.metadata.name, NAMESPACES),
    });
    // A Tenant change can add or remove rows (its claims decide which namespaces are its) and changes
    // what every row of it shows.
    const byTenant = (t: Tenant, old?: Tenant) => {
      const names = new Set([...keysIn(this.#byTenant.get(t.metadata.name)), ...claimsOf(t).map((c) => c.name), ...(old ? claimsOf(old).map((c) => c.name) : [])]);
      // In name order, as a replay sends them (see ViewLog.versionOf).
      for (const name of [...names].sort()) this.#refresh(name, TENANTS);
    };
    cache.tenants.addEventHandler({ add: (t) => byTenant(t), update: (old, t) => byTenant(t, old), delete: (t) => byTenant(t) });
    const byNamespace = (o: { metadata: { namespace?: string } }) => o.metadata.namespace && this.#refresh(o.metadata.namespace, QUOTAS);
    cache.resourceQuotas.addEventHandler({ add: byNamespace, update: (_old, q) => byNamespace(q), delete: byNamespace });
    whenListed([cache.namespaces, cache.tenants, cache.resourceQuotas], () => {
      restampRows(this.#rows, this.log.resourceVersion, (row, rv) => row.withResourceVersion(rv));
      this.#all = undefined;
    });
  }

  get size(): number {
    return this.#rows.size;
  }

  get(name: string): TenantNamespace | undefined {
    return this.#rows.get(name)?.object;
  }

  /**
   * Every row, ordered by name: one frozen array shared by every caller until a row changes (a list's
   * paging snapshot keeps this array, not a copy of it).
   */
  all(): readonly TenantNamespace[] {
    return (this.#all ??= Object.freeze(this.#names.all.map((n) => this.#rows.get(n)!.object)));
  }

  /**
   * Whether the row `name` is now as it was at `rv` (a delete precondition): the same resourceVersion,
   * or — since another replica numbers the same state otherwise — the same content in the state `rv` names
   * (who may see it is not part of the row: a change of it alone leaves the resourceVersion as it was).
   */
  unchangedSince(name: string, rv: string): boolean {
    const row = this.#rows.get(name);
    if (!row) return false;
    if (row.object.metadata.resourceVersion === rv) return true;
    const then = this.log.rowAt(rv, name);
    return typeof then === 'object' && sameContent(then.object, row.object);
  }

  /** The tenants whose rows `viewer` sees; undefined means all of them. */
  visibleTenants(viewer: Viewer): Set<string> | undefined {
    if (viewer.seesAll) return undefined;
    const tenants = new Set<string>();
    for (const key of viewerKeys(viewer)) {
      for (const t of this.cache.tenants.store.byIndex(INDEX.owner, key)) tenants.add(t.metadata.name);
    }
    return tenants;
  }

  /** Whether `viewer` sees the row named as `row` now. */
  canSee(viewer: Viewer, row: TenantNamespace): boolean {
    if (viewer.seesAll) return true;
    const current = this.#rows.get(row.metadata.name);
    return current !== undefined && this.admits(viewer, current.audience);
  }

  /**
   * Whether `viewer` is among those who may see a row state with `audience` (recorded with the state):
   * the owner-key rule itself, by which the watch hub routes this view's changes (watch/routing.ts).
   */
  readonly admits: (viewer: Viewer, audience: Audience) => boolean = admits;

  /** The rows `viewer` sees, ordered by name. */
  visibleRows(viewer: Viewer): readonly TenantNamespace[] {
    const tenants = this.visibleTenants(viewer);
    if (!tenants) return this.all();
    const names: string[] = [];
    for (const t of tenants) for (const n of keysIn(this.#byTenant.get(t))) names.push(n);
    names.sort();
    return names.map((n) => this.#rows.get(n)!.object);
  }

  /** `spec.tenant=<t>` is answered from the tenant index. */
  visibleRowsWhere(viewer: Viewer, field: string, value: string): TenantNamespace[] | undefined {
    if (field !== 'spec.tenant') return undefined;
    const visible = this.visibleTenants(viewer);
    return !visible || visible.has(value) ? this.rowsOfTenant(value) : [];
  }

  /** The rows of one tenant (e.g. for `spec.tenant=oil`), ordered by name. */
  rowsOfTenant(tenant: string): TenantNamespace[] {
    return [...keysIn(this.#byTenant.get(tenant))].sort().map((n) => this.#rows.get(n)!.object);
  }

  subscribe(listener: (change: Change<TenantNamespace>) => void): () => void {
    return this.log.subscribe(listener);
  }

  /** Recomputes the row of namespace `name` from the cache and logs a change if its content changed. */
  #refresh(name: string, source: number): void {
    const before = this.#rows.get(name);
    const computed = joinRow(name, this.#now);
    if (!computed) {
      if (before) this.#remove(name, before, source);
      return;
    }
    const change = before ? rowChange(before, computed) : 'content';
    if (change === 'none') {
      // No change to serve. When only the Namespace moved on (in what the row does not show), the row
      // reads the cached one from now on, so as not to keep the one it replaced alive.
      if (before!.namespace !== computed.namespace) {
        this.#rows.set(name, before!.reading(computed.namespace));
        this.#all = undefined;
      }
      return;
    }
    const tenantName = computed.object.spec.tenant;
    if (before && before.object.spec.tenant !== tenantName) this.#unindex(name, before.object.spec.tenant);
    // Who may see it changed, and nothing else: the same row as served, its resourceVersion too.
    const row = change === 'audience' ? before!.reading(computed.namespace).seenBy(computed.audience) : computed.withResourceVersion(this.log.versionOf(source, name));
    this.#rows.set(name, row);
    this.#all = undefined;
    if (!before) this.#names.insert(name);
    this.#index(name, tenantName);
    this.log.append(source, before, row, change === 'audience');
  }

  /** The join as a replay reads it: the same row from the sources at a client's resourceVersion. */
  #join(): RowJoin<TenantNamespace> {
    const read = (at: SourcesAt): Sources => ({
      namespace: (name) => at[NAMESPACES].get(name) as Namespace | undefined,
      tenant: (name) => at[TENANTS].get(name) as Tenant | undefined,
      quotasIn: (namespace) => at[QUOTAS].byIndex(NAMESPACE_INDEX, namespace, (q) => q.metadata.namespace === namespace) as ResourceQuota[],
    });
    return {
      rowAt: (name, at) => joinRow(name, read(at)),
      affected: (source, entry) => affectedRows(source, entry),
    };
  }

  #remove(name: string, before: Row, source: number): void {
    this.#rows.delete(name);
    this.#all = undefined;
    this.#unindex(name, before.object.spec.tenant);
    this.#names.remove(name);
    this.log.append(source, before, undefined);
  }

  #index(name: string, tenant: string): void {
    addKey(this.#byTenant, tenant, name);
  }

  #unindex(name: string, tenant: string): void {
    removeKey(this.#byTenant, tenant, name);
  }
}

/**
 * The row of namespace `name`: there is one when the namespace carries a tenant label and that tenant's
 * claims prove it (a label alone never makes a row). Who may see it: the tenant's owners.
 */
function joinRow(name: string, sources: Sources): Row | undefined {
  const ns = sources.namespace(name);
  const tenantName = ns?.metadata.labels?.[PADDOCK.tenantLabel];
  const tenant = tenantName ? sources.tenant(tenantName) : undefined;
  if (!ns || !tenantName || !isProvisioned(tenant, ns)) return undefined;
  const body = tenantNamespaceBody({ namespace: ns, tenant, quotas: sources.quotasIn(name), guardrails: guardrailsOf(tenant, ns) });
  return TenantNamespaceRow.of(ns, body, audienceOf(tenant));
}

/**
 * The rows one source change may change: a namespace's own; a quota's namespace's; a Tenant's — the
 * namespaces its claims name before or after (only a claim makes a row the tenant's).
 */
function affectedRows(source: number, entry: HistoryEntry<KubeObject>): string[] {
  if (source === NAMESPACES) return [entry.key];
  if (source === QUOTAS) return [splitKey(entry.key).namespace ?? ''];
  const claimed = (t: KubeObject | undefined) => (t ? claimsOf(t as Tenant).map((c) => c.name) : []);
  return [...claimed(entry.before), ...claimed(entry.after)];
}

/** GuardrailsReady follows the reconciler's verdict on the Tenant for the namespaces it provisioned. */
function guardrailsOf(tenant: Tenant | undefined, ns: Namespace): GuardrailSummary | undefined {
  const ready = tenant?.status?.conditions?.find((c) => c.type === 'Ready');
  if (!tenant || !ready) return undefined;
  const provisioned = isProvisioned(tenant, ns) && (tenant.status?.namespaces ?? []).includes(ns.metadata.name);
  const inSync = ready.status === 'True' && provisioned;
  return {
    inSync,
    reason: inSync ? 'InSync' : (ready.reason ?? 'NotInSync'),
    message: inSync ? undefined : ready.message,
    lastTransitionTime: ready.lastTransitionTime,
  };
}
