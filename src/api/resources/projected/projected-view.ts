import type { SourceAt } from '../../../cache/history';
import { addKey, countKeys, hasKey, keysIn, removeKey, type KeySet } from '../../../cache/key-sets';
import type { SharedInformer } from '../../../cache/informer';
import type { KubeObject, Tenant } from '../../../kube/types';
import { ownerKeysOfTenant } from '../../../tenancy/owner-keys';
import { admits, audienceOfKeys, NOBODY, sameAudience } from '../../storage/audience';
import type { Audience, RowState } from '../../storage/change';
import type { ResourceVersionSeal } from '../../storage/version-seal';
import type { RowJoin } from '../../storage/change-log';
import { plainRows, RowStore } from '../../storage/row-store';

/** How one view is projected from one source kind, and which tenants may use a source object. */
export interface Projection<T extends KubeObject> {
  /** The source objects (one cluster-scoped kind). */
  readonly source: SharedInformer<KubeObject>;
  /** Whether `tenant` may use `obj` (SPEC §9: a class it is allowed, a node its nodeSelector matches, itself). */
  mayUse(tenant: Tenant, obj: KubeObject): boolean;
  /** What of a Tenant `mayUse` reads: when it and the owners are unchanged, a Tenant event changes nothing. */
  relevant(tenant: Tenant): unknown;
  /**
   * True when a source object may be used by the tenant of the same name alone (ownedtenants: a Tenant
   * by itself). A change then visits one tenant and one row; otherwise a changed source object asks every
   * Tenant, and a changed Tenant visits every row (fine for classes and nodes: few beside the tenants).
   */
  readonly sameNameOnly?: boolean;
  /** The row served for `obj`: its metadata and body under the view's apiVersion and kind. */
  project(obj: KubeObject): T;
}

const NO_KEYS: readonly string[] = Object.freeze([]);


/**
 * A view projected from one source kind: one row per source object, seen by the owners of every tenant
 * that may use it (the union, never the intersection), by everyone who may list the source kind.
 *
 * Invariants:
 * - a row's audience is exactly the owner subject keys of the tenants that may use its source object now,
 *   kept incrementally: per row, how many of those tenants hold each key;
 * - a row is handed to the store only when its audience may have changed or its source object did, and
 *   the store logs it only when its served content or its audience changed, so a Tenant status write, a
 *   node heartbeat or a resync costs nothing downstream (see RowStore);
 * - the counts are those of the Tenants as the informer's store holds them: its events are handed out
 *   as each change is applied (informer.ts), so only while one is being handled does the Tenant it
 *   changes differ — and the event carries what it was.
 */
export class ProjectedView<T extends KubeObject> {
  readonly store: RowStore<T>;
  /** Per source object: the tenants that may use it (see key-sets.ts; absent: none). */
  readonly #users = new Map<string, KeySet>();
  /**
   * Per source object that two or more tenants may use: per owner key, how many of them hold it. With
   * one tenant (every OwnedTenant row) the counts are that tenant's keys, each once, and are not kept.
   */
  readonly #keyCounts = new Map<string, Map<string, number>>();
  /** The index of the Tenants among the view's sources (0 when it projects the Tenants themselves). */
  readonly #tenantsAt: number;

