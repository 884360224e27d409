import { INDEX, type PaddockCache } from '../cache/paddock-cache';
import type { SharedInformer } from '../cache/informer';
import { PADDOCK, type ClassField, type KubeObject, type Tenant, type TenantStatus } from '../kube/types';
import { mergeObject, needsUpdate, objectRef, TENANT_GUARDRAILS } from '../tenancy';
import { DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, defaultsPolicy, restrictionsPolicy, type AdmissionObject } from '../tenancy/admission-policies';
import { CLASS_FIELDS, allowedClassNames } from '../tenancy/allowed';
import { PolicyNeeds } from './policy-needs';
import type { Writer } from './writer';

/** What the admission step did, for the tenant's Events. */
export type AdmissionNote = (reason: 'Created' | 'Repaired' | 'Deleted', message: string) => void;

/** Policies serve every tenant: their writes are not one tenant's Events. */
const noop: AdmissionNote = () => undefined;

/**
 * Keeps kube-apiserver's enforcement of what tenants may use in place (SPEC §9): the two cluster-scoped
 * policies while any Tenant needs them, and each Tenant's bindings while it exists. Reads only the
 * cache; writes only what differs, so a converged cluster costs no write.
 */
export class TenantAdmission {
  /** Policy passes run one at a time: two workers must not race to create or repair the same policy. */
  #policies: Promise<void> = Promise.resolve();
  /** Which Tenants need which policy: a policy pass asks in O(1), however many Tenants there are. */
  readonly #needs: PolicyNeeds;
  /** The policies as Paddock writes them, the same in every pass (the Tenant is their parameter). */
  readonly #restrictionsPolicy = restrictionsPolicy();
  readonly #defaultsPolicy = defaultsPolicy();
  /** Cached policy objects found as wanted: a cached object never changes, so each is compared once. */
  readonly #policiesInSync = new WeakSet<KubeObject>();

  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
  ) {
    this.#needs = new PolicyNeeds(cache.tenants);
  }

  /** The class names `tenant` may use, per kind it restricts (an unrestricted kind is left out). */
  allowed(tenant: Tenant): TenantStatus['allowed'] {
    const out: Partial<Record<ClassField, string[]>> = {};
    for (const field of CLASS_FIELDS) {
      if (tenant.spec?.[field] !== undefined) out[field] = allowedClassNames(tenant, field, this.cache.classes(field).store.list());
    }
    return out;
  }

  /**
   * Creates, repairs or deletes the bindings of `tenant` so that they are exactly those it needs. The
   * policy a binding names is ensured before the binding: kube-apiserver refuses a binding with a
   * paramRef from a user that may not get every resource (Paddock) while its policy does not exist — it
   * reads the policy's paramKind to check the binder's permissions.
   */
  async ensureBindings(tenant: Tenant, note: AdmissionNote): Promise<void> {
    const wanted = TENANT_GUARDRAILS.map((kind) => ({ kind: kind.resource.kind, objects: kind.desired(tenant) }));
    for (const { kind, objects } of wanted) {
      for (const want of objects) {
        await this.#serially(() => this.#ensurePolicy(String(want.spec.policyName)));
        await this.#ensure(this.cache.guardrail(kind), want, note);
      }
    }
    for (const { kind, objects } of wanted) {
      for (const live of this.cache.guardrail(kind).store.byIndex(INDEX.tenant, tenant.metadata.name)) {
        if (!objects.some((w) => w.metadata.name === live.metadata.name)) {
          await this.writer.delete({ ...live, kind });
          note('Deleted', `deleted ${kind} ${live.metadata.name}`);
        }
      }
    }
  }

  /** Deletes every binding of `tenant` (it is going away: a binding without its Tenant denies). */
  async removeBindings(tenant: Tenant): Promise<void> {
    for (const { resource: { kind } } of TENANT_GUARDRAILS) {
      for (const live of this.cache.guardrail(kind).store.byIndex(INDEX.tenant, tenant.metadata.name)) await this.writer.delete({ ...live, kind });
    }
  }

  /**
   * Ensures each policy exists while some Tenant needs it and is gone once none does. A Tenant being
   * deleted still counts until it is gone: its bindings stay until its finalizer removes them.
   */
  reconcilePolicies(): Promise<void> {
    return this.#serially(() => this.#reconcilePolicies());
  }

  /** Runs `pass` after every policy pass before it has finished: policy writes never race each other. */
  #serially(pass: () => Promise<void>): Promise<void> {
    const run = this.#policies.then(pass);
    this.#policies = run.catch(() => undefined);
    return run;
  }

  async #reconcilePolicies(): Promise<void> {
    const steps: [boolean, SharedInformer<KubeObject>, AdmissionObject][] = [
      [this.#needs.restrictions.size > 0, this.cache.policy(RESTRICTIONS_POLICY_NAME), this.#restrictionsPolicy],
      [this.#needs.defaults.size > 0, this.cache.policy(DEFAULTS_POLICY_NAME), this.#defaultsPolicy],
    ];
    for (const [needed, informer, want] of steps) {
      if (needed) await this.#ensurePolicyObject(informer, want);
      else for (const live of informer.store.list()) await this.writer.delete({ ...live, kind: want.kind });
    }
  }

  /** Creates or repairs the policy `name` (one a binding about to be written names). */
  async #ensurePolicy(name: string): Promise<void> {
    if (name === RESTRICTIONS_POLICY_NAME) return this.#ensurePolicyObject(this.cache.policy(name), this.#restrictionsPolicy);
    if (name === DEFAULTS_POLICY_NAME) return this.#ensurePolicyObject(this.cache.policy(name), this.#defaultsPolicy);
    throw new Error(`not a policy of Paddock's: ${name}`);
  }

  /** `#ensure` for a policy, skipped when the cached object was already found as wanted. */
  async #ensurePolicyObject(informer: SharedInformer<KubeObject>, want: AdmissionObject): Promise<void> {
    const live = informer.store.get(want.metadata.name);
    if (live && this.#policiesInSync.has(live)) return;
    await this.#ensure(informer, want, noop);
    // Remembered only once it needed nothing: a repaired one comes back as a new object, compared again.
    if (live && informer.store.get(want.metadata.name) === live && !needsUpdate({ ...live, kind: want.kind }, want)) {
      this.#policiesInSync.add(live);
    }
  }

  /** The tenants whose admission objects an event on `obj` (a policy or binding) may concern. */
  tenantsConcerned(kind: 'policy' | 'binding', obj: KubeObject): string[] {
    if (kind === 'binding') return [obj.metadata.labels?.[PADDOCK.tenantLabel]].filter((t): t is string => !!t);
    return this.#needs.binding;
  }

  async #ensure(informer: SharedInformer<KubeObject>, want: AdmissionObject, note: AdmissionNote): Promise<void> {
    const live = informer.store.get(want.metadata.name);
    if (!live) {
      if (await this.writer.createIfAbsent(want)) return note('Created', `created ${objectRef(want)}`);
      // It exists but the cache does not show it: not labelled as Paddock's any more, or not seen yet.
      const current = await this.writer.get<KubeObject>(want);
      if (current && needsUpdate({ ...current, kind: want.kind }, want)) {
        await this.writer.update(mergeObject(current, want as KubeObject));
        note('Repaired', `repaired ${objectRef(want)}`);
      }
      return;
    }
    if (!needsUpdate({ ...live, kind: want.kind }, want)) return;
    await this.writer.update(mergeObject({ ...live, kind: want.kind }, want as KubeObject));
    note('Repaired', `repaired ${objectRef(want)}`);
  }
}
