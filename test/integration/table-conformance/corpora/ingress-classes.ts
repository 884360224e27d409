import { sameBody, type TableCorpus } from '../corpus';

/** IngressClass: kube's printIngressClass (pkg/printers/internalversion/printers.go). */
export const INGRESS_CLASSES: TableCorpus = {
  view: 'tenantingressclasses',
  viewKind: 'TenantIngressClass',
  source: '/apis/networking.k8s.io/v1/ingressclasses',
  branches: [
    'PARAMETERS: none (<none>); kind.apiGroup/name (cluster scope); kind/name without apiGroup (a core kind, namespaced scope)',
    'CONTROLLER: as written',
    'NAME: the default-class annotation "true" adds " (default)"; none does not',
  ],
  objects: (id, labels) => {
    const ic = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
      apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: `${id}-${name}`, labels, ...(annotations ? { annotations } : {}) }, spec,
    });
    return [
      ic('bare', { controller: 'example.com/ingress' }),
      ic('default', { controller: 'example.com/ingress' }, { 'ingressclass.kubernetes.io/is-default-class': 'true' }),
      ic('cluster', { controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb', scope: 'Cluster' } }),
      ic('core', { controller: 'example.com/ingress', parameters: { kind: 'ConfigMap', name: 'ingress-config', scope: 'Namespace', namespace: 'ingress-system' } }),
    ];
  },
  projection: sameBody,
};
