import type { TenantSpec } from '../../kube/types';
import type { AddProblem } from '../problems';
import type { Schema } from '../schema/schema';
import type { ResourceRule, Validation, Variable } from './cel';

/**
 * One thing a Tenant may restrict — a class kind, registries, nodes, and those to come — in one place:
 * its spec field, how that field is validated, and what it contributes to the two admission policies
 * (policies.ts) that kube-apiserver runs in every tenant namespace. The policies and the Tenant CRD are composed from the registry
 * (registry.ts): adding a restriction is adding a module and its line there.
 *
 * Invariants the composition checks (policies.test.ts): variable names are unique across modules; a
 * module's expressions read only the shared request variables (cel.ts REQUEST_VARIABLES) and variables
 * declared before them.
 */
export interface Restriction {
  /** The Tenant spec field. */
  readonly field: keyof TenantSpec & string;
  /** The field's schema in the Tenant CRD (schema/tenant-crd.ts): what kube-apiserver refuses itself. */
  readonly schema: Schema;
  /** Whether the reconciler resolves the field into names kept in `status.allowed.<field>` (class kinds). */
  readonly resolvesNames?: boolean;
  /** Problems of the field's value that the CRD schema cannot express, reported at `path` and below. */
  validate?(path: string, value: unknown, add: AddProblem): void;
  /**
   * What the validating policy checks: the requests it needs matched, its variables, its validations.
   * The validations are composed with every other module's into one (compose.ts) and reached only for
   * requests of these rules: a module's checks judge its own request kinds alone.
   */
  readonly validating?: { rules: readonly ResourceRule[]; variables: readonly Variable[]; validations: readonly Validation[] };
  /**
   * What the mutating policy fills in, for the requests it needs matched: `patches` is a CEL list of
   * JSON Patch operations as plain maps (cel.ts `patchOp`/`addPatch`, not `JSONPatch` objects), empty when
   * there is nothing to fill in (it must guard every operation itself: the modules' lists are applied as
   * one patch, and the policy runs only when that list is not empty); `when` says in CEL over `params`
   * alone whether the tenant has anything here to fill in (checked first, so it keeps the rest cheap).
   */
  readonly mutating?: { rules: readonly ResourceRule[]; when: string; patches: string };
}
