/**
 * Tenant → desired namespaces and guardrails, drift detection, shipped RBAC and Tenant status: the pure
 * half of the reconciler. Nothing here performs I/O but the claim ledger (claim-ledger.ts), which writes
 * through a narrow client port; everything is unit-tested without a cluster. What the controller and the
 * manifests read from it:
 */
export { desiredState, type DesiredState, type ValidDesiredState } from './desired';
export { GUARDRAILS } from './guardrails/registry';
export type { Guardrail, GuardrailKind } from './guardrails/kind';
export { desiredNamespace, diffNamespace, mergeNamespace, namespaceRef, releaseNamespace } from './namespace';
export { needsUpdate, requiresRecreate } from './drift';
export { mergeObject, staleObjects } from './update';
export { clusterRoleBindings, clusterRoles } from './cluster-roles';
export { objectRef, statusEqual, tenantStatus, type ObservedState } from './status';
export * from './names';
