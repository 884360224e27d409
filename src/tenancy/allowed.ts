/**
 * What a tenant may use (SPEC §9), resolved from its spec and the cluster's objects. Pure: the
 * reconciler writes the result into `status.allowed`, the views filter by it, and both read it from here.
 */
import type { ClassField, ClassPolicy, KubeObject, Tenant } from '../kube/types';
import { labelSelectorFromMetav1, type LabelSelector } from '../selectors/label-selector';

export const CLASS_FIELDS: readonly ClassField[] = ['storageClasses', 'ingressClasses', 'priorityClasses', 'runtimeClasses', 'volumeAttributesClasses', 'deviceClasses', 'gatewayClasses'];

/** A class policy compiled once: names, and a selector (undefined: none, or invalid and so matching nothing). */
export interface ClassRule {
  names: ReadonlySet<string>;
  selector?: LabelSelector;
}

const compiled = new WeakMap<ClassPolicy, ClassRule>();

/** The rule of `policy`; undefined when the tenant does not restrict this kind (it may use every class). */
export function classRule(policy: ClassPolicy | undefined): ClassRule | undefined {
  if (!policy) return undefined;
  let rule = compiled.get(policy);
  if (!rule) {
    let selector: LabelSelector | undefined;
    try {
      selector = policy.selector ? labelSelectorFromMetav1(policy.selector) : undefined;
    } catch {
      selector = undefined; // an invalid selector allows nothing more than the names (validation reports it)
    }
    rule = { names: new Set(policy.allowed ?? []), selector };
    compiled.set(policy, rule);
  }
  return rule;
}

/** Whether `tenant` may use class `obj` of kind `field` (listed, or labels matching; unrestricted: yes). */
export function mayUseClass(tenant: Tenant, field: ClassField, obj: KubeObject): boolean {
  const rule = classRule(tenant.spec?.[field]);
  if (!rule) return true;
  return rule.names.has(obj.metadata.name) || (rule.selector?.matches(obj.metadata.labels ?? {}) ?? false);
}

/** The names of the classes in `classes` that `tenant` may use, sorted. */
export function allowedClassNames(tenant: Tenant, field: ClassField, classes: readonly KubeObject[]): string[] {
  return classes.filter((c) => mayUseClass(tenant, field, c)).map((c) => c.metadata.name).sort();
}

/**
 * Whether `tenant` may use node `node`: it has a nodeSelector and the node carries every label of it.
 * A tenant without a nodeSelector sees no node (the cluster admin has not said which are its).
 */
export function mayUseNode(tenant: Tenant, node: KubeObject): boolean {
  const selector = tenant.spec?.nodeSelector;
  if (!selector || Object.keys(selector).length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}
