/**
 * Tenants for the tests, unit and integration alike. Not used by the program.
 */
import type { ObjectMeta, Tenant, TenantSpec, TenantStatus } from '../kube/types';
import { TENANT_API_VERSION } from '../tenancy/names';

/** The owner a fixture Tenant has unless its spec names others. */
const ALICE = { kind: 'User', name: 'alice' } as const;

/**
 * A Tenant named `name` whose spec is `spec` over one owner, User alice (`owners` in `spec` replaces
 * her), with `status` when given. `metadata` adds to the name: a uid, a generation, labels... as the
 * object read back from kube-apiserver would have them. Without it the Tenant is a manifest to apply.
 */
export function tenant(name: string, spec: Partial<TenantSpec> = {}, status?: TenantStatus, metadata: Partial<ObjectMeta> = {}): Tenant {
  return {
    apiVersion: TENANT_API_VERSION,
    kind: 'Tenant',
    metadata: { name, ...metadata },
    spec: { owners: [{ ...ALICE }], ...spec },
    ...(status ? { status } : {}),
  };
}
