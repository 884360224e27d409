/**
 * What the CRD schema cannot say about `spec.quota`: each key is a resource name kube-apiserver accepts
 * in a ResourceQuota's `hard`, and each value a quantity of at least 0 that Paddock can split exactly.
 * Pure.
 */
import { toUnits } from './amounts';

type Add = (field: string, type: 'FieldValueInvalid' | 'FieldValueRequired', message: string) => void;

/** A qualified name, optionally prefixed (`pods`, `requests.cpu`, `count/deployments.apps`, `requests.nvidia.com/gpu`). */
const RESOURCE_NAME = /^(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export function validateTenantQuota(quota: unknown, add: Add): void {
  if (quota === undefined) return;
  if (typeof quota !== 'object' || quota === null || Array.isArray(quota)) return add('spec.quota', 'FieldValueInvalid', 'must be an object with hard');
  const hard = (quota as { hard?: unknown }).hard;
  if (hard === undefined) return add('spec.quota.hard', 'FieldValueRequired', 'must map resource names to quantities');
  if (typeof hard !== 'object' || hard === null || Array.isArray(hard)) return add('spec.quota.hard', 'FieldValueInvalid', 'must map resource names to quantities');
  for (const [resource, value] of Object.entries(hard)) {
    const field = `spec.quota.hard[${resource}]`;
    if (resource.length > 253 || !RESOURCE_NAME.test(resource)) {
      add(field, 'FieldValueInvalid', 'is not a resource name a ResourceQuota accepts (like pods, requests.cpu, count/services)');
      continue;
    }
    const units = typeof value === 'string' || typeof value === 'number' ? toUnits(resource, value, 'down') : undefined;
    if (units === undefined || units < 0n) add(field, 'FieldValueInvalid', `${JSON.stringify(value)} is not a quantity of at least 0 (like 20, 500m, 16Gi)`);
  }
}
