import type { KubeObject } from '../../kube/types';
import type { FieldSelector } from '../../selectors/field-selector';
import type { LabelSelector } from '../../selectors/label-selector';
import type { RowStorage } from './row-storage';
import type { Viewer } from './viewer';

/** The fields a `fieldSelector` may name, and their values on a row (missing read as ""). */
export interface SelectableFields<T> {
  readonly labels: readonly string[];
  of(row: T): Record<string, string>;
}

/** A request's label and field selectors (absent: everything matches). */
export interface Selectors {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
}

/** Whether `row` matches the selectors. */
export function matchesSelectors<T extends KubeObject>(fields: SelectableFields<T>, selectors: Selectors, row: T): boolean {
  const { labelSelector, fieldSelector } = selectors;
  return (!labelSelector || labelSelector.matches(row.metadata.labels)) && (!fieldSelector || fieldSelector.matches(fields.of(row)));
}

/**
 * The rows `viewer` may see that match the selectors, ordered by name: a `metadata.name` selector reads
 * one row, a field the storage indexes reads the index, anything else filters what the viewer sees.
 */
export function selectRows<T extends KubeObject>(storage: RowStorage<T>, fields: SelectableFields<T>, viewer: Viewer, selectors: Selectors): readonly T[] {
  const { labelSelector, fieldSelector } = selectors;
  const byName = fieldSelector?.requiredValue('metadata.name');
  let rows: readonly T[] | undefined;
  if (byName !== undefined) {
    const row = storage.get(byName);
    rows = row && storage.canSee(viewer, row) ? [row] : [];
  } else if (fieldSelector) {
    for (const field of fields.labels) {
      const value = fieldSelector.requiredValue(field);
      if (value !== undefined) rows ??= storage.visibleRowsWhere(viewer, field, value);
    }
  }
  rows ??= storage.visibleRows(viewer);
  if ((labelSelector && !labelSelector.isEmpty()) || (fieldSelector && !fieldSelector.isEmpty())) rows = rows.filter((r) => matchesSelectors(fields, selectors, r));
  return rows;
}
