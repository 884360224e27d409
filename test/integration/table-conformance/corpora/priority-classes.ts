import { sameBody, type TableCorpus } from '../corpus';

/** PriorityClass: kube's printPriorityClass (pkg/printers/internalversion/printers.go). */
export const PRIORITY_CLASSES: TableCorpus = {
  view: 'tenantpriorityclasses',
  viewKind: 'TenantPriorityClass',
  source: '/apis/scheduling.k8s.io/v1/priorityclasses',
  branches: [
    'VALUE: zero, negative, the largest a user may set (an integer cell)',
    'GLOBAL-DEFAULT: unset (false) and false (a boolean cell); true is left out: one per cluster, and other suites run beside this one',
    'PREEMPTIONPOLICY: PreemptLowerPriority (defaulted when unset) and Never',
  ],
  objects: (id, labels) => {
    const pc = (name: string, extra: Record<string, unknown>) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: `${id}-${name}`, labels }, ...extra });
    return [
      pc('zero', { value: 0 }),
      pc('negative', { value: -5, globalDefault: false, description: 'below everything' }),
      pc('highest', { value: 1_000_000_000, preemptionPolicy: 'Never', description: 'batch that waits' }),
    ];
  },
  projection: sameBody,
};
