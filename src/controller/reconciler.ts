import type { PaddockCache } from '../cache/paddock-cache';
import { PADDOCK, type Namespace, type NamespaceClaim, type Tenant } from '../kube/types';
import type { Logger } from '../log/logger';
import { desiredState, diffNamespace, mergeNamespace, objectRef, statusEqual, tenantStatus, type DesiredState, type ObservedState } from '../tenancy';
import { CLAIM_TOKEN_ANNOTATION, claimHolds, claimsOf, namesTakenFromOthers, provenByUid, withClaim } from '../tenancy/claims';
import { DEFAULT_BINDABLE_CLUSTER_ROLES } from '../tenancy/bindable';
import { unresolvedReferences } from '../tenancy/references';
import { TenantAdmission } from './admission';
import { BindableRoles } from './bindable-roles';
import { proveByToken, updateClaims } from './claim-update';
import { EventBatch, type EventRecorder } from './events';
import { GuardrailSync, type Notes } from './guardrail-sync';
import { HostnameHoldings } from './hostname-holdings';
import { NamespaceRelease } from './release';
import { NodeSelectorMatches } from './node-selector-matches';
import type { ReconcileResult } from './workqueue-workers';
import type { Writer } from './writer';

/**
 * Level-based reconcile of one Tenant, keyed by name: read the cache, compute the desired state, write
 * only what differs, report status. Beyond what drift repair and release read live before they write,
 * it reads the API only for what the cache cannot tell: the namespace of a claim without a UID (the
 * cache keeps no claim token), one not cached yet, and after a write found the cache behind.
 *
 * Invariants:
 * - a namespace that is not this tenant's (no tenant label, or another tenant's) is never written;
 * - in a converged cluster a pass issues no write at all (status is written only when it changes);
 * - a Namespace never gets an ownerReference to its Tenant (re-creating the CRD must not cascade).
 */
