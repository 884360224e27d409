/**
 * What a Tenant names that the cluster does not have (SPEC §9): a class listed by name in `allowed` or
 * named as `default`, and a nodeSelector no node matches. Such a tenant is provisioned all the same
 * (the names may come later), but its pods would be refused or stay Pending with a message about
 * something else, so its status names each one (the ResolvedRefs condition, status.ts). Pure.
 */
import type { ClassField, KubeObject, Tenant } from '../kube/types';
import { RESOURCES } from '../kube/resources';
import { CLASS_FIELDS } from './allowed';

/** The cluster's objects a Tenant may name: the classes of each kind, and whether any node has some labels. */
export interface ReferencedObjects {
  classes(field: ClassField): readonly KubeObject[];
  /** Whether some node carries every label of `selector` (non-empty). */
  nodeMatches(selector: Readonly<Record<string, string>>): boolean;
}

/**
 * One line per missing reference, in spec field order (`PriorityClass tenant-low (priorityClasses.allowed, priorityClasses.default)`,
 * `no Node has the labels of nodeSelector pool=oil`); empty when everything named exists.
 */
export function unresolvedReferences(tenant: Tenant, cluster: ReferencedObjects): string[] {
  const out: string[] = [];
  for (const field of CLASS_FIELDS) {
    const policy = tenant.spec?.[field];
    if (!policy) continue;
    const existing = new Set(cluster.classes(field).map((c) => c.metadata.name));
    const kind = RESOURCES[field].kind;
    const allowed = policy.allowed ?? [];
    for (const name of new Set([...allowed, ...(policy.default ? [policy.default] : [])])) {
      if (existing.has(name)) continue;
      const roles = [...(allowed.includes(name) ? ['allowed'] : []), ...(policy.default === name ? ['default'] : [])];
      out.push(`${kind} ${name} (${roles.map((r) => `${field}.${r}`).join(', ')})`);
    }
  }
  const selector = tenant.spec?.nodeSelector;
  if (selector && Object.keys(selector).length > 0 && !cluster.nodeMatches(selector)) {
    out.push(`no Node has the labels of nodeSelector ${Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',')}`);
  }
  return out;
}
