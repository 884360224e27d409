/**
 * Tenant → desired namespaces and guardrails, drift detection, shipped RBAC and Tenant status: the pure
 * half of the reconciler. Nothing here performs I/O but the claim ledger (claim-ledger.ts), which writes
 * through a narrow client port; everything is unit-tested without a cluster.
 */
export { desiredState, type DesiredNamespace, type DesiredState, type InvalidDesiredState, type NamespaceOrigin, type ValidDesiredState } from './desired';
export { validateTenant, type ProblemReason, type SpecProblem } from './validate';
export { desiredGuardrails, GUARDRAILS, guardrailKind, NAMESPACE_GUARDRAILS, TENANT_GUARDRAILS } from './guardrails/registry';
export type { Guardrail, GuardrailKind, NamespaceGuardrail, TenantGuardrail } from './guardrails/kind';
export { desiredNamespace, diffNamespace, mergeNamespace, releaseNamespace } from './namespace';
export { diff, needsUpdate, requiresRecreate, type DiffOptions, type FieldDiff, type ManagedObject } from './drift';
export { mergeObject, staleObjects } from './update';
export { clusterRoleBindings, clusterRoles, TENANTNAMESPACES_USER_ROLE, type ClusterRoleBinding } from './cluster-roles';
export { objectRef, ownerSummary, READY, ReadyReason, statusEqual, tenantStatus, type ObservedState } from './status';
export { controllerRef, isForeignNamespace, labelledTenant, tenantLabels } from './ownership';
export { quantityEqual, type QuantityEqual } from './quantity-equal';
export * from './names';
