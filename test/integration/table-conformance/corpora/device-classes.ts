import { sameBody, type TableCorpus } from '../corpus';

/** DeviceClass: kube's printDeviceClass (pkg/printers/internalversion/printers.go) prints NAME and AGE only. */
export const DEVICE_CLASSES: TableCorpus = {
  view: 'tenantdeviceclasses',
  viewKind: 'TenantDeviceClass',
  source: '/apis/resource.k8s.io/v1/deviceclasses',
  branches: [
    'NAME and AGE (the printer has no other branch)',
    'selectors and config present, and an empty spec, in the body',
  ],
  objects: (id, labels) => {
    const dc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: `${id}-${name}`, labels }, spec });
    return [
      dc('empty', {}),
      dc('gpu', {
        selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }],
        config: [{ opaque: { driver: 'gpu.example.com', parameters: { sharing: 'time-sliced' } } }],
      }),
    ];
  },
  projection: sameBody,
};
