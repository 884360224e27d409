import type { KubeObject, Tenant } from '../../kube/types';
import { mayUseNode } from '../../tenancy/allowed';
import { AGE_COLUMN, column, NAME_COLUMN, NONE, translateTimestampSince } from '../table';
import type { ViewDefinition } from './projected/define';

type Obj = KubeObject & Record<string, any>;

const ROLE_PREFIX = 'node-role.kubernetes.io/';

/**
 * Ready when the Ready condition is True, NotReady when it is anything else (Unknown too), Unknown when
 * there is none; the last condition of the type counts, as kube's printer reads them into a map. Then
 * SchedulingDisabled when cordoned.
 */
function nodeStatus(o: Obj): string {
  const ready = (o.status?.conditions ?? []).findLast((c: { type: string }) => c.type === 'Ready');
  const states = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (o.spec?.unschedulable) states.push('SchedulingDisabled');
  return states.join(',');
}

function nodeRoles(o: Obj): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries<string>(o.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX) && k.length > ROLE_PREFIX.length) roles.add(k.slice(ROLE_PREFIX.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : NONE;
}

const address = (o: Obj, type: string) => (o.status?.addresses ?? []).find((a: { type: string }) => a.type === type)?.address ?? NONE;

/** What kube's printer writes for a nodeInfo field that is empty. */
const UNKNOWN = '<unknown>';

/** NodeStatus.addresses' SwaggerDoc: the description of both address columns. */
const ADDRESSES = "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

/**
 * `tenantnodes`: printed as kube's printNode (k8s.io/kubernetes pkg/printers/internalversion/printers.go at
 * the pinned version) prints a Node; the Table conformance suite compares every cell.
 * the nodes a caller's tenants may use — nodes carrying every label of a tenant's
 * nodeSelector. A tenant without a nodeSelector sees no node: which nodes are a tenant's is the cluster
 * admin's to say, and a node list is otherwise the whole cluster's inventory.
 */
export const NODES: ViewDefinition = {
  kind: 'TenantNode',
  resource: 'tenantnodes',
  shortName: 'tno',
  source: { group: '', resource: 'nodes', kind: 'Node', apiVersion: 'v1' },
  informer: (c) => c.nodes,
  mayUse: mayUseNode,
  relevant: (t: Tenant) => t.spec?.nodeSelector ?? null,
  description: 'TenantNode is a Node (v1) that a tenant of the caller may run pods on: its labels match the tenant\'s nodeSelector.',
  fields: {
    spec: ['object', 'Spec of the node: whether it is unschedulable, and its taints.'],
    status: ['object', 'Status of the node: conditions, addresses, capacity, allocatable and nodeInfo.'],
  },
  table: {
    columns: [
      NAME_COLUMN,
      column('Status', 'The status of the node'),
      column('Roles', 'The roles of the node'),
      AGE_COLUMN,
      column('Version', 'Kubelet Version reported by the node.'),
      column('Internal-IP', ADDRESSES, 1),
      column('External-IP', ADDRESSES, 1),
      column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
    ],
    cells: (row, now) => {
      const o = row as Obj;
      const info = o.status?.nodeInfo ?? {};
      // The kernel is followed by the architecture when the node reports one: `6.1.0 (amd64)`, `<unknown> (arm64)`.
      const kernel = `${info.kernelVersion || UNKNOWN}${info.architecture ? ` (${info.architecture})` : ''}`;
      return [
        o.metadata.name, nodeStatus(o), nodeRoles(o), translateTimestampSince(o.metadata.creationTimestamp, now), info.kubeletVersion ?? '',
        address(o, 'InternalIP'), address(o, 'ExternalIP'), info.osImage || UNKNOWN, kernel, info.containerRuntimeVersion || UNKNOWN,
      ];
    },
  },
};
