/**
 * LimitRanges `paddock-limits-<i>`: one in each tenant namespace per item of the Tenant's
 * `spec.limitRanges`. Amounts are written as strings and compare as quantities, with the defaults
 * kube-apiserver fills into a Container item applied to both sides.
 */
import type { ResourceRef } from '../../kube/resources';
import type { LimitRange, LimitRangeSpec } from '../../kube/types';
import { cloneJson, diffJson, isRecord, type FieldDiff } from '../json';
import type { QuantityEqual } from '../quantity-equal';
import { inTenantNamespaces } from './cached';
import { guardrailMeta, manages, typeMeta, type GuardrailKind } from './kind';
import { diffQuantities, quantityStrings } from './semantic';

const RESOURCE: ResourceRef = { group: '', version: 'v1', resource: 'limitranges', kind: 'LimitRange', namespaced: true };

export function limitRangeName(index: number): string {
  return `paddock-limits-${index}`;
}

function limitRangeSpec(range: LimitRangeSpec): LimitRangeSpec {
  return {
    limits: range.limits.map((item) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(item)) out[key] = isRecord(value) ? quantityStrings(value) : cloneJson(value);
      return out;
    }),
  };
}

/**
 * The defaults kube-apiserver fills in (pkg/apis/core/v1/defaults.go, v1.36): for a Container item, a
 * missing `default` is taken from `max`, and a missing `defaultRequest` from `default`, then from `min`
 * — resource by resource, in that order.
 */
export function defaultLimitRangeSpec(spec: LimitRangeSpec): LimitRangeSpec {
  return { limits: (spec.limits ?? []).map(defaultLimitRangeItem) };
}

function defaultLimitRangeItem(item: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(item) || item.type !== 'Container') return item;
  const map = (key: string): Record<string, unknown> => (isRecord(item[key]) ? (item[key] as Record<string, unknown>) : {});
  const limit = { ...map('default') };
  for (const [k, v] of Object.entries(map('max'))) if (!(k in limit)) limit[k] = v;
  const request = { ...map('defaultRequest') };
  for (const [k, v] of Object.entries(limit)) if (!(k in request)) request[k] = v;
  for (const [k, v] of Object.entries(map('min'))) if (!(k in request)) request[k] = v;
  return { ...item, default: limit, defaultRequest: request };
}

const LIMIT_MAPS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'];

function diffLimitRange(live: LimitRange, desired: LimitRange, eq: QuantityEqual): FieldDiff[] {
  const l = defaultLimitRangeSpec(live.spec ?? { limits: [] }).limits;
  const d = defaultLimitRangeSpec(desired.spec ?? { limits: [] }).limits;
  if (l.length !== d.length) return [{ path: 'spec.limits', live: live.spec?.limits, desired: desired.spec?.limits }];
  return d.flatMap((item, i) => {
    const path = `spec.limits[${i}]`;
    const have = l[i]!;
    const rest = (x: Record<string, unknown>) => Object.fromEntries(Object.entries(x).filter(([k]) => !LIMIT_MAPS.includes(k)));
    return [...diffJson(path, rest(have), rest(item)), ...LIMIT_MAPS.flatMap((k) => diffQuantities(`${path}.${k}`, have[k], item[k], eq))];
  });
}

export const limitRanges: GuardrailKind<LimitRange> = {
  resource: RESOURCE,
  informer: inTenantNamespaces,
  desired: (tenant, namespace) =>
    (tenant.spec.limitRanges ?? []).map((range, i) => ({ ...typeMeta(RESOURCE), metadata: guardrailMeta(tenant, namespace, limitRangeName(i)), spec: limitRangeSpec(range) })),
  diff: diffLimitRange,
  ownersMayWrite: false,
  rbac: manages(RESOURCE),
};
