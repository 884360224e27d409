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

/**
 * The columns whose cell is the object's age, `translateTimestampSince(metadata.creationTimestamp, now)`:
 * the encodings cache a row's other cells and write its age as of each request (encoding/encodings.ts,
 * which still checks, per row, that the cell is the age before it caches anything).
 */
const AGE_COLUMNS = new WeakSet<TableColumnDefinition>([AGE_COLUMN]);

/** Marks `c` as a column that prints the object's age (see AGE_COLUMNS). */
export function ageColumn(c: TableColumnDefinition): TableColumnDefinition {
  AGE_COLUMNS.add(c);
  return c;
}

export const isAgeColumn = (c: TableColumnDefinition): boolean => AGE_COLUMNS.has(c);