  constructor(
    readonly projection: Projection<T>,
    readonly tenants: SharedInformer<Tenant>,
    window: number,
    seal: ResourceVersionSeal,
  ) {
    // Its sources: the source kind and the Tenants (one source when the view projects the Tenants).
    const sources = (projection.source as unknown) === tenants ? [projection.source] : [projection.source, tenants as unknown as SharedInformer<KubeObject>];
    this.#tenantsAt = sources.length - 1;
    // Who sees a row: the owner-key rule, over the audience kept for it here.
    this.store = new RowStore<T>({ sources, window, join: this.#join(this.#tenantsAt), visibility: { admits }, shape: plainRows<T>(), seal });
    // When the view projects the Tenants, one handler takes each Tenant event: as a Tenant (its owners
    // first: its new content must never be logged with its old audience), then as a source object.
    const ownsTenants = this.#tenantsAt === 0;
    if (!ownsTenants) {
      projection.source.addEventHandler({
        add: (o) => this.#refreshSource(o.metadata.name),
        update: (_old, o) => this.#refreshSource(o.metadata.name),
        delete: (o) => this.#refreshSource(o.metadata.name),
      });
    }
    const tenantChanged = (name: string, before: Tenant | undefined): void => {
      this.#refreshTenant(name, before);
      if (ownsTenants) this.#refreshSource(name);
    };
    tenants.addEventHandler({
      add: (t) => tenantChanged(t.metadata.name, undefined),
      update: (old, t) => tenantChanged(t.metadata.name, old),
      delete: (t, { cached }) => tenantChanged(t.metadata.name, cached),
    });
  }

  /** A source object changed: recompute which tenants may use it, and its row. */
  #refreshSource(name: string): void {
    const obj = this.projection.source.store.get(name);
    this.#users.delete(name);
    this.#keyCounts.delete(name);
    if (!obj) {
      this.#write(name, undefined, 0);
      return;
    }
    for (const t of this.#candidatesFor(name)) {
      if (!this.projection.mayUse(t, obj)) continue;
      addKey(this.#users, name, t.metadata.name);
    }
    if (countKeys(this.#users.get(name)) >= 2) this.#keyCounts.set(name, this.#countsOf(name));
    this.#write(name, obj, 0);
  }

  /**
   * A Tenant changed from `before` (undefined: new to the view) to what the store holds: move its owner
   * keys in or out of the rows it may (no longer) use.
   */
  #refreshTenant(tenantName: string, before: Tenant | undefined): void {
    const tenant = this.tenants.store.get(tenantName);
    const keys = tenant ? ownerKeysOfTenant(tenant) : [];
    if (before && tenant && this.#sameForView(before, tenant)) return;
    for (const name of this.#usableBy(tenantName)) {
      const obj = this.projection.source.store.get(name);
      if (!obj) continue;
      const was = hasKey(this.#users.get(name), tenantName);
      const is = tenant !== undefined && this.projection.mayUse(tenant, obj);
      if (!was && !is) continue;
      // A Tenant the view counted before its add (a handler added to a synced informer is handed the
      // objects already there one by one) was counted with the keys it has now.
      const keysBefore = before ? ownerKeysOfTenant(before) : keys;
      const counts = this.#keyCounts.get(name);
      let changed = false;
      // Two or more users before: a key comes or goes when its count passes zero.
      if (counts && was) for (const k of keysBefore) changed = decrement(counts, k) || changed;
      if (counts && is) for (const k of keys) changed = increment(counts, k) || changed;
      if (was) removeKey(this.#users, name, tenantName);
      if (is) addKey(this.#users, name, tenantName);
      const users = countKeys(this.#users.get(name));
      if (users < 2) this.#keyCounts.delete(name);
      else if (!counts) this.#keyCounts.set(name, this.#countsOf(name));
      // One user or none before: its audience is compared with the one now.
      if (!counts) changed = !sameAudience(this.store.row(name)?.audience ?? NOBODY, this.#audience(name));
      // Rows are visited in name order, as a replay sends them (see ChangeLog.versionOf).
      if (changed) this.#write(name, obj, this.#tenantsAt);
    }
  }

  /**
   * The join as a replay reads it, from the sources at a client's resourceVersion: the same projection,
   * seen by the owners of the tenants that may use the source object there. `tenantsAt` is the index
   * of the Tenants among the sources.
   */
  #join(tenantsAt: number): RowJoin<T> {
    const { projection } = this;
    return {
      rowAt: (name, at) => {
        const obj = at[0].get(name);
        if (!obj) return undefined;
        const object = projection.project(obj);
        return { object, audience: this.#audienceAt(name, obj, at[tenantsAt] as SourceAt<Tenant>) };
      },
      affected: (source, entry, at) => {
        if (source !== tenantsAt) return [entry.key];
        // A Tenant change reaches the rows it may use before or after it.
        const [before, after] = [entry.before as Tenant | undefined, entry.after as Tenant | undefined];
        const names = new Set<string>(source === 0 || projection.sameNameOnly ? [entry.key] : []);
        if (projection.sameNameOnly) return names;
        for (const obj of at[0].list()) {
          if ((before && projection.mayUse(before, obj)) || (after && projection.mayUse(after, obj))) names.add(obj.metadata.name);
        }
        return names;
      },
    };
  }

  /**
   * Who may see `obj` (the source object `name` at a replayed position) when the Tenants are as
   * `tenants` reads them. When `obj` is the cached object, the counts kept for now are corrected by the
   * few Tenants that differ there; otherwise every Tenant there is asked.
   */
  #audienceAt(name: string, obj: KubeObject, tenants: SourceAt<Tenant>): Audience {
    if (this.projection.sameNameOnly) {
      const then = tenants.get(name);
      return then && this.projection.mayUse(then, obj) ? new Set(ownerKeysOfTenant(then)) : NOBODY;
    }
    if (obj !== this.projection.source.store.get(name)) {
      const keys = new Set<string>();
      for (const t of tenants.list()) if (this.projection.mayUse(t, obj)) for (const k of ownerKeysOfTenant(t)) keys.add(k);
      return keys;
    }
    const users = this.#users.get(name);
    const adjusted = this.#countsOf(name);
    for (const [tenantName, then] of tenants.overlay) {
      if (hasKey(users, tenantName)) for (const k of this.#keysNow(tenantName)) decrement(adjusted, k);
      if (then && this.projection.mayUse(then, obj)) for (const k of ownerKeysOfTenant(then)) increment(adjusted, k);
    }
    return new Set(adjusted.keys());
  }

  /** The Tenants that may be allowed the source object `name` (see Projection.sameNameOnly). */
  #candidatesFor(name: string): Iterable<Tenant> {
    if (!this.projection.sameNameOnly) return this.tenants.store.list();
    const tenant = this.tenants.store.get(name);
    return tenant ? [tenant] : [];
  }

  /** The rows the tenant `tenantName` may be allowed (a copy: visiting them may change the names). */
  #usableBy(tenantName: string): readonly string[] {
    return this.projection.sameNameOnly ? [tenantName] : this.store.names.slice();
  }

  /** A new map of the counts of owner keys among the tenants that may use `name` now. */
  #countsOf(name: string): Map<string, number> {
    const kept = this.#keyCounts.get(name);
    if (kept) return new Map(kept);
    const counts = new Map<string, number>();
    for (const user of keysIn(this.#users.get(name))) for (const k of this.#keysNow(user)) increment(counts, k);
    return counts;
  }

  /** The owner keys of the tenant `name` as the store holds it (see the invariants). */
  #keysNow(name: string): readonly string[] {
    const tenant = this.tenants.store.get(name);
    return tenant ? ownerKeysOfTenant(tenant) : NO_KEYS;
  }

  /** Whether two versions of a Tenant have the same owners and the same of what `mayUse` reads. */
  #sameForView(a: Tenant, b: Tenant): boolean {
    if (a === b) return true;
    const { relevant } = this.projection;
    return sameKeys(ownerKeysOfTenant(a), ownerKeysOfTenant(b)) && JSON.stringify(relevant(a)) === JSON.stringify(relevant(b));
  }

  /**
   * Who may see the row `name` now: the owner keys of the tenants that may use it. With one such tenant,
   * the set shared by every row of that tenant's owner keys (see audienceOfKeys); otherwise a set of its own.
   */
  #audience(name: string): Audience {
    const users = this.#users.get(name);
    if (users === undefined) return NOBODY;
    if (typeof users === 'string') {
      const tenant = this.tenants.store.get(users);
      return tenant ? audienceOfKeys(ownerKeysOfTenant(tenant)) : NOBODY;
    }
    return new Set(this.#keyCounts.get(name)?.keys() ?? []);
  }

  /** Hands the store the row of `name` as `obj` projects it (undefined: gone); it logs what changed. */
  #write(name: string, obj: KubeObject | undefined, source: number): void {
    const row: RowState<T> | undefined = obj && { object: this.projection.project(obj), audience: this.#audience(name) };
    this.store.write(name, row, source);
  }
}

function increment(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key) ?? 0;
  counts.set(key, n + 1);
  return n === 0;
}

function decrement(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key) ?? 0;
  if (n <= 1) {
    counts.delete(key);
    return n === 1;
  }
  counts.set(key, n - 1);
  return false;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}


