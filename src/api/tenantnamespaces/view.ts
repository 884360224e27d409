import { createHash } from 'node:crypto';
import { INDEX, type PaddockCache } from '../../cache/paddock-cache';
import { PADDOCK, type Namespace, type Tenant, type TenantNamespace } from '../../kube/types';
import { claimsOf, isProvisioned } from '../../tenancy/claims';
import { ownerKey, subjectKeysOfUser } from '../../tenancy/owner-keys';
import { ChangeLog, type Change } from '../watch/changelog';
import { ResourceVersions } from '../watch/resource-version';
import { toTenantNamespace, type GuardrailSummary } from './read-model';

/** A caller as the view needs it: who it is, and whether it may see every row. */
export interface Viewer {
  name: string;
  groups: readonly string[];
  /** kube-apiserver lets it list namespaces cluster-wide (SubjectAccessReview). */
  seesAll: boolean;
}

interface Row {
  object: TenantNamespace;
  /** A hash of the row's JSON without its resourceVersion: what decides whether a recomputation changed it. */
  fingerprint: string;
}

const fingerprintOf = (object: TenantNamespace) => createHash('sha1').update(JSON.stringify(object)).digest('base64');

/** A viewer's owner subject keys, computed once per viewer object (a request's or a watch's). */
const keysOfViewer = new WeakMap<Viewer, Set<string>>();
function viewerKeys(viewer: Viewer): Set<string> {
  let keys = keysOfViewer.get(viewer);
  if (!keys) keysOfViewer.set(viewer, (keys = new Set(subjectKeysOfUser(viewer))));
  return keys;
}

/**
 * The TenantNamespace rows, joined from the shared cache and kept current by its events, with the
 * change log that list resourceVersions and watches are numbered by.
 *
 * Invariants:
 * - there is one row per namespace that carries a `paddock.dev/tenant` label and is proven that
 *   tenant's by one of its claims (a label alone never makes a row: see tenancy/claims.ts);
 * - a row changes (and the log gets one change) only when its served content changes;
 * - `names` is always sorted, so lists come out ordered by name as kube-apiserver orders them;
 * - what a caller may see is computed from indexes (owner subject → tenants → rows), so it costs what
 *   the caller can see, not the size of the cluster.
 */
export class TenantNamespaceView {
  readonly log: ChangeLog<TenantNamespace>;
  readonly #rows = new Map<string, Row>();
  readonly #byTenant = new Map<string, Set<string>>();
  #names: string[] = [];

