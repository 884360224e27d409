import { META_DEFINITIONS_V2 } from '../openapi/meta-schemas';

/** metav1.TableColumnDefinition */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const objectMeta = META_DEFINITIONS_V2['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'] as { properties: Record<string, { description: string }> };

function column(name: string, description: string, priority = 0, format = ''): TableColumnDefinition {
  return { name, type: 'string', format, description, priority };
}

/**
 * The columns of `kubectl get tenantnamespaces` (SPEC §4), in order. Names are written as kube's built-in
 * printers write them (`Name`, `Age`); kubectl upper-cases them in its header. Priority 1 columns show
 * with `-o wide`. NAME and AGE carry the ObjectMeta descriptions, as every built-in resource's do.
 */
export const TENANT_NAMESPACE_COLUMNS: readonly TableColumnDefinition[] = Object.freeze([
  column('Name', objectMeta.properties['name']!.description, 0, 'name'),
  column('Tenant', 'The Tenant this namespace belongs to.'),
  column('Status', 'The phase of the namespace: Active or Terminating.'),
  column('Age', objectMeta.properties['creationTimestamp']!.description),
  column('Owners', "The owners of the namespace's Tenant, as Kind:name (ServiceAccount:namespace/name).", 1),
  column('CPU', 'CPU used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Memory', 'Memory used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Pods', 'Pods used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Guardrails', 'Reason of the GuardrailsReady condition: InSync when every guardrail is as the Tenant wants it.', 1),
  column('Pod-Security', 'The Pod Security Standard enforced in the namespace (pod-security.kubernetes.io/enforce).', 1),
  column('Node-Selector', 'The node selector every pod of the namespace gets (scheduler.alpha.kubernetes.io/node-selector).', 1),
].map((c) => Object.freeze(c)));
