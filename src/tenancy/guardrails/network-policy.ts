/**
 * NetworkPolicies in each tenant namespace: `paddock-isolation`, unless the Tenant turns
 * `spec.networkIsolation` off, then `paddock-policy-<i>` per item of its `spec.networkPolicies`. They
 * compare with kube-apiserver's defaults applied to both sides, `policyTypes` as a set.
 */
import type { ResourceRef } from '../../kube/resources';
import { PADDOCK, type NetworkPolicy } from '../../kube/types';
import { cloneJson, diffJson, isRecord } from '../json';
import { inTenantNamespaces } from './cached';
import { guardrailMeta, manages, typeMeta, type GuardrailKind } from './kind';
import { sortedStrings } from './semantic';

const RESOURCE: ResourceRef = { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true };

export const ISOLATION_POLICY_NAME = 'paddock-isolation';

export function networkPolicyName(index: number): string {
  return `paddock-policy-${index}`;
}

/**
 * Ingress only from namespaces labelled for this tenant; egress is left alone. The label is one only
 * Paddock can set on a namespace (owners cannot write Namespace objects), so it cannot be forged.
 */
export function isolationPolicySpec(tenant: string): Record<string, unknown> {
  return {
    podSelector: {},
    policyTypes: ['Ingress'],
    ingress: [{ from: [{ namespaceSelector: { matchLabels: { [PADDOCK.tenantLabel]: tenant } } }] }],
  };
}

/**
 * The defaults kube-apiserver fills in (pkg/apis/networking/v1/defaults.go, v1.36): no `policyTypes`
 * means `[Ingress]`, plus `Egress` when there are egress rules; a port without a protocol is TCP.
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

export const networkPolicies: GuardrailKind<NetworkPolicy> = {
  resource: RESOURCE,
  informer: inTenantNamespaces,
  desired(tenant, namespace) {
    const policy = (name: string, spec: Record<string, unknown>): NetworkPolicy => ({ ...typeMeta(RESOURCE), metadata: guardrailMeta(tenant, namespace, name), spec });
    const isolation = tenant.spec.networkIsolation !== false ? [policy(ISOLATION_POLICY_NAME, isolationPolicySpec(tenant.metadata.name))] : [];
    return [...isolation, ...(tenant.spec.networkPolicies ?? []).map((spec, i) => policy(networkPolicyName(i), cloneJson(spec)))];
  },
  diff(live, desired) {
    const l = defaultNetworkPolicySpec(live.spec ?? {});
    const d = defaultNetworkPolicySpec(desired.spec ?? {});
    return diffJson('spec', { ...l, policyTypes: sortedStrings(l.policyTypes) }, { ...d, policyTypes: sortedStrings(d.policyTypes) });
  },
  // Admins write NetworkPolicies of their own (restrictions/network-policy-ingress.ts holds their
  // ingress to the tenant); Paddock's, labelled as its, no one else may change (fences/managed-objects.ts).
  ownersMayWrite: true,
  rbac: manages(RESOURCE),
};
