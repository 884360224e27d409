import { sameBody, type TableCorpus } from '../corpus';

/** RuntimeClass: kube's printRuntimeClass (pkg/printers/internalversion/printers.go). */
export const RUNTIME_CLASSES: TableCorpus = {
  view: 'tenantruntimeclasses',
  viewKind: 'TenantRuntimeClass',
  source: '/apis/node.k8s.io/v1/runtimeclasses',
  branches: [
    'HANDLER: as written (the printer has no other branch)',
    'overhead and scheduling (tolerations, nodeSelector) present and absent in the body',
  ],
  objects: (id, labels) => {
    const rc = (name: string, extra: Record<string, unknown>) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: `${id}-${name}`, labels }, ...extra });
    return [
      rc('runc', { handler: 'runc' }),
      rc('gvisor', {
        handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
        scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' }] },
      }),
    ];
  },
  projection: sameBody,
};
