/**
 * The defaults kube-apiserver fills into the objects Paddock writes (k8s.io/kubernetes
 * pkg/apis/{networking,rbac,core}/v1/defaults.go, v1.36). Drift detection applies them to both the
 * live and the desired object, so that a field the server filled in never reads as a change and a
 * converged cluster needs no writes.
 */
import type { LimitRangeSpec, RoleBinding, Subject } from '../kube/types';
import { isRecord } from './json';
import { RBAC_GROUP } from './names';

/**
 * NetworkPolicy: no `policyTypes` means `[Ingress]`, plus `Egress` when there are egress rules; a port
 * without a protocol is TCP.
 */
export function defaultNetworkPolicySpec(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...spec };
  const egress = Array.isArray(spec.egress) ? spec.egress : [];
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    out.policyTypes = egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const direction of ['ingress', 'egress']) {
    const rules = spec[direction];
    if (Array.isArray(rules)) out[direction] = rules.map(defaultRulePorts);
  }
  return out;
}

function defaultRulePorts(rule: unknown): unknown {
  if (!isRecord(rule) || !Array.isArray(rule.ports)) return rule;
  return { ...rule, ports: rule.ports.map((port: unknown) => (isRecord(port) && port.protocol === undefined ? { ...port, protocol: 'TCP' } : port)) };
}

/**
 * LimitRange: for a Container item, a missing `default` is taken from `max`, and a missing
 * `defaultRequest` from `default`, then from `min` — resource by resource, in that order.
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

/** RBAC subject: User and Group are in rbac.authorization.k8s.io, a ServiceAccount in the core group. */
export function defaultSubject(subject: Subject): Subject {
  const out: Subject = { kind: subject.kind, name: subject.name };
  const apiGroup = subject.apiGroup || (subject.kind === 'ServiceAccount' ? '' : RBAC_GROUP);
  if (apiGroup) out.apiGroup = apiGroup;
  if (subject.namespace) out.namespace = subject.namespace;
  return out;
}

/** RBAC roleRef: the group defaults to rbac.authorization.k8s.io. */
export function defaultRoleRef(roleRef: RoleBinding['roleRef'] | undefined): RoleBinding['roleRef'] | undefined {
  if (!roleRef) return roleRef;
  return { ...roleRef, apiGroup: roleRef.apiGroup || RBAC_GROUP };
}
