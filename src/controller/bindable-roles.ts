import type { KubeClient } from '../kube/client';
import type { Logger } from '../log/logger';
import type { BindableClusterRoles } from '../tenancy/bindable';
import { BINDABLE_CLUSTER_ROLES_RBAC } from '../tenancy/bindable';
import { RBAC_GROUP } from '../tenancy/names';

/** authorization.k8s.io/v1 SelfSubjectAccessReview, as far as it is sent and read. */
interface SelfSubjectAccessReview {
  status?: { allowed?: boolean };
}

/**
 * The cluster roles spec.additionalRoleBindings may name in this installation: those listed by
 * --bindable-cluster-roles, less any that kube-apiserver would not let Paddock bind. Paddock asks
 * kube-apiserver (a SelfSubjectAccessReview: `bind` on `clusterroles/<name>`) at the start of each
 * leadership term, and again on each resync while some listed role was refused, so that fixing the
 * ClusterRole takes effect without a restart. While the flag and the ClusterRole agree, a resync asks
 * nothing: a converged cluster costs no request that writes. An installation whose flag and ClusterRole
 * disagree gets a refusal that says so, and a log line, instead of a 403 on every pass of each Tenant
 * that names the role. Until the first answer, or when kube-apiserver cannot be asked, Paddock keeps
 * what it knew (at first, every listed role). kube-apiserver still checks each binding when it is written.
 */
export class BindableRoles {
  #current: BindableClusterRoles;

  constructor(
    readonly client: Pick<KubeClient, 'request'>,
    listed: readonly string[],
    readonly log: Logger,
  ) {
    this.#current = { listed: [...listed] };
  }

  current(): BindableClusterRoles {
    return this.#current;
  }

  /** Asks again if some listed role was refused at the last answer (see {@link refresh}); false otherwise. */
  recheck(): Promise<boolean> {
    return this.#current.denied?.size ? this.refresh() : Promise.resolve(false);
  }

  /** Asks kube-apiserver again; true when the answer differs from the last one. */
  async refresh(): Promise<boolean> {
    const { listed } = this.#current;
    let denied: Set<string>;
    try {
      const answers = await Promise.all(listed.map(async (name) => [name, await this.#mayBind(name)] as const));
      denied = new Set(answers.filter(([, allowed]) => !allowed).map(([name]) => name));
    } catch (err) {
      this.log.warn('could not ask kube-apiserver which cluster roles Paddock may bind; keeping the last answer', { err });
      return false;
    }
    const before = this.#current.denied ?? new Set<string>();
    if (denied.size === before.size && [...denied].every((name) => before.has(name))) return false;
    this.#current = { listed, denied };
    if (denied.size > 0) {
      this.log.error('--bindable-cluster-roles lists cluster roles that Paddock\'s RBAC does not let it bind: additionalRoleBindings naming them are refused', {
        roles: [...denied], clusterRole: BINDABLE_CLUSTER_ROLES_RBAC,
      });
    } else {
      this.log.info('Paddock\'s RBAC lets it bind every cluster role of --bindable-cluster-roles', { roles: listed });
    }
    return true;
  }

  async #mayBind(name: string): Promise<boolean> {
    const review = await this.client.request<SelfSubjectAccessReview>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { group: RBAC_GROUP, resource: 'clusterroles', verb: 'bind', name } },
      },
    });
    return review.status?.allowed === true;
  }
}
