/**
 * The class views of SPEC §9 and §10 — storage, ingress, priority, runtime, gateway and device classes a caller's tenants may use
 * (the union over its tenants; unrestricted tenants may use every class) — each with the columns
 * kube-apiserver prints for the built-in kind: its printer in k8s.io/kubernetes
 * pkg/printers/internalversion/printers.go (printStorageClass, printIngressClass, printPriorityClass,
 * printRuntimeClass) at the pinned Kubernetes version, the column descriptions its SwaggerDoc strings.
 * The Table conformance suite (test/integration/table-conformance.test.ts) compares every cell.
 */
import type { ClassField, KubeObject, Tenant } from '../../kube/types';
import { mayUseClass } from '../../tenancy/allowed';
import { AGE_COLUMN, column, crdTable, NAME_COLUMN, NONE, translateTimestampSince, type CrdPrinterColumn } from '../table';
import type { ViewDefinition } from './projected/define';

type Obj = KubeObject & Record<string, any>;

const classView = (field: ClassField) => ({
  mayUse: (t: Tenant, o: KubeObject) => mayUseClass(t, field, o),
  relevant: (t: Tenant) => t.spec?.[field] ?? null,
});

/** `<name> (default)` when one of `annotations` is "true" (storageutil.IsDefaultAnnotation, networkingutil.HasDefaultAnnotation). */
const nameCell = (o: Obj, annotations: readonly string[]) =>
  (annotations.some((a) => o.metadata.annotations?.[a] === 'true') ? `${o.metadata.name} (default)` : o.metadata.name);

