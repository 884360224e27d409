import type { HistoryEntry } from '../../../cache/history';
import { splitKey } from '../../../cache/keys';
import { namespaceMeta, NamespaceRecord } from '../../../cache/records';
import { INDEX, type PaddockCache } from '../../../cache/paddock-cache';
import { PADDOCK, type KubeObject, type Namespace, type ResourceQuota, type Tenant, type TenantNamespace } from '../../../kube/types';
import { CLAIM_TOKEN_ANNOTATION, claimsOf, isProvisioned } from '../../../tenancy/claims';
import { ownerKeysOfTenant } from '../../../tenancy/owner-keys';
import { admits, audienceOfKeys, NOBODY, viewerKeys } from '../../storage/audience';
import type { Audience } from '../../storage/change';
import type { RowJoin, SourcesAt } from '../../storage/change-log';
import { RowStore, type RowShape } from '../../storage/row-store';
import type { ResourceVersionSeal } from '../../storage/version-seal';
import type { Viewer } from '../../storage/viewer';
import { tenantNamespaceBody, type GuardrailSummary } from './read-model';
import { restampRow, TenantNamespaceRow } from './row';

export type { Viewer } from '../../storage/viewer';

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

/** Who may see the rows of `tenant` (besides callers that see all): its owners. */
function audienceOf(tenant: Tenant | undefined): Audience {
  return tenant ? audienceOfKeys(ownerKeysOfTenant(tenant)) : NOBODY;
}

/** TenantNamespace rows are flat records (row.ts): stamped, re-seen and re-read by making a new one. */
const SHAPE: RowShape<TenantNamespace, Row> = {
  stamp: (row, rv) => row.withResourceVersion(rv),
  seenBy: (before, computed) => before.reading(computed.namespace).seenBy(computed.audience),
  // The row reads the cached Namespace it shows from: when only the Namespace moved on (in what the row
  // does not show), it reads the new one, so as not to keep the one it replaced alive.
  unchanged: (before, computed) => (before.namespace !== computed.namespace ? before.reading(computed.namespace) : before),
  restamp: restampRow,
  name: (row) => row.name,
};

/**
 * The TenantNamespace rows, joined from the shared cache and kept current by its events, in a RowStore
 * that list resourceVersions and watches are numbered by.
 *
 * Invariants:
 * - there is one row per namespace that carries a `paddock.dev/tenant` label and is proven that
 *   tenant's by one of its claims (a label alone never makes a row: see tenancy/claims.ts);
 * - the audience of a row is the owners it shows (status.owners), so a change of it is a change of
 *   content too; the rule is the one every resource follows (see RowStore);
 * - what a caller may see is computed from indexes (owner subject → tenants → rows), so it costs what
 *   the caller can see, not the size of the cluster.
 */
export class TenantNamespaceView {
  readonly store: RowStore<TenantNamespace, Row>;
  readonly #now: Sources;

