import { PADDOCK } from '../../kube/types';
import { PADDOCK_USER } from '../ownership';
import type { Fence } from './fence';

/** The label Paddock sets on every namespace of a cordoned tenant (and removes when it is not). */
export const CORDON_LABEL = `${PADDOCK.tenantGroup}/cordoned`;

/**
 * Who a cordon stops: everyone but the cluster's own components and its admins — the tenant's owners,
 * whoever they shared access with, and workloads and controllers acting in the tenant's namespaces with
 * their own identities. Let through: `system:masters`, kubelets (`system:nodes`), kube-controller-manager
 * and kube-scheduler (as themselves or, with --use-service-account-credentials, as ServiceAccounts of
 * kube-system), and Paddock.
 */
const NOT_A_CLUSTER_COMPONENT = [
  "!('system:masters' in request.userInfo.groups)",
  "!('system:nodes' in request.userInfo.groups)",
  `!(request.userInfo.username in ['system:kube-controller-manager', 'system:kube-scheduler', '${PADDOCK_USER}'])`,
  "!request.userInfo.username.startsWith('system:serviceaccount:kube-system:')",
].join(' && ');

/**
 * `spec.cordoned: true`: kube-apiserver refuses every create and update in the tenant's namespaces
 * (deletes still work, and so do status updates: subresources but scale and ephemeral containers are
 * not matched — a scale is a change of the spec, whose pods the exempt controllers would then create).
 * The binding selects only the namespaces Paddock labels for a cordoned tenant, so a tenant that is
 * not cordoned costs a request one label match.
 */
export const cordon: Fence = {
  name: 'paddock-tenant-cordon',
  rules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['*', '*/scale', 'pods/ephemeralcontainers'], scope: 'Namespaced' }],
  namespaces: {
    matchExpressions: [
      { key: PADDOCK.tenantLabel, operator: 'Exists' },
      { key: CORDON_LABEL, operator: 'In', values: ['true'] },
    ],
  },
  appliesWhen: NOT_A_CLUSTER_COMPONENT,
  validations: [
    {
      expression: 'false',
      messageExpression: `'tenant ' + namespaceObject.metadata.labels['${PADDOCK.tenantLabel}'] + ' is cordoned: nothing may be created or changed in its namespaces until spec.cordoned is false'`,
      reason: 'Forbidden',
    },
  ],
};
