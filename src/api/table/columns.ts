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

/** A column as kube's printers define one; type defaults to string. */
export function column(name: string, description: string, priority = 0, format = '', type = 'string'): TableColumnDefinition {
  return Object.freeze({ name, type, format, description, priority });
}

/** NAME (format name) and AGE carry the ObjectMeta descriptions, as every built-in resource's do. */
export const NAME_COLUMN = column('Name', objectMeta.properties['name']!.description, 0, 'name');
export const AGE_COLUMN = column('Age', objectMeta.properties['creationTimestamp']!.description);

