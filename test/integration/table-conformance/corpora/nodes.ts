import { projectedMetadata, type TableCorpus } from '../corpus';

const info = (extra: Record<string, string> = {}) => ({
  machineID: 'm', systemUUID: 's', bootID: 'b', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64',
  kubeletVersion: 'v1.36.3', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-18-amd64', containerRuntimeVersion: 'containerd://2.1.0', ...extra,
});
const condition = (type: string, status: string) => ({ type, status, reason: `${type}${status}`, message: '', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' });

/**
 * Node: kube's printNode (pkg/printers/internalversion/printers.go). Nodes are made as admin, their status
 * written through the status subresource: the suite runs no kubelet. kube-controller-manager's node
 * lifecycle controller may mark them NotReady or taint them while the suite runs: the comparison is
 * with the live objects, whatever they hold.
 */
export const NODES: TableCorpus = {
  view: 'tenantnodes',
  viewKind: 'TenantNode',
  source: '/api/v1/nodes',
  branches: [
    'STATUS: no conditions (Unknown); Ready True (Ready); Ready False (NotReady); Ready Unknown (NotReady); conditions without Ready (Unknown); two Ready conditions (the last counts); unschedulable adds SchedulingDisabled',
    'ROLES: none (<none>); node-role.kubernetes.io/<role> labels, several (six), sorted; kubernetes.io/role=<role>; kubernetes.io/role with an empty value (no role)',
    'VERSION: empty without nodeInfo; the kubelet version',
    'INTERNAL-IP / EXTERNAL-IP: no addresses (<none>); both; several InternalIPs (the first); addresses after six others, IPv6; Hostname and InternalDNS only (<none>)',
    'OS-IMAGE / KERNEL-VERSION / CONTAINER-RUNTIME: no nodeInfo (<unknown>); all set; some empty; KERNEL-VERSION with its architecture (amd64, arm64), without one, and <unknown> with one',
    'taints and unschedulable in the body',
  ],
  objects: (id, labels) => {
    const node = (name: string, extra: { labels?: Record<string, string>; spec?: Record<string, unknown> } = {}) => ({
      apiVersion: 'v1', kind: 'Node', metadata: { name: `${id}-${name}`, labels: { ...labels, ...extra.labels } }, ...(extra.spec ? { spec: extra.spec } : {}),
    });
    return [
      node('bare'),
      node('ready', { labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': 'x', 'kubernetes.io/role': 'master' } }),
      node('cordoned', { labels: { 'kubernetes.io/role': 'infra' }, spec: { unschedulable: true, taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } }),
      node('unknown', { labels: { 'kubernetes.io/role': '' } }),
      node('pressure', { spec: { unschedulable: true } }),
      node('arm'),
      node('twice'),
      node('archonly'),
      node('many', { labels: Object.fromEntries(['ingress', 'storage', 'gpu', 'etcd', 'batch', 'a'].map((r) => [`node-role.kubernetes.io/${r}`, ''])) }),
    ];
  },
  statuses: (id) => ({
    [`${id}-ready`]: {
      conditions: [condition('MemoryPressure', 'False'), condition('Ready', 'True')],
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'ExternalIP', address: '203.0.113.1' }, { type: 'Hostname', address: 'ready' }],
      nodeInfo: info(),
    },
    [`${id}-cordoned`]: {
      conditions: [condition('Ready', 'False')],
      addresses: [{ type: 'InternalIP', address: '10.0.0.2' }, { type: 'InternalIP', address: 'fd00::2' }],
      nodeInfo: info({ osImage: '', containerRuntimeVersion: '' }),
    },
    [`${id}-unknown`]: { conditions: [condition('Ready', 'Unknown')], addresses: [{ type: 'Hostname', address: 'unknown' }, { type: 'InternalDNS', address: 'unknown.internal' }] },
    [`${id}-pressure`]: { conditions: [condition('DiskPressure', 'True')], addresses: [{ type: 'ExternalIP', address: '203.0.113.5' }] },
    [`${id}-twice`]: { conditions: [condition('Ready', 'False'), condition('Ready', 'True')], nodeInfo: info({ architecture: '' }) },
    [`${id}-archonly`]: { nodeInfo: info({ kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '' }) },
    [`${id}-many`]: {
      conditions: [condition('Ready', 'True')],
      addresses: [...Array.from({ length: 6 }, (_, i) => ({ type: 'InternalDNS', address: `n${i}.internal` })), { type: 'ExternalIP', address: '2001:db8::7' }, { type: 'InternalIP', address: '192.168.7.7' }],
    },
    [`${id}-arm`]: { nodeInfo: info({ architecture: 'arm64', kernelVersion: '6.6.0-rpi' }), capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '3500m', memory: '7Gi', pods: '110' } },
  }),
  // The view keeps what the Node table and a tenant need (cache/paddock-cache.ts nodeSummary): of the spec,
  // unschedulable, taints and podCIDR; of the status, conditions without their heartbeat times, addresses,
  // nodeInfo, capacity and allocatable.
  projection: (source) => {
    const { unschedulable, taints, podCIDR } = source.spec ?? {};
    const { conditions, addresses, nodeInfo, capacity, allocatable } = source.status ?? {};
    const spec = JSON.parse(JSON.stringify({ unschedulable, taints, podCIDR }));
    const status = JSON.parse(JSON.stringify({ conditions: conditions?.map(({ lastHeartbeatTime: _beat, ...c }: Record<string, unknown>) => c), addresses, nodeInfo, capacity, allocatable }));
    return { metadata: projectedMetadata(source), body: { spec, status } };
  },
};
