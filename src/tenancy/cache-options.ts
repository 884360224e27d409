/**
 * What the shared cache is told of tenancy (the cache itself imports nothing from here): how Tenants
 * are indexed, which annotations of a namespace are Paddock's, the guardrail kinds and the admission
 * policies and bindings, the hostname ledger.
 */
import { INDEX, type PaddockCacheOptions } from '../cache/paddock-cache';
import type { KeptAnnotations } from '../cache/summaries';
import { CLAIM_TOKEN_ANNOTATION } from './claims';
import { ADMISSION_OBJECTS } from './admission-policies';
import { GUARDRAILS } from './guardrails/registry';
import { tenantRestrictions } from './guardrails/tenant-restriction';
import { HOSTNAME_LEDGER_NAME, HOSTNAME_LEDGER_NAMESPACE } from './hostnames/ledger';
import { MANAGED_METADATA_ANNOTATION, PADDOCK_KEY_PREFIX } from './names';
import { decodeManagedKeys } from './namespace';
import { ownerKeysOfTenant } from './owner-keys';

/**
 * The annotations of a namespace Paddock reads: its own (`paddock.dev/…`) and those its bookkeeping
 * annotation records as set by it. The bookkeeping is the same text on every namespace of the same
 * shape: shared. Not the claim token: it proves a claim only until the claim records the namespace's
 * UID, and in that window it is read from the namespace live (controller/claim-update.ts), so a
 * namespace from the cache never proves a claim by it and no namespace's record holds a string of its
 * own for it.
 */
export const PADDOCK_ANNOTATIONS: KeptAnnotations = {
  shared: MANAGED_METADATA_ANNOTATION,
  keep(annotations) {
    const owned = new Set(decodeManagedKeys(annotations[MANAGED_METADATA_ANNOTATION]).annotations);
    return (key) => key !== CLAIM_TOKEN_ANNOTATION && (key.startsWith(PADDOCK_KEY_PREFIX) || owned.has(key));
  },
};

export const TENANCY_CACHE: PaddockCacheOptions = {
  tenantIndexers: { [INDEX.owner]: (t) => ownerKeysOfTenant(t) },
  namespaceAnnotations: PADDOCK_ANNOTATIONS,
  guardrails: GUARDRAILS,
  admission: ADMISSION_OBJECTS,
  hostnameLedger: { resource: tenantRestrictions.resource, namespace: HOSTNAME_LEDGER_NAMESPACE, name: HOSTNAME_LEDGER_NAME },
};
