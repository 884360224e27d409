/**
 * The hostname ledger: which tenant holds which hostname pattern, in one object — the TenantRestriction
 * `paddock-hostnames` in Paddock's namespace, `spec.hostnameHolders` (pattern → tenant), written only by
 * Paddock and always with the resourceVersion it was read at. kube-apiserver admits one writer per
 * version, so every decision "this pattern overlaps none another tenant holds" is made on exactly the
 * ledger it is written over: two Tenants can never hold overlapping patterns, whatever the order their
 * passes run in (SPEC §10). The first to hold a pattern keeps it; a later Tenant whose patterns overlap
 * it is refused (HostnameConflict) and holds nothing new — the rule namespace names follow (claims.ts).
 *
 * The same object is the parameter of the hostnames fence (fences/hostnames.ts), which refuses every
 * tenant a host inside a pattern another tenant holds: one object, whatever the number of tenants. It is
 * a TenantRestriction because kube-apiserver lets only a user who may get every object of a policy's
 * parameter kind write the policy, and Paddock may get every TenantRestriction already (ConfigMaps it
 * may not, and should not). Its `spec.tenant` is empty: it is no tenant's. Pure.
 */
import { PADDOCK } from '../../kube/types';
import type { TenantRestriction } from '../guardrails/tenant-restriction';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { overlap } from './patterns';

export const HOSTNAME_LEDGER_NAME = 'paddock-hostnames';
export const HOSTNAME_LEDGER_NAMESPACE = PADDOCK.systemNamespace;

/** Pattern → tenant. */
export type Holdings = Readonly<Record<string, string>>;

export interface HostnameLedger extends TenantRestriction {
  spec: TenantRestriction['spec'] & { hostnameHolders?: Record<string, string> };
}

/** The patterns `tenant` holds, sorted. */
export function heldBy(holdings: Holdings, tenant: string): string[] {
  return Object.keys(holdings).filter((p) => holdings[p] === tenant).sort();
}

/** The patterns of `wanted` that overlap a pattern another tenant holds (their holders are not told). */
export function conflicting(holdings: Holdings, tenant: string, wanted: readonly string[]): string[] {
  const others = Object.keys(holdings).filter((p) => holdings[p] !== tenant);
  return wanted.filter((p) => others.some((o) => overlap(p, o))).sort();
}

/**
 * The holdings once `tenant` holds exactly `wanted` (empty: releases all it holds); undefined when they
 * would not change. The caller has checked {@link conflicting} on these same holdings.
 */
export function holding(holdings: Holdings, tenant: string, wanted: readonly string[]): Record<string, string> | undefined {
  const next: Record<string, string> = {};
  for (const [p, t] of Object.entries(holdings)) if (t !== tenant) next[p] = t;
  for (const p of wanted) next[p] = tenant;
  const same = Object.keys(next).length === Object.keys(holdings).length && Object.entries(next).every(([p, t]) => holdings[p] === t);
  return same ? undefined : next;
}

/** The ledger object holding `holders`, over `from` (its metadata, resourceVersion included). */
export function ledgerObject(holders: Record<string, string>, from?: HostnameLedger): HostnameLedger {
  return {
    apiVersion: `${RESTRICTION_KIND.group}/${RESTRICTION_KIND.version}`,
    kind: RESTRICTION_KIND.kind,
    metadata: {
      ...(from?.metadata ?? {}),
      name: HOSTNAME_LEDGER_NAME,
      namespace: HOSTNAME_LEDGER_NAMESPACE,
      labels: { ...(from?.metadata.labels ?? {}), 'app.kubernetes.io/name': 'paddock' },
    },
    spec: { tenant: '', hostnameHolders: holders },
  };
}
