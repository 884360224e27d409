import { isConflict, isNotFound } from '../kube/errors';
import { RESOURCES, resourcePath } from '../kube/resources';
import type { NamespaceClaim, Tenant } from '../kube/types';

/**
 * What the ledger needs of a client (KubeClient is one): read an object and replace it, by REST path,
 * each cancelled by its signal. A failure is a KubeApiError (404 when the Tenant is gone, 409 when it
 * changed since the version written over).
 */
export interface TenantStatusClient {
  get<T>(path: string, opts?: { signal?: AbortSignal }): Promise<T>;
  update<T>(path: string, body: unknown, opts?: { signal?: AbortSignal }): Promise<T>;
}

/** What a change to a Tenant's claims decides, given the Tenant as it is now. */
export type ClaimChange = (tenant: Tenant) => NamespaceClaim[] | undefined;

/** The change could not be written before the deadline: others kept changing the Tenant. */
export class ClaimContention extends Error {
  constructor(readonly tenant: string) {
    super(`tenant "${tenant}" is being changed by others; try again`);
    this.name = 'ClaimContention';
  }
}

/** The Tenant is gone. */
export class TenantGone extends Error {
  constructor(readonly tenant: string) {
    super(`tenant "${tenant}" not found`);
    this.name = 'TenantGone';
  }
}

const TENANTS = RESOURCES.tenants;

/**
 * Read-modify-write of a Tenant's claims for requests that must not give up at the first 409 (the
 * self-service API: many creates of one tenant race on both replicas). Each attempt applies `change`
 * to the freshest Tenant (the cached one first, then live reads) and writes the status subresource
 * with that Tenant's resourceVersion, so kube-apiserver admits exactly one writer per version: every
 * decision `change` makes (quota, name taken) is made on the state it is written over.
 */
export class ClaimLedger {
  constructor(
    readonly client: TenantStatusClient,
    readonly cached: (name: string) => Tenant | undefined,
    readonly deadlineMs = 20_000,
  ) {}

  /**
   * Applies `change` until it is written; returns the written Tenant, or the Tenant unchanged when
   * `change` returned undefined (nothing to write). `change` may throw to refuse; that error is thrown
   * once `change` refused on a live read of the Tenant. An undefined (nothing to write) decided on the
   * cached copy is final: callers return undefined only when the cached state already says "done", or
   * ask for `live` to decide on a live read from the start.
   */
  async update(name: string, change: ClaimChange, opts: { signal?: AbortSignal; live?: boolean } = {}): Promise<Tenant> {
    const { signal } = opts;
    const deadline = Date.now() + this.deadlineMs;
    const cached = opts.live ? undefined : this.cached(name);
    let tenant = cached ?? (await this.#read(name, signal));
    let live = cached === undefined;
    for (let attempt = 0; ; attempt++) {
      let claims: NamespaceClaim[] | undefined;
      try {
        claims = change(tenant);
      } catch (err) {
        // The cache may be behind (it lacks a claim written a moment ago, or still has a dropped one):
        // only a refusal decided on a live read is final.
        if (live) throw err;
        tenant = await this.#read(name, signal);
        live = true;
        continue;
      }
      if (claims === undefined) return tenant;
      try {
        return await this.client.update<Tenant>(resourcePath(TENANTS, { name, subresource: 'status' }), { ...tenant, status: { ...tenant.status, claims } }, { signal });
      } catch (err) {
        if (isNotFound(err)) throw new TenantGone(name);
        if (!isConflict(err)) throw err;
      }
      if (Date.now() > deadline) throw new ClaimContention(name);
      // Spread the racers out a little so that each round has one winner rather than a stampede.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(100, 5 * (attempt + 1))));
      tenant = await this.#read(name, signal);
      live = true;
    }
  }

  async #read(name: string, signal?: AbortSignal): Promise<Tenant> {
    try {
      return await this.client.get<Tenant>(resourcePath(TENANTS, { name }), { signal });
    } catch (err) {
      if (isNotFound(err)) throw new TenantGone(name);
      throw err;
    }
  }
}