  constructor(readonly cache: PaddockCache, window: number, seal: ResourceVersionSeal) {
    this.store = new RowStore<TenantNamespace, Row>({
      sources: [cache.namespaces, cache.tenants, cache.resourceQuotas] as never,
      window,
      join: JOIN,
      visibility: {
        admits,
        visibleRows: (viewer) => this.#visibleRows(viewer),
        visibleRowsWhere: (viewer, field, value) => this.#visibleRowsWhere(viewer, field, value),
      },
      shape: SHAPE,
      seal,
      groupOf: (row) => row.spec.tenant,
    });
    this.#now = {
      namespace: (name) => cache.namespaces.store.get(name),
      tenant: (name) => cache.tenants.store.get(name),
      quotasIn: (namespace) => cache.quotasIn(namespace),
    };
    cache.namespaces.addEventHandler({
      add: (ns) => this.#refresh(ns.metadata.name, NAMESPACES),
      update: (old, ns) => this.#namespaceChanged(old, ns),
      delete: (ns) => this.#refresh(ns.metadata.name, NAMESPACES),
    });
    // A Tenant change can add or remove rows (its claims decide which namespaces are its) and changes
    // what every row of it shows.
    const byTenant = (t: Tenant, old?: Tenant) => {
      const names = new Set([...this.store.rowsIn(t.metadata.name), ...claimsOf(t).map((c) => c.name), ...(old ? claimsOf(old).map((c) => c.name) : [])]);
      // In name order, as a replay sends them (see ChangeLog.versionOf).
      for (const name of [...names].sort()) this.#refresh(name, TENANTS);
    };
    cache.tenants.addEventHandler({ add: (t) => byTenant(t), update: (old, t) => byTenant(t, old), delete: (t) => byTenant(t) });
    const byNamespace = (o: { metadata: { namespace?: string } }) => o.metadata.namespace && this.#refresh(o.metadata.namespace, QUOTAS);
    cache.resourceQuotas.addEventHandler({ add: byNamespace, update: (_old, q) => byNamespace(q), delete: byNamespace });
  }

  /** The cached Tenant `name`, as rows are joined from it now. */
  tenant(name: string): Tenant | undefined {
    return this.#now.tenant(name);
  }

  /** The cached Namespace `name`, as rows are joined from it now. */
  namespace(name: string): Namespace | undefined {
    return this.#now.namespace(name);
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

  /** The rows of one tenant (e.g. for `spec.tenant=oil`), ordered by name. */
  rowsOfTenant(tenant: string): TenantNamespace[] {
    return [...this.store.rowsIn(tenant)].sort().map((n) => this.store.get(n)!);
  }

  /** The rows `viewer` sees, ordered by name: those of the tenants it owns. */
  #visibleRows(viewer: Viewer): readonly TenantNamespace[] {
    const tenants = this.visibleTenants(viewer);
    if (!tenants) return this.store.all();
    const names: string[] = [];
    for (const t of tenants) for (const n of this.store.rowsIn(t)) names.push(n);
    names.sort();
    return names.map((n) => this.store.get(n)!);
  }

  /** `spec.tenant=<t>` is answered from the tenant index. */
  #visibleRowsWhere(viewer: Viewer, field: string, value: string): TenantNamespace[] | undefined {
    if (field !== 'spec.tenant') return undefined;
    const visible = this.visibleTenants(viewer);
    return !visible || visible.has(value) ? this.rowsOfTenant(value) : [];
  }

  /**
   * Namespace `old` is now `ns`. When nothing a row's spec, status or existence is joined from changed
   * (sameJoinInputs: a label other than the tenant's, say), the row keeps its spec, status and audience
   * and reads its metadata from `ns`: they are what the join of the sources now would give, since every
   * source event recomputes the rows it touches as it arrives. Otherwise the row is joined again.
   */
  #namespaceChanged(old: Namespace, ns: Namespace): void {
    const name = ns.metadata.name;
    if (!sameJoinInputs(old, ns)) return this.#refresh(name, NAMESPACES);
    const before = this.store.row(name);
    // No row before and the same inputs: none now either.
    if (before) this.store.write(name, TenantNamespaceRow.of(ns, before, before.audience), NAMESPACES);
  }

  /** Recomputes the row of namespace `name` from the cache (the store logs a change if it changed). */
  #refresh(name: string, source: number): void {
    this.store.write(name, joinRow(name, this.#now), source);
  }
}

/** The join as a replay reads it: the same row from the sources at a client's resourceVersion. */
const JOIN: RowJoin<TenantNamespace> = {
  rowAt: (name, at) => joinRow(name, sourcesAt(at)),
  affected: (source, entry) => affectedRows(source, entry),
};

function sourcesAt(at: SourcesAt): Sources {
  return {
    namespace: (name) => at[NAMESPACES].get(name) as Namespace | undefined,
    tenant: (name) => at[TENANTS].get(name) as Tenant | undefined,
    quotasIn: (namespace) => at[QUOTAS].byIndex(INDEX.namespace, namespace, (q) => q.metadata.namespace === namespace) as ResourceQuota[],
  };
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
 * Whether Namespaces `a` and `b` (versions of one) agree on everything joinRow reads of a namespace
 * besides what the row's metadata shows: its tenant label (which tenant), its UID and claim token
 * (whether a claim proves it: isProvisioned), its phase and deletion time (status.phase).
 */
export function sameJoinInputs(a: Namespace, b: Namespace): boolean {
  // Read off the cache's records without making their metadata (records.ts); the name label, which a
  // record keeps as OWN_NAME, is not the tenant's.
  const [ma, mb] = [namespaceMeta(a), namespaceMeta(b)];
  return ma.name === mb.name && ma.uid === mb.uid && ma.deletionTimestamp === mb.deletionTimestamp
    && labelsOf(a)?.[PADDOCK.tenantLabel] === labelsOf(b)?.[PADDOCK.tenantLabel]
    && ma.annotations?.[CLAIM_TOKEN_ANNOTATION] === mb.annotations?.[CLAIM_TOKEN_ANNOTATION]
    && a.status?.phase === b.status?.phase;
}

/** A namespace's labels, read off a record as alike namespaces share them (no copy: see NamespaceRecord.labels). */
const labelsOf = (ns: Namespace) => (ns instanceof NamespaceRecord ? ns.labelsOfAlike : ns.metadata.labels);

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