  constructor(readonly cache: PaddockCache, window: number, versions = new ResourceVersions()) {
    this.log = new ChangeLog<TenantNamespace>(versions, window);
    cache.namespaces.addEventHandler({
      add: (ns) => this.#refresh(ns.metadata.name),
      update: (_old, ns) => this.#refresh(ns.metadata.name),
      delete: (ns) => this.#refresh(ns.metadata.name),
    });
    // A Tenant change can add or remove rows (its claims decide which namespaces are its) and changes
    // what every row of it shows.
    const byTenant = (t: Tenant, old?: Tenant) => {
      const names = new Set([...(this.#byTenant.get(t.metadata.name) ?? []), ...claimsOf(t).map((c) => c.name), ...(old ? claimsOf(old).map((c) => c.name) : [])]);
      for (const name of names) this.#refresh(name);
    };
    cache.tenants.addEventHandler({ add: (t) => byTenant(t), update: (old, t) => byTenant(t, old), delete: (t) => byTenant(t) });
    const byNamespace = (o: { metadata: { namespace?: string } }) => o.metadata.namespace && this.#refresh(o.metadata.namespace);
    cache.resourceQuotas.addEventHandler({ add: byNamespace, update: (_old, q) => byNamespace(q), delete: byNamespace });
  }

  get size(): number {
    return this.#rows.size;
  }

  get(name: string): TenantNamespace | undefined {
    return this.#rows.get(name)?.object;
  }

  /** Every row, ordered by name. */
  all(): TenantNamespace[] {
    return this.#names.map((n) => this.#rows.get(n)!.object);
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

  /** Whether `viewer` sees `row` now. */
  canSee(viewer: Viewer, row: TenantNamespace): boolean {
    if (viewer.seesAll) return true;
    const tenant = this.cache.tenants.store.get(row.spec.tenant);
    if (!tenant) return false;
    const keys = viewerKeys(viewer);
    return (tenant.spec?.owners ?? []).some((o) => keys.has(ownerKey(o)));
  }

  /** The rows `viewer` sees, ordered by name. */
  visibleRows(viewer: Viewer): TenantNamespace[] {
    const tenants = this.visibleTenants(viewer);
    if (!tenants) return this.all();
    const names: string[] = [];
    for (const t of tenants) for (const n of this.#byTenant.get(t) ?? []) names.push(n);
    names.sort();
    return names.map((n) => this.#rows.get(n)!.object);
  }

  /** The rows of one tenant (e.g. for `spec.tenant=oil`), ordered by name. */
  rowsOfTenant(tenant: string): TenantNamespace[] {
    return [...(this.#byTenant.get(tenant) ?? [])].sort().map((n) => this.#rows.get(n)!.object);
  }

  subscribe(listener: (change: Change<TenantNamespace>) => void): () => void {
    return this.log.subscribe(listener);
  }

  /** Recomputes the row of namespace `name` from the cache and logs a change if its content changed. */
  #refresh(name: string): void {
    const ns = this.cache.namespaces.store.get(name);
    const tenantName = ns?.metadata.labels?.[PADDOCK.tenantLabel];
    const before = this.#rows.get(name);
    const tenant = tenantName ? this.cache.tenants.store.get(tenantName) : undefined;
    if (!ns || !tenantName || !isProvisioned(tenant, ns)) {
      if (before) this.#remove(name, before);
      return;
    }
    const object = toTenantNamespace({ namespace: ns, tenant, quotas: this.cache.quotasIn(name), guardrails: guardrailsOf(tenant, ns), resourceVersion: '' });
    const fingerprint = fingerprintOf(object);
    if (before && before.fingerprint === fingerprint) return;
    if (before && before.object.spec.tenant !== tenantName) this.#unindex(name, before.object.spec.tenant);
    const served = this.#stamp(object);
    this.#rows.set(name, { object: served, fingerprint });
    if (!before) this.#insertName(name);
    this.#index(name, tenantName);
    this.log.append(before ? 'MODIFIED' : 'ADDED', served, before?.object);
  }

  #remove(name: string, before: Row): void {
    this.#rows.delete(name);
    this.#unindex(name, before.object.spec.tenant);
    const i = this.#search(name);
    if (this.#names[i] === name) this.#names.splice(i, 1);
    this.log.append('DELETED', this.#stamp(before.object), before.object);
  }

  /** `row`, frozen, with the resourceVersion of the change about to be appended. */
  #stamp(row: TenantNamespace): TenantNamespace {
    const resourceVersion = this.log.versions.format(this.log.seq + 1);
    return Object.freeze({ ...row, metadata: Object.freeze({ ...row.metadata, resourceVersion }) }) as TenantNamespace;
  }

  #index(name: string, tenant: string): void {
    let set = this.#byTenant.get(tenant);
    if (!set) this.#byTenant.set(tenant, (set = new Set()));
    set.add(name);
  }

  #unindex(name: string, tenant: string): void {
    const set = this.#byTenant.get(tenant);
    set?.delete(name);
    if (set?.size === 0) this.#byTenant.delete(tenant);
  }

  #insertName(name: string): void {
    this.#names.splice(this.#search(name), 0, name);
  }

  /** First index whose name is >= `name` (binary search over the sorted names). */
  #search(name: string): number {
    let lo = 0;
    let hi = this.#names.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#names[mid] < name) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
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
