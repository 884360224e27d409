/**
 * How Paddock marks what it manages: two labels on every namespace and object, and a controller
 * ownerReference to the Tenant on every object inside a namespace (never on the Namespace itself, so
 * that deleting and re-creating the CRD can never cascade into deleting namespaces — SPEC §3).
 */
import { PADDOCK, type KubeObject, type Labels, type OwnerReference, type Tenant } from '../kube/types';
import { TENANT_API_VERSION } from './names';

/**
 * The user Paddock acts as (its ServiceAccount): the one writer of what it manages. The admission
 * policies let it through where they stop owners (fences/, restrictions/network-policy-ingress.ts).
 */
export const PADDOCK_USER = `system:serviceaccount:${PADDOCK.systemNamespace}:paddock`;

/** `paddock.dev/tenant: <tenant>` and `app.kubernetes.io/managed-by: paddock`. */
export function tenantLabels(tenant: string): Labels {
  return { [PADDOCK.tenantLabel]: tenant, [PADDOCK.managedByLabel]: PADDOCK.managedByValue };
}

/** The ownerReference that lets the garbage collector remove a guardrail with its Tenant. */
export function controllerRef(tenant: Tenant): OwnerReference {
  return {
    apiVersion: TENANT_API_VERSION,
    kind: 'Tenant',
    name: tenant.metadata.name,
    uid: tenant.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The tenant an object (or namespace) is labelled for, if any. */
export function labelledTenant(obj: KubeObject): string | undefined {
  return obj.metadata.labels?.[PADDOCK.tenantLabel];
}

/** True when `ref` is the controller reference `desired` (same Tenant, same uid, same flags). */
export function sameControllerRef(ref: OwnerReference, desired: OwnerReference): boolean {
  return (
    ref.apiVersion === desired.apiVersion &&
    ref.kind === desired.kind &&
    ref.name === desired.name &&
    ref.uid === desired.uid &&
    ref.controller === true &&
    ref.blockOwnerDeletion === desired.blockOwnerDeletion
  );
}