export class TenantReconciler {
  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
    readonly events: EventRecorder,
    readonly log: Logger,
    /** --bindable-cluster-roles: what spec.additionalRoleBindings may name. */
    bindableClusterRoles: readonly string[] = DEFAULT_BINDABLE_CLUSTER_ROLES,
  ) {
    this.admission = new TenantAdmission(cache, writer);
    this.guardrails = new GuardrailSync(cache, writer);
    this.release = new NamespaceRelease(cache, writer, this.guardrails);
    this.bindable = new BindableRoles(writer.client, bindableClusterRoles, log);
    this.hostnames = new HostnameHoldings(cache, writer);
    this.nodeMatches = new NodeSelectorMatches(() => this.cache.nodes.store.list());
  }

  /** Per tenant, the resourceVersion its last status write was made from, until the cache has moved past it. */
  readonly #statusWrittenFrom = new Map<string, string>();

  /** Events of the pass in progress, per tenant (the workqueue never runs one tenant twice at once). */
  readonly #batches = new Map<string, EventBatch>();

  /** Admission policies and bindings: what tenants may use, enforced by kube-apiserver (SPEC §9). */
  readonly admission: TenantAdmission;
  /** The guardrails in tenant namespaces. */
  readonly guardrails: GuardrailSync;
  /** Namespaces a tenant lets go. */
  readonly release: NamespaceRelease;
  /** The cluster roles additionalRoleBindings may name here (the controller refreshes it). */
  readonly bindable: BindableRoles;
  /** The hostname patterns each tenant holds (one ledger for the cluster). */
  readonly hostnames: HostnameHoldings;
  /** Whether a nodeSelector matches some node, for ResolvedRefs (the controller clears it on node label changes). */
  readonly nodeMatches: NodeSelectorMatches;

  /** Reconciles one tenant; `signal` cancels the pass: once it aborts, none of its writes is sent. */
  async reconcile(name: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    if (signal) return this.writer.within(signal, () => this.reconcile(name));
    const tenant = this.cache.tenants.store.get(name);
    if (!tenant) {
      this.#statusWrittenFrom.delete(name);
      return;
    }
    const batch = new EventBatch();
    this.#batches.set(name, batch);
    try {
      return await this.#reconcile(tenant);
    } catch (err) {
      batch.add('Warning', 'ReconcileFailed', err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      this.#batches.delete(name);
      batch.flush(this.events, tenant);
    }
  }

  #event(tenant: Tenant, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.#batches.get(tenant.metadata.name)?.add(type, reason, message);
  }

  /** The tenant's Events of this pass, for the steps that note what they did. */
  #notes(tenant: Tenant): Notes {
    return { add: (type, reason, message) => this.#event(tenant, type, reason, message) };
  }

  async #reconcile(tenant: Tenant): Promise<ReconcileResult | void> {
    if (tenant.metadata.deletionTimestamp) return this.#finalize(tenant);
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) {
      await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers: [...(tenant.metadata.finalizers ?? []), PADDOCK.finalizer] } });
      return; // the update's watch event brings the tenant back with the finalizer
    }
    await this.admission.reconcile();

    const takenFromOthers = namesTakenFromOthers(tenant.metadata.name, (n) => this.cache.tenants.store.get(n));
    const bindable = this.bindable.current();
    const validity = desiredState(tenant, [], bindable);
    // Hostnames are allocated before anything else is claimed: a Tenant refused them is refused whole.
    const hostnameConflicts = validity.valid && takenFromOthers.length === 0 ? await this.hostnames.hold(tenant) : [];
    if (!validity.valid || takenFromOthers.length > 0 || hostnameConflicts.length > 0) {
      // Refused: nothing is claimed, created or changed; what is already proven is reported (and the
      // UID of a namespace its token proves is recorded, as on any pass).
      const proof = await proveByToken(claimsOf(tenant), this.writer);
      const proven = proof.claims.filter((c) => this.#holds(c)).map((c) => c.name);
      const conflicts = this.#unclaimedLabelled(tenant, proof.claims, proof.unproven);
      const claims = tenant.status?.claims !== undefined ? { claims: proof.claims } : {};
      return this.#writeStatus(tenant, validity, { namespaces: proven, conflicts, missing: [], drifted: [], takenFromOthers, hostnameConflicts, ...claims });
    }

    const notes = this.#notes(tenant);
    const ledger = await updateClaims(tenant, this.cache, this.writer);
    if (ledger.changed) tenant = await this.writer.updateStatus({ ...tenant, status: { ...tenant.status, claims: ledger.claims } });
    let claims = ledger.claims;

    // The TenantRestrictions carry the class names the selectors resolve to now, not as last reported.
    const desired = desiredState({ ...tenant, status: { ...tenant.status, allowed: this.admission.allowed(tenant) } }, claims, bindable);
    if (!desired.valid) return;
    const quota = tenant.spec.namespaceQuota;
    const keptOverQuota = quota !== undefined && claims.length > quota ? claims.slice(quota).map((c) => c.name) : [];
    const observed = { namespaces: [] as string[], conflicts: [...ledger.conflicts], missing: [] as string[], drifted: [] as string[], overQuota: ledger.overQuota, keptOverQuota };
    for (const want of desired.namespaces) {
      const claim = claims.find((c) => c.name === want.name)!;
      const result = await this.#ensureNamespace(tenant, want.namespace, claim, ledger.tokens.get(want.name), observed);
      if (result.uid && result.uid !== claim.uid) claims = withClaim(claims, provenByUid(claim, result.uid));
      if (result.furnish) for (const g of want.guardrails) await this.guardrails.ensure(g, notes);
    }
    await this.guardrails.prune(tenant.metadata.name, desired.namespaces.map((n) => n.name), desired.namespaces.flatMap((n) => n.guardrails));
    claims = await this.release.releaseUnwanted(tenant, desired, claims, notes);
    observed.conflicts.push(...this.#unclaimedLabelled(tenant, claims, ledger.unproven));
    observed.namespaces.sort();
    await this.#writeStatus(tenant, desired, { ...observed, claims });
  }

  /**
   * Namespaces labelled for this tenant that no claim of it proves: planted, never adopted. A claim
   * without a UID is judged by what this pass read live (`unproven`, see proveByToken): its namespace,
   * cached since, may be a self-service create that was not there yet when read.
   */
  #unclaimedLabelled(tenant: Tenant, claims: readonly NamespaceClaim[], unproven: ReadonlySet<string>): string[] {
    return this.cache
      .namespacesOf(tenant.metadata.name)
      .filter((ns) => {
        const claim = claims.find((c) => c.name === ns.metadata.name);
        if (!claim) return true;
        return claim.uid ? !claimHolds(claim, ns) : unproven.has(claim.name);
      })
      .map((ns) => ns.metadata.name);
  }

  #holds(claim: NamespaceClaim): boolean {
    const ns = this.cache.namespaces.store.get(claim.name);
    return ns !== undefined && claimHolds(claim, ns);
  }

  /**
   * Creates (with the claim's token) or repairs one claimed namespace. `uid`: the namespace's UID when
   * known; `furnish`: whether its guardrails should be applied now.
   */
  async #ensureNamespace(
    tenant: Tenant,
    want: Namespace,
    claim: NamespaceClaim,
    token: string | undefined,
    observed: { namespaces: string[]; missing: string[] },
  ): Promise<{ uid?: string; furnish: boolean }> {
    const name = want.metadata.name;
    const live = this.cache.namespaces.store.get(name);
    if (!live || !claimHolds(claim, live)) {
      // A namespace its claim does not prove (reported), one that came after this pass read it live (the
      // next pass proves it), or a pending self-service claim.
      if (live || token === undefined) return { furnish: false };
      const created = await this.writer.createIfAbsent({ ...want, metadata: { ...want.metadata, annotations: { ...want.metadata.annotations, [CLAIM_TOKEN_ANNOTATION]: token } } });
      if (!created) {
        observed.missing.push(objectRef(want)); // exists but not in the cache yet: the next event brings it
        return { furnish: false };
      }
      this.#event(tenant, 'Normal', 'NamespaceCreated', `created namespace ${name}`);
      observed.namespaces.push(name);
      return { uid: created.metadata.uid, furnish: true };
    }
    observed.namespaces.push(name);
    if (live.status?.phase === 'Terminating') return { uid: live.metadata.uid, furnish: false };
    if (diffNamespace(live, want).length) {
      // The cache keeps a summary (cache/summaries.ts): the update is computed from the namespace read
      // live, and only if it still differs there and is still the claimed one.
      const current = await this.writer.get<Namespace>(want);
      const drift = current && claimHolds(claim, current) ? diffNamespace(current, want) : [];
      if (current && drift.length) {
        await this.writer.update(mergeNamespace(current, want));
        this.#event(tenant, 'Normal', 'Repaired', `repaired namespace ${name}: ${drift.map((d) => d.path).join(', ')}`);
      }
    }
    return { uid: live.metadata.uid, furnish: true };
  }

  /** Retires every namespace proven this tenant's (and only those), then lets the Tenant go. */
  async #finalize(tenant: Tenant): Promise<void> {
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) return;
    // A claim without a UID (its writer died before recording it) is proven by the token, read live.
    const proof = await proveByToken(claimsOf(tenant), this.writer);
    for (const claim of proof.claims) {
      const ns = proof.live.has(claim.name) ? proof.live.get(claim.name) : this.cache.namespaces.store.get(claim.name);
      if (ns && claimHolds(claim, ns) && ns.status?.phase !== 'Terminating') await this.release.retire(tenant, ns, this.#notes(tenant));
    }
    await this.hostnames.release(tenant.metadata.name);
    // A 409 here (the tenant changed meanwhile) is retried with backoff from the newer cached tenant.
    const finalizers = (tenant.metadata.finalizers ?? []).filter((f) => f !== PADDOCK.finalizer);
    await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers } });
  }

  async #writeStatus(tenant: Tenant, desired: DesiredState, observed: ObservedState): Promise<void> {
    const unresolved = desired.valid ? unresolvedReferences(tenant, { classes: (f) => this.cache.classes(f).store.list(), nodeMatches: (s) => this.nodeMatches.matches(s) }) : undefined;
    const status = tenantStatus(tenant, desired, { ...observed, allowed: this.admission.allowed(tenant), unresolved }, new Date());
    // Another event can bring this tenant back before the cache has our last status write: any status
    // written from the copy that write was made from would only earn a 409 (that write moved the Tenant
    // on, and its event brings it back once the cache has it). Skip until the cache moves on; once it
    // has, the record has served.
    const from = this.#statusWrittenFrom.get(tenant.metadata.name);
    if (from !== undefined && from === tenant.metadata.resourceVersion) return;
    this.#statusWrittenFrom.delete(tenant.metadata.name);
    if (statusEqual(tenant.status, status)) return;
    const before = tenant.status?.conditions?.find((c) => c.type === 'Ready');
    const after = status.conditions?.find((c) => c.type === 'Ready');
    await this.writer.updateStatus({ ...tenant, status });
    if (tenant.metadata.resourceVersion !== undefined) this.#statusWrittenFrom.set(tenant.metadata.name, tenant.metadata.resourceVersion);
    if (after && after.status !== 'True' && (before?.reason !== after.reason || before?.status !== after.status)) {
      this.#event(tenant, 'Warning', after.reason ?? 'NotReady', after.message ?? '');
    }
    this.log.debug('status written', { tenant: tenant.metadata.name, phase: status.phase, reason: after?.reason });
  }
}