export const STORAGE_CLASSES: ViewDefinition = {
  kind: 'TenantStorageClass',
  resource: 'tenantstorageclasses',
  shortName: 'tsc',
  source: { group: 'storage.k8s.io', resource: 'storageclasses', kind: 'StorageClass', apiVersion: 'storage.k8s.io/v1' },
  informer: (c) => c.storageClasses,
  ...classView('storageClasses'),
  description: 'TenantStorageClass is a StorageClass (storage.k8s.io/v1) that a tenant of the caller may use.',
  fields: {
    provisioner: ['string', 'Provisioner indicates the type of the provisioner.'],
    parameters: ['object', 'Parameters holds the parameters for the provisioner that should create volumes of this storage class.'],
    reclaimPolicy: ['string', 'ReclaimPolicy of dynamically provisioned PersistentVolumes: Delete or Retain.'],
    volumeBindingMode: ['string', 'VolumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound: Immediate or WaitForFirstConsumer.'],
    allowVolumeExpansion: ['boolean', 'AllowVolumeExpansion shows whether the storage class allows volume expand.'],
    mountOptions: ['array', 'MountOptions of dynamically provisioned PersistentVolumes.'],
    allowedTopologies: ['array', 'AllowedTopologies restrict the node topologies where volumes can be dynamically provisioned.'],
  },
  table: {
    columns: [
      NAME_COLUMN,
      column('Provisioner', 'provisioner indicates the type of the provisioner.'),
      column('ReclaimPolicy', 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.'),
      column('VolumeBindingMode', 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.'),
      column('AllowVolumeExpansion', 'allowVolumeExpansion shows whether the storage class allow volume expand.'),
      AGE_COLUMN,
    ],
    cells: (row, now) => {
      const o = row as Obj;
      const name = nameCell(o, ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class']);
      // ALLOWVOLUMEEXPANSION is a boolean cell under a column typed string, as kube's printer has it.
      return [name, o.provisioner ?? '', o.reclaimPolicy ?? 'Delete', o.volumeBindingMode ?? 'Immediate', o.allowVolumeExpansion ?? false, translateTimestampSince(o.metadata.creationTimestamp, now)];
    },
  },
};

export const INGRESS_CLASSES: ViewDefinition = {
  kind: 'TenantIngressClass',
  resource: 'tenantingressclasses',
  shortName: 'tic',
  source: { group: 'networking.k8s.io', resource: 'ingressclasses', kind: 'IngressClass', apiVersion: 'networking.k8s.io/v1' },
  informer: (c) => c.ingressClasses,
  ...classView('ingressClasses'),
  description: 'TenantIngressClass is an IngressClass (networking.k8s.io/v1) that a tenant of the caller may use.',
  fields: { spec: ['object', 'Spec is the IngressClass spec: the controller and its parameters.'] },
  table: {
    columns: [
      NAME_COLUMN,
      column('Controller', 'Controller that is responsible for handling this class'),
      column('Parameters', 'A reference to a resource with additional parameters'),
      AGE_COLUMN,
    ],
    cells: (row, now) => {
      const o = row as Obj;
      const p = o.spec?.parameters;
      // An apiGroup that is there, even empty, is printed after a dot.
      const parameters = p ? `${p.kind ?? ''}${typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : ''}/${p.name ?? ''}` : NONE;
      return [nameCell(o, ['ingressclass.kubernetes.io/is-default-class']), o.spec?.controller ?? '', parameters, translateTimestampSince(o.metadata.creationTimestamp, now)];
    },
  },
};

export const PRIORITY_CLASSES: ViewDefinition = {
  kind: 'TenantPriorityClass',
  resource: 'tenantpriorityclasses',
  shortName: 'tpc',
  source: { group: 'scheduling.k8s.io', resource: 'priorityclasses', kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1' },
  informer: (c) => c.priorityClasses,
  ...classView('priorityClasses'),
  description: 'TenantPriorityClass is a PriorityClass (scheduling.k8s.io/v1) that a tenant of the caller may use.',
  fields: {
    value: ['integer', 'value represents the integer value of this priority class.'],
    globalDefault: ['boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.'],
    description: ['string', 'description is an arbitrary string that usually provides guidelines on when this priority class should be used.'],
    preemptionPolicy: ['string', 'preemptionPolicy is the Policy for preempting pods with lower priority: Never or PreemptLowerPriority.'],
  },
  table: {
    columns: [
      NAME_COLUMN,
      column('Value', 'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.', 0, '', 'integer'),
      column('Global-Default', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.', 0, '', 'boolean'),
      AGE_COLUMN,
      column('PreemptionPolicy', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
    ],
    cells: (row, now) => {
      const o = row as Obj;
      return [o.metadata.name, o.value ?? 0, o.globalDefault ?? false, translateTimestampSince(o.metadata.creationTimestamp, now), o.preemptionPolicy ?? ''];
    },
  },
};

export const RUNTIME_CLASSES: ViewDefinition = {
  kind: 'TenantRuntimeClass',
  resource: 'tenantruntimeclasses',
  shortName: 'trc',
  source: { group: 'node.k8s.io', resource: 'runtimeclasses', kind: 'RuntimeClass', apiVersion: 'node.k8s.io/v1' },
  informer: (c) => c.runtimeClasses,
  ...classView('runtimeClasses'),
  description: 'TenantRuntimeClass is a RuntimeClass (node.k8s.io/v1) that a tenant of the caller may use.',
  fields: {
    handler: ['string', 'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.'],
    overhead: ['object', 'overhead represents the resource overhead associated with running a pod for a given RuntimeClass.'],
    scheduling: ['object', 'scheduling holds the scheduling constraints to ensure that pods running with this RuntimeClass are scheduled to nodes that support it.'],
  },
  table: {
    // Handler's description is ObjectMeta's SwaggerDoc()["handler"] in kube's printer: a key ObjectMeta has
    // not, hence empty.
    columns: [NAME_COLUMN, column('Handler', ''), AGE_COLUMN],
    cells: (row, now) => {
      const o = row as Obj;
      return [o.metadata.name, o.handler ?? '', translateTimestampSince(o.metadata.creationTimestamp, now)];
    },
  },
};

/** A column of a CRD's additionalPrinterColumns as kube-apiserver's table convertor defines it. */
/**
 * GatewayClass's additionalPrinterColumns in Gateway API's CRD (standard channel, v1.6.3), which the
 * view prints as kube-apiserver prints a custom resource (crdTable).
 */
const GATEWAY_CLASS_COLUMNS: readonly CrdPrinterColumn[] = [
  { name: 'Controller', type: 'string', jsonPath: '.spec.controllerName' },
  { name: 'Accepted', type: 'string', jsonPath: '.status.conditions[?(@.type=="Accepted")].status' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'Description', type: 'string', jsonPath: '.spec.description', priority: 1 },
];

/** GatewayClass is a CRD (Gateway API): `kubectl get tgc` prints what `kubectl get gatewayclasses` prints. */
export const GATEWAY_CLASSES: ViewDefinition = {
  kind: 'TenantGatewayClass',
  resource: 'tenantgatewayclasses',
  shortName: 'tgc',
  source: { group: 'gateway.networking.k8s.io', resource: 'gatewayclasses', kind: 'GatewayClass', apiVersion: 'gateway.networking.k8s.io/v1' },
  informer: (c) => c.gatewayClasses,
  ...classView('gatewayClasses'),
  description: 'TenantGatewayClass is a GatewayClass (gateway.networking.k8s.io/v1) that a tenant of the caller may use.',
  fields: {
    spec: ['object', 'Spec defines the desired state of GatewayClass: its controllerName, parametersRef and description.'],
    status: ['object', 'Status defines the current state of GatewayClass, as its controller reports it.'],
  },
  table: crdTable(GATEWAY_CLASS_COLUMNS),
};

export const DEVICE_CLASSES: ViewDefinition = {
  kind: 'TenantDeviceClass',
  resource: 'tenantdeviceclasses',
  shortName: 'tdc',
  source: { group: 'resource.k8s.io', resource: 'deviceclasses', kind: 'DeviceClass', apiVersion: 'resource.k8s.io/v1' },
  informer: (c) => c.deviceClasses,
  ...classView('deviceClasses'),
  description: 'TenantDeviceClass is a DeviceClass (resource.k8s.io/v1) that a tenant of the caller may use.',
  fields: { spec: ['object', 'Spec defines what can be allocated and how to configure it: selectors, config and extendedResourceName.'] },
  table: {
    columns: [NAME_COLUMN, AGE_COLUMN],
    cells: (row, now) => {
      const o = row as Obj;
      return [o.metadata.name, translateTimestampSince(o.metadata.creationTimestamp, now)];
    },
  },
};
