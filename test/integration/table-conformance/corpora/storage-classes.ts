import { sameBody, type TableCorpus } from '../corpus';

const GA_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';

/** StorageClass: kube's printStorageClass (pkg/printers/internalversion/printers.go). */
export const STORAGE_CLASSES: TableCorpus = {
  view: 'tenantstorageclasses',
  viewKind: 'TenantStorageClass',
  source: '/apis/storage.k8s.io/v1/storageclasses',
  branches: [
    'NAME: the GA default-class annotation "true" adds " (default)"; the beta one too; "false", "True" and none do not',
    'RECLAIMPOLICY: Delete (defaulted when unset) and Retain',
    'VOLUMEBINDINGMODE: Immediate (defaulted when unset) and WaitForFirstConsumer',
    'ALLOWVOLUMEEXPANSION: unset (false), false and true — a boolean cell',
    'PROVISIONER: a CSI name, kubernetes.io/no-provisioner; parameters, mountOptions and allowedTopologies in the body',
  ],
  objects: (id, labels) => {
    const sc = (name: string, extra: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: `${id}-${name}`, labels, ...(annotations ? { annotations } : {}) },
      provisioner: 'example.com/disk', ...extra,
    });
    return [
      sc('plain'),
      sc('retain', { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true, parameters: { type: 'ssd', iops: '3000' }, mountOptions: ['debug', 'noatime'],
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a', 'b'] }] }] }),
      sc('noexpand', { allowVolumeExpansion: false, provisioner: 'kubernetes.io/no-provisioner' }),
      sc('default', {}, { [GA_DEFAULT]: 'true', note: 'not shown by the view' }),
      sc('betadefault', {}, { [BETA_DEFAULT]: 'true' }),
      sc('notdefault', {}, { [GA_DEFAULT]: 'false', [BETA_DEFAULT]: 'True' }),
    ];
  },
  projection: sameBody,
};
