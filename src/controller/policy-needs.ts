import type { HandlerRegistration } from '../cache/informer';
import type { Tenant } from '../kube/types';
import { needsDefaults, needsRestrictions } from '../tenancy/admission-policies';

/** What PolicyNeeds reads of the Tenant informer. */
export interface TenantEvents {
  addEventHandler(handler: {
    add?: (t: Tenant) => void;
    update?: (old: Tenant, t: Tenant) => void;
    delete?: (t: Tenant) => void;
  }): HandlerRegistration;
}

/**
 * The Tenants that need each admission policy, kept from the Tenant informer's events, so that asking
 * whether a policy is needed costs nothing however many Tenants there are (every reconcile asks).
 *
 * Invariant: once the informer has delivered its events, `restrictions` holds exactly the names of the
 * cached Tenants for which `needsRestrictions` holds, and `defaults` those for which `needsDefaults`
 * holds — what a scan of the store would find. A Tenant being deleted still counts until it is gone.
 */
export class PolicyNeeds {
  readonly restrictions = new Set<string>();
  readonly defaults = new Set<string>();

  constructor(tenants: TenantEvents) {
    tenants.addEventHandler({
      add: (t) => this.#set(t),
      update: (_old, t) => this.#set(t),
      delete: (t) => {
        this.restrictions.delete(t.metadata.name);
        this.defaults.delete(t.metadata.name);
      },
    });
  }

  /** The Tenants that bind either policy. */
  get binding(): string[] {
    return [...new Set([...this.restrictions, ...this.defaults])];
  }

  #set(t: Tenant): void {
    const name = t.metadata.name;
    if (needsRestrictions(t)) this.restrictions.add(name);
    else this.restrictions.delete(name);
    if (needsDefaults(t)) this.defaults.add(name);
    else this.defaults.delete(name);
  }
}
