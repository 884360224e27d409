import { PADDOCK } from '../../kube/types';
import type { Fence } from './fence';

/**
 * `spec.preventDeletion: true`: kube-apiserver refuses to delete the Tenant (also through a
 * deletecollection, which admits each object), whoever asks, until the field is set to false. The
 * Tenant is cluster-scoped: the binding selects no namespace. Deleting the Tenant CRD itself removes
 * Tenants without admission; the CRD is the cluster admin's alone.
 */
export const preventDeletion: Fence = {
  name: 'paddock-tenant-deletion',
  rules: [{ apiGroups: [PADDOCK.tenantGroup], apiVersions: ['*'], operations: ['DELETE'], resources: ['tenants'], scope: '*' }],
  validations: [
    {
      expression: '!oldObject.spec.?preventDeletion.orValue(false)',
      messageExpression: "'tenant ' + oldObject.metadata.name + ' has spec.preventDeletion: set it to false before deleting the tenant'",
      reason: 'Forbidden',
    },
  ],
};
