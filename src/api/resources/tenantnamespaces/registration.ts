import type { TenantNamespace } from '../../../kube/types';
import { TENANT_NAMESPACES } from './names';
import { DEFINITION, tenantNamespaceSchemas } from './tenant-namespace-schemas';
import type { ServedResource } from '../../registration/served-resource';
import { fieldsOf, SUPPORTED_FIELD_LABELS } from './fields';
import type { SelfService } from './self-service';
import { TENANT_NAMESPACE_TABLE } from './tenant-namespace-table';
import type { RowStorage } from '../../storage/row-storage';

/**
 * `tenantnamespaces` (SPEC §4, §5): the tenant namespaces a caller owns, joined from Namespaces, Tenants
 * and ResourceQuotas; the one writable resource (self-service create and delete). A caller that may
 * list namespaces cluster-wide sees every row.
 */
export function tenantNamespacesResource(storage: RowStorage<TenantNamespace>, selfService?: SelfService): ServedResource<TenantNamespace> {
  return {
    names: TENANT_NAMESPACES,
    storage,
    table: TENANT_NAMESPACE_TABLE,
    fields: { labels: SUPPORTED_FIELD_LABELS, of: fieldsOf },
    seesAllWith: { group: '', resource: 'namespaces' },
    definitions: { kind: DEFINITION.tenantNamespace, list: DEFINITION.tenantNamespaceList },
    schemas: tenantNamespaceSchemas,
    ...(selfService
      ? {
          create: (viewer, body, dryRun, strict) => selfService.create(viewer, body, dryRun, strict),
          delete: (viewer, name, options) => selfService.delete(viewer, name, options),
        }
      : {}),
  };
}
