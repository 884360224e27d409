/**
 * The configuration files of the test bed's node (containerd, the CNI bridge, kubelet, kube-proxy) and
 * the fixed names and addresses they share with node.ts.
 */
import { join } from 'node:path';
import { ADVERTISE_ADDRESS, CLUSTER_CIDR, type ControlPlaneState } from './controlplane';

export const NODE_NAME = 'paddock-node';
/** The bridge's address: the node's InternalIP, the pods' gateway and the API relay. */
export const NODE_IP = ADVERTISE_ADDRESS;
export const BRIDGE = 'cni0';
export const POD_SUBNET = '10.244.0.0/24';
/** Sockets need short paths: containerd's and runc's state live here, not in the repository. */
export const RUN_DIR = '/run/paddock-node';
export const IMAGES = { pause: 'localhost/pause:3.10', netcheck: 'localhost/netcheck:1' };

export function containerdConfig(dir: string): string {
  return `version = 3
root = '${dir}/containerd'
state = '${RUN_DIR}/containerd'
disabled_plugins = ['io.containerd.internal.v1.opt', 'io.containerd.snapshotter.v1.btrfs', 'io.containerd.snapshotter.v1.zfs',
  'io.containerd.snapshotter.v1.devmapper', 'io.containerd.snapshotter.v1.blockfile', 'io.containerd.snapshotter.v1.erofs',
  'io.containerd.nri.v1.nri', 'io.containerd.tracing.processor.v1.otlp', 'io.containerd.internal.v1.tracing']

[grpc]
  address = '${RUN_DIR}/containerd.sock'

[ttrpc]
  address = '${RUN_DIR}/containerd.sock.ttrpc'

[plugins.'io.containerd.cri.v1.images']
  snapshotter = 'overlayfs'
  [plugins.'io.containerd.cri.v1.images'.pinned_images]
    sandbox = '${IMAGES.pause}'

[plugins.'io.containerd.cri.v1.runtime']
  enable_selinux = false
  disable_apparmor = true
  # The machine may lack CAP_SYS_RESOURCE: runc cannot lower a sandbox's oom_score_adj below its own.
  restrict_oom_score_adj = true
  [plugins.'io.containerd.cri.v1.runtime'.containerd]
    default_runtime_name = 'runc'
    [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
      runtime_type = 'io.containerd.runc.v2'
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
        BinaryName = '/usr/sbin/runc'
        Root = '${RUN_DIR}/runc'
        SystemdCgroup = false
  [plugins.'io.containerd.cri.v1.runtime'.cni]
    bin_dirs = ['/usr/lib/cni']
    conf_dir = '${dir}/cni'
    max_conf_num = 1

[plugins.'io.containerd.grpc.v1.cri']
  stream_server_address = '127.0.0.1'
  stream_server_port = '0'
`;
}

export function cniConfig(dir: string): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'paddock',
    plugins: [
      {
        type: 'bridge', bridge: BRIDGE, isGateway: true, ipMasq: false, hairpinMode: true,
        ipam: { type: 'host-local', ranges: [[{ subnet: POD_SUBNET, gateway: NODE_IP, rangeStart: '10.244.0.10' }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: join(dir, 'cni-ipam') },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, 2);
}

export function kubeletConfig(dir: string, cp: ControlPlaneState, healthzPort: number): string {
  return JSON.stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: NODE_IP,
    port: 10250,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: true }, x509: { clientCAFile: cp.pki.ca.cert } },
    authorization: { mode: 'Webhook' },
    // cgroup v1 is deprecated upstream; kubelet 1.36 refuses it unless told (see the README's test bed section).
    failCgroupV1: false,
    cgroupDriver: 'cgroupfs',
    containerRuntimeEndpoint: `unix://${RUN_DIR}/containerd.sock`,
    podLogsDir: join(dir, 'pod-logs'),
    clusterDomain: 'cluster.local',
    failSwapOn: false,
    maxPods: 110,
    serializeImagePulls: false,
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    nodeStatusUpdateFrequency: '4s',
    syncFrequency: '10s',
    fileCheckFrequency: '10s',
    shutdownGracePeriod: '0s',
    protectKernelDefaults: false,
  }, null, 2);
}

export function kubeProxyConfig(kubeconfig: string, healthzPort: number, metricsPort: number): string {
  return JSON.stringify({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    mode: 'nftables',
    clusterCIDR: CLUSTER_CIDR,
    hostnameOverride: NODE_NAME,
    bindAddress: NODE_IP,
    healthzBindAddress: `127.0.0.1:${healthzPort}`,
    metricsBindAddress: `127.0.0.1:${metricsPort}`,
    clientConnection: { kubeconfig },
    // Leave the host's conntrack sysctls alone.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    nftables: { syncPeriod: '30s', minSyncPeriod: '0s' },
  }, null, 2);
}
