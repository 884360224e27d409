import type { KubeClient } from '../kube/client';
import { isAlreadyExists, isNotFound } from '../kube/errors';
import { RESOURCES, resourcePath, type ResourceRef } from '../kube/resources';
import type { KubeObject } from '../kube/types';

/** The kinds the reconciler writes, by `kind`. */
export const REF_BY_KIND: Readonly<Record<string, ResourceRef>> = {
  Namespace: RESOURCES.namespaces,
  ResourceQuota: RESOURCES.resourceQuotas,
  LimitRange: RESOURCES.limitRanges,
  NetworkPolicy: RESOURCES.networkPolicies,
  RoleBinding: RESOURCES.roleBindings,
  ClusterRole: RESOURCES.clusterRoles,
  ClusterRoleBinding: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
  Tenant: RESOURCES.tenants,
  ValidatingAdmissionPolicy: RESOURCES.validatingAdmissionPolicies,
  ValidatingAdmissionPolicyBinding: RESOURCES.validatingAdmissionPolicyBindings,
  MutatingAdmissionPolicy: RESOURCES.mutatingAdmissionPolicies,
  MutatingAdmissionPolicyBinding: RESOURCES.mutatingAdmissionPolicyBindings,
};

function refOf(obj: KubeObject): ResourceRef {
  const ref = obj.kind ? REF_BY_KIND[obj.kind] : undefined;
  if (!ref) throw new Error(`no resource known for kind ${obj.kind}`);
  return ref;
}

const pathOf = (obj: KubeObject, subresource?: string) =>
  resourcePath(refOf(obj), { namespace: obj.metadata.namespace, name: obj.metadata.name, subresource });

/**
 * The reconciler's writes, each one request. Updates carry the resourceVersion of the object they were
 * computed from, so a concurrent change makes them fail with 409 Conflict (retried with backoff) instead
 * of overwriting it. Every write is counted in `writes` (tests and the bench read it).
 */
export class Writer {
  writes = 0;

  constructor(readonly client: KubeClient) {}

  async create<T extends KubeObject>(obj: T): Promise<T> {
    this.writes++;
    return this.client.create<T>(resourcePath(refOf(obj), { namespace: obj.metadata.namespace }), obj);
  }

  async update<T extends KubeObject>(obj: T): Promise<T> {
    this.writes++;
    return this.client.update<T>(pathOf(obj), obj);
  }

  async updateStatus<T extends KubeObject>(obj: T): Promise<T> {
    this.writes++;
    return this.client.update<T>(pathOf(obj, 'status'), obj);
  }

  /** Deletes `obj` if it is still the object with its uid (a precondition); absent is fine. */
  async delete(obj: KubeObject, propagationPolicy: 'Background' | 'Foreground' = 'Background'): Promise<void> {
    this.writes++;
    try {
      await this.client.delete(pathOf(obj), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy, ...(obj.metadata.uid ? { preconditions: { uid: obj.metadata.uid } } : {}) },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Reads one object live (used only after a write found the cache behind). */
  async get<T extends KubeObject>(like: KubeObject): Promise<T | undefined> {
    try {
      return await this.client.get<T>(pathOf(like));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Creates `obj`; when it already exists, returns undefined and the caller decides what that means. */
  async createIfAbsent<T extends KubeObject>(obj: T): Promise<T | undefined> {
    try {
      return await this.create(obj);
    } catch (err) {
      if (isAlreadyExists(err)) return undefined;
      throw err;
    }
  }
}
