import { sameBody, type TableCorpus } from '../corpus';

/**
 * GatewayClass: a custom resource (Gateway API's standard channel), printed from its CRD's
 * additionalPrinterColumns by kube-apiserver's CRD table convertor.
 */
export const GATEWAY_CLASSES: TableCorpus = {
  view: 'tenantgatewayclasses',
  viewKind: 'TenantGatewayClass',
  source: '/apis/gateway.networking.k8s.io/v1/gatewayclasses',
  branches: [
    'ACCEPTED: the CRD\'s defaulted status (Unknown), True and False written by a controller, and no Accepted condition at all (a null cell)',
    'DESCRIPTION (wide): present, and absent (a null cell)',
    'parametersRef present and absent in the body',
  ],
  objects: (id, labels) => {
    const gc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: `${id}-${name}`, labels }, spec });
    return [
      gc('pending', { controllerName: 'example.com/gateway-controller' }),
      gc('accepted', { controllerName: 'example.com/gateway-controller', description: 'Internal load balancers' }),
      gc('refused', { controllerName: 'example.com/other', parametersRef: { group: '', kind: 'ConfigMap', name: 'gateway-config', namespace: 'default' } }),
      gc('other-condition', { controllerName: 'example.com/gateway-controller', description: 'A class whose controller reports only another condition' }),
    ];
  },
  statuses: (id) => {
    const cond = (type: string, status: string, reason: string) => ({ type, status, reason, message: `${type} ${status}`, lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 });
    return {
      [`${id}-accepted`]: { conditions: [cond('Accepted', 'True', 'Accepted')] },
      [`${id}-refused`]: { conditions: [cond('Accepted', 'False', 'InvalidParameters')] },
      [`${id}-other-condition`]: { conditions: [cond('SupportedVersion', 'True', 'SupportedVersion')] },
    };
  },
  projection: sameBody,
};
