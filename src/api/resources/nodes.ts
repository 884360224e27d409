import type { KubeObject, Tenant } from '../../kube/types';
import { mayUseNode } from '../../tenancy/allowed';
import { AGE_COLUMN, column, NAME_COLUMN, NONE, translateTimestampSince } from '../table';
import type { ViewDefinition } from './projected/define';

type Obj = KubeObject & Record<string, any>;

const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** Ready / NotReady / Unknown, with SchedulingDisabled when cordoned, as `kubectl get nodes` prints it. */
function nodeStatus(o: Obj): string {
  const ready = (o.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
  const states = [ready ? (ready.status === 'True' ? 'Ready' : ready.status === 'False' ? 'NotReady' : 'Unknown') : 'Unknown'];
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

/**
 * `tenantnodes`: the nodes a caller's tenants may use — nodes carrying every label of a tenant's
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
      column('Internal-IP', 'List of addresses reachable to the node.', 1),
      column('External-IP', 'List of addresses reachable to the node.', 1),
      column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
      column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
      column('Container-Runtime', 'Container runtime version reported by the node.', 1),
    ],
    cells: (row, now) => {
      const o = row as Obj;
      const info = o.status?.nodeInfo ?? {};
      return [
        o.metadata.name, nodeStatus(o), nodeRoles(o), translateTimestampSince(o.metadata.creationTimestamp, now), info.kubeletVersion ?? '',
        address(o, 'InternalIP'), address(o, 'ExternalIP'), info.osImage || NONE, info.kernelVersion || NONE, info.containerRuntimeVersion || NONE,
      ];
    },
  },
};
