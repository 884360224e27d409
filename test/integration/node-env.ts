import { resolve } from 'node:path';
import { isAlive } from '../controlplane/processes';
import { NODE_NAME, nodeSkipReason, readNodeState, startNode, type NodeState } from '../controlplane/node';
import { controlPlane, kubectl, kubectlJson, waitFor } from './env';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { Tenant, TenantSpec } from '../../src/kube/types';

/** Where the run's node keeps its state and logs (logs of the previous run in `logs.previous`). */
export const NODE_DIR = resolve(__dirname, '..', '..', '.paddock', 'node');
export { NODE_NAME };

/** Long enough for a cold build of the node (several minutes on 2 cores) plus its start. */
export const NODE_START_TIMEOUT_MS = 20 * 60_000;

/**
 * `describe` for suites that need the node: when this machine cannot run one, the suite is reported
 * skipped with the reason in its title (and on stderr), never passed silently.
 */
export function describeNode(title: string, fn: () => void): void {
  const reason = nodeSkipReason();
  if (reason) {
    process.stderr.write(`${title}: skipped, this machine cannot run a node: ${reason}\n`);
    describe.skip(`${title} (skipped: ${reason})`, fn);
    return;
  }
  describe(title, () => {
    beforeAll(() => ensureNode(), NODE_START_TIMEOUT_MS);
    fn();
  });
}

/** The node of this run: started by the first suite that needs it, stopped by the global teardown. */
export async function ensureNode(): Promise<NodeState> {
  const cp = controlPlane();
  const state = readNodeState(NODE_DIR);
  if (state && state.kubeconfig === cp.kubeconfigs.admin && state.server === cp.server &&
      Object.values(state.pids).every((pid) => isAlive(pid))) {
    return state;
  }
  return startNode(cp, { dir: NODE_DIR });
}

/** A pod spec that passes the `restricted` Pod Security level, running the test image's netcheck. */
export function netcheckPod(name: string, namespace: string, opts: { labels?: Record<string, string>; nodeSelector?: Record<string, string>;
  resources?: Record<string, unknown>; privileged?: boolean } = {}): Record<string, unknown> {
  const container: Record<string, unknown> = {
    name: 'netcheck', image: 'localhost/netcheck:1', imagePullPolicy: 'Never', args: ['serve'],
    ports: [{ name: 'tcp', containerPort: 8080, protocol: 'TCP' }, { name: 'udp', containerPort: 8081, protocol: 'UDP' }],
    securityContext: opts.privileged ? { privileged: true } : { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    ...(opts.resources ? { resources: opts.resources } : {}),
  };
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace, labels: { app: name, ...opts.labels } },
    spec: {
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      securityContext: opts.privileged ? {} : { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
      ...(opts.nodeSelector ? { nodeSelector: opts.nodeSelector } : {}),
      containers: [container],
    },
  };
}

/** Waits until pod `namespace/name` is Running and Ready; returns it. */
export async function waitRunning(namespace: string, name: string, timeoutMs = 60_000): Promise<any> {
  let pod: any;
  await waitFor(`pod ${namespace}/${name} Running and Ready`, async () => {
    pod = await kubectlJson('admin', ['get', 'pod', '-n', namespace, name]);
    return pod.status?.phase === 'Running' && pod.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');
  }, timeoutMs, 250);
  return pod;
}

/** Runs netcheck's probe inside `namespace/pod`: true when the target answered. */
export async function probe(namespace: string, pod: string, proto: 'tcp' | 'udp', target: string): Promise<boolean> {
  const res = await kubectl('admin', ['exec', '-n', namespace, pod, '--', '/netcheck', 'probe', proto, target, '-timeout', '1500ms']);
  if (res.code !== 0 && !res.stdout.startsWith('fail')) throw new Error(`kubectl exec ${namespace}/${pod} failed: ${res.stderr}`);
  return res.code === 0 && res.stdout.startsWith('ok');
}

/** Tenant `name` with `spec`, deleting its namespaces with it. */
export function tenant(name: string, spec: Partial<TenantSpec>): Tenant {
  return tenantNamed(name, { deletionPolicy: 'Delete', ...spec });
}

/** Waits until Tenant `name` has converged on its current generation with Ready=True. */
export async function waitTenantReady(name: string): Promise<any> {
  let last: any;
  await waitFor(`tenant ${name} Ready`, async () => {
    last = await kubectlJson('admin', ['get', 'tenant', name]);
    const ready = last.status?.conditions?.find((c: any) => c.type === 'Ready');
    return ready?.status === 'True' && last.status?.observedGeneration === last.metadata.generation;
  }, 60_000, 250).catch((err) => {
    throw new Error(`${(err as Error).message}; last status: ${JSON.stringify(last?.status)}`);
  });
  return last;
}

/** Deletes Tenants (their namespaces go with them: deletionPolicy Delete) without waiting. */
export async function deleteTenants(...names: string[]): Promise<void> {
  if (names.length) await kubectl('admin', ['delete', 'tenant', ...names, '--wait=false', '--ignore-not-found']);
}
