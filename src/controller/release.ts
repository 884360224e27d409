import type { PaddockCache } from '../cache/paddock-cache';
import type { KubeObject, Namespace, NamespaceClaim, Tenant } from '../kube/types';
import { GUARDRAILS, namespaceRef, releaseNamespace, type ValidDesiredState } from '../tenancy';
import { claimHolds, claimOf, isPendingClaim } from '../tenancy/claims';
import type { GuardrailSync, Notes } from './guardrail-sync';
import type { Writer } from './writer';

/** The tenant's deletionPolicy is Delete: the namespaces it lets go are deleted, not released. */
const deletesNamespaces = (tenant: Tenant): boolean => (tenant.spec.deletionPolicy ?? 'Retain') === 'Delete';

/** The kinds whose objects give access to a namespace (RoleBindings). */
const ACCESS_KINDS = GUARDRAILS.filter((k) => k.grantsAccess).map((k) => k.resource.kind);

/**
 * Lets namespaces go that a tenant no longer has, by its deletionPolicy: Retain keeps the namespace
 * and its workloads and takes back all the tenancy gave; Delete deletes the namespace.
 */
export class NamespaceRelease {
  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
    readonly guardrails: GuardrailSync,
  ) {}

  /**
   * Applies the deletion policy to claimed namespaces that are no longer wanted (a name removed from
   * spec.namespaces) and drops their claims. Namespaces over a lowered namespaceQuota stay claimed and
   * furnished: lowering a quota never deletes a namespace.
   *
   * A namespace deleted here keeps its claim until the cache has seen it Terminating (the pass its
   * update queues drops it): its row then goes Terminating before it goes, on every replica, rather than
   * vanishing while Active wherever the Tenant's status arrives before the namespace's update.
   */
  async releaseUnwanted(tenant: Tenant, desired: ValidDesiredState, claims: NamespaceClaim[], notes: Notes): Promise<NamespaceClaim[]> {
    const wanted = new Set(desired.namespaces.map((n) => n.name));
    let kept = claims;
    for (const claim of claims) {
      if (wanted.has(claim.name)) continue;
      // Proven by its token in this pass, its UID not written yet: retired by the next pass, which the
      // status write recording the UID brings. Retiring strips the token, so a pass that failed after
      // that would leave a claim nothing proves any more, and a namespace half released.
      if (claim.uid && claimOf(tenant, claim.name)?.uid !== claim.uid) continue;
      const ns = this.cache.namespaces.store.get(claim.name);
      if (ns && claimHolds(claim, ns) && ns.status?.phase !== 'Terminating') {
        await this.retire(tenant, ns, notes);
        if (deletesNamespaces(tenant)) continue;
      }
      if (!isPendingClaim(claim, new Date())) kept = kept.filter((c) => c !== claim);
    }
    return kept;
  }

  /**
   * Retain: revoke access, strip guardrails and tenant labels, keep the namespace and its workloads.
   * Delete: delete the namespace (kube-apiserver refuses every create in it from then on).
   *
   * Invariant: no one keeps access that the tenancy gave. Every RoleBinding in the namespace was made
   * while it was the tenant's — by Paddock, by an owner (who may have bound herself, or a Role of her
   * own), or by the cluster admin — so all of them go, and they go first: the guardrails and the tenant
   * label that selects the admission bindings are removed only once a live list shows none left. The
   * TenantRestriction goes last, once the label is gone: a tenant-labelled namespace without one refuses
   * every create the policies match.
   */
  async retire(tenant: Tenant, ns: Namespace, notes: Notes): Promise<void> {
    const name = ns.metadata.name;
    if (deletesNamespaces(tenant)) {
      await this.writer.delete(ns);
      notes.add('Normal', 'NamespaceDeleted', `deleted namespace ${name} (deletionPolicy Delete)`);
      return;
    }
    const revoked = await this.#revokeAccess(name);
    // One made meanwhile (a request authorized before the sweep): the pass fails and is retried.
    for (const kind of ACCESS_KINDS) {
      if ((await this.writer.list(kind, name)).length > 0) throw new Error(`namespace ${name}: ${kind}s appeared while access was being revoked`);
    }
    if (revoked > 0) notes.add('Normal', 'AccessRevoked', `deleted ${revoked} ${ACCESS_KINDS.join('/')}(s) in namespace ${name} before releasing it`);
    await this.guardrails.remove(tenant.metadata.name, name, (k) => !k.grantsAccess && !k.outlivesTenantLabel);
    // From the namespace read live: the cached one is a summary (cache/summaries.ts).
    const current = await this.writer.get<Namespace>(namespaceRef(name));
    if (!current || current.metadata.uid !== ns.metadata.uid) return;
    await this.writer.update({ ...releaseNamespace(current), kind: 'Namespace', apiVersion: 'v1' });
    // A binding whose create was authorized before the first sweep and stored after it goes too.
    await this.#revokeAccess(name);
    await this.guardrails.remove(tenant.metadata.name, name, (k) => k.outlivesTenantLabel === true);
    notes.add('Normal', 'NamespaceReleased', `released namespace ${name} (deletionPolicy Retain)`);
  }

  /** Deletes every object of the kinds that give access in `namespace`, read live (the cache holds only Paddock's); returns how many. */
  async #revokeAccess(namespace: string): Promise<number> {
    let revoked = 0;
    for (const kind of ACCESS_KINDS) {
      const objects = await this.writer.list<KubeObject>(kind, namespace);
      for (const obj of objects) await this.writer.delete(obj);
      revoked += objects.length;
    }
    return revoked;
  }
}
