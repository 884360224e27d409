import type { PaddockCache } from '../cache/paddock-cache';
import { isConflict } from '../kube/errors';
import type { Tenant } from '../kube/types';
import { conflicting, holding, HOSTNAME_LEDGER_NAME, HOSTNAME_LEDGER_NAMESPACE, ledgerObject, type HostnameLedger } from '../tenancy/hostnames/ledger';
import type { Writer } from './writer';

/** How many times a pass decides again on a fresher ledger after another writer changed it first. */
const ATTEMPTS = 5;

/**
 * Keeps the hostname ledger (tenancy/hostnames/ledger.ts) holding each Tenant's `spec.hostnames`
 * patterns, unless one overlaps a pattern another tenant already holds. Every write carries the
 * resourceVersion the decision was made on: a 409 means someone changed the ledger since, and the
 * decision is made again on the ledger read live. Passes in this process run one at a time (two workers
 * would otherwise only earn each other 409s); across processes the resourceVersion serialises them.
 * Writes nothing when the ledger already says what the Tenant wants.
 */
export class HostnameHoldings {
  #passes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
  ) {}

  /**
   * Makes the ledger hold exactly `tenant`'s patterns (none: releases what it holds). Returns the
   * patterns that overlap another tenant's: then nothing is written, and the Tenant keeps what it held.
   */
  hold(tenant: Tenant): Promise<string[]> {
    return this.#serially(() => this.#hold(tenant.metadata.name, [...new Set(tenant.spec?.hostnames?.allowed ?? [])]));
  }

  /** Releases every pattern `tenant` holds (it is being deleted). */
  async release(tenant: string): Promise<void> {
    await this.#serially(() => this.#hold(tenant, []));
  }

  #serially<T>(pass: () => Promise<T>): Promise<T> {
    const run = this.#passes.then(pass);
    this.#passes = run.catch(() => undefined);
    return run;
  }

  async #hold(tenant: string, wanted: readonly string[]): Promise<string[]> {
    let ledger = this.cache.hostnameLedger.store.get(`${HOSTNAME_LEDGER_NAMESPACE}/${HOSTNAME_LEDGER_NAME}`) as HostnameLedger | undefined;
    for (let attempt = 1; ; attempt++) {
      const data = ledger?.spec.hostnameHolders ?? {};
      const holdings = this.#current(data);
      const conflicts = conflicting(holdings, tenant, wanted);
      if (conflicts.length > 0) return conflicts;
      // What to write: the tenant's change, or only the sweep of holders that are gone; or nothing.
      const next = holding(holdings, tenant, wanted) ?? (holdings !== data ? { ...holdings } : undefined);
      if (!next) return [];
      try {
        if (ledger) await this.writer.update(ledgerObject(next, ledger));
        else if (!(await this.writer.createIfAbsent(ledgerObject(next)))) throw new LedgerMoved();
        return [];
      } catch (err) {
        if (!(err instanceof LedgerMoved || isConflict(err)) || attempt >= ATTEMPTS) throw err;
      }
      ledger = await this.writer.get<HostnameLedger>(ledgerObject({}));
    }
  }

  /**
   * `data` without the holdings of Tenants that no longer exist (one whose finalizer was removed by
   * hand never released its patterns). Only once the Tenants are listed: before, absence says nothing.
   */
  #current(data: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    if (!this.cache.tenants.hasSynced()) return data;
    const kept = Object.entries(data).filter(([, t]) => this.cache.tenants.store.get(t) !== undefined);
    return kept.length === Object.keys(data).length ? data : Object.fromEntries(kept);
  }
}

/** The ledger was created by another writer since the cache last saw it. */
class LedgerMoved extends Error {}
