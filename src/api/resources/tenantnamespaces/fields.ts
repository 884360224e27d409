import type { TenantNamespace } from '../../../kube/types';
import { nameOf } from './row';

/** Field labels a `fieldSelector` on TenantNamespaces may use (SPEC §4). */
export const SUPPORTED_FIELD_LABELS = ['metadata.name', 'spec.tenant', 'status.phase'] as const;

export type FieldLabel = (typeof SUPPORTED_FIELD_LABELS)[number];

/** The selectable fields of a TenantNamespace, for matching a field selector. Missing values read as "". */
export function fieldsOf(tns: TenantNamespace): Record<FieldLabel, string> {
  return {
    'metadata.name': nameOf(tns),
    'spec.tenant': tns.spec.tenant,
    'status.phase': tns.status?.phase ?? '',
  };
}

/** True when a field selector may use this label. */
export function isSupportedFieldLabel(label: string): label is FieldLabel {
  return (SUPPORTED_FIELD_LABELS as readonly string[]).includes(label);
}

export { unsupportedFieldLabel } from '../../status';
