import { controlPlane, httpsRequest, kubectl, kubectlJson, waitFor } from './env';

// What the install suites (kubectl apply -k, helm) watch of Paddock running on the node: its pods, the
// APIService, and a client that polls through kube-apiserver while pods are replaced.

export const NS = 'paddock-system';
export const SELECTOR = 'app.kubernetes.io/name=paddock,app.kubernetes.io/component=server';
export const APISERVICE = 'v1alpha1.tenancy.paddock.dev';

export interface PaddockPod {
  name: string;
  ip: string;
  ready: boolean;
  deleting: boolean;
}

export async function paddockPods(): Promise<PaddockPod[]> {
  const list = await kubectlJson('admin', ['get', 'pods', '-n', NS, '-l', SELECTOR]);
  return list.items.map((p: any) => ({
    name: p.metadata.name, ip: p.status.podIP, deleting: !!p.metadata.deletionTimestamp,
    ready: p.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ?? false,
  }));
}

export async function apiServiceAvailable(): Promise<boolean> {
  const res = await kubectl('admin', ['get', 'apiservice', APISERVICE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']);
  return res.stdout.trim() === 'True';
}

/** Two Ready pods of the current template, none terminating, and the Deployment says so too. */
export async function waitSettled(describe: string): Promise<PaddockPod[]> {
  let pods: PaddockPod[] = [];
  await waitFor(describe, async () => {
    const d = await kubectlJson('admin', ['get', 'deployment', 'paddock', '-n', NS]);
    pods = await paddockPods();
    return d.status.observedGeneration === d.metadata.generation && d.status.updatedReplicas === 2 && d.status.readyReplicas === 2 &&
      d.status.availableReplicas === 2 && (d.status.replicas ?? 0) === 2 && pods.length === 2 && pods.every((p) => p.ready && !p.deleting);
  }, 120_000, 250);
  return pods;
}

/**
 * A client that lists tenantnamespaces as alice through kube-apiserver every 100 ms (as `kubectl get tns`
 * does) and records every answer that is not a 200 with alice's namespace in it.
 */
export function poll(expectNamespace: string) {
  const { server, pki } = controlPlane();
  const failures: string[] = [];
  let requests = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      requests++;
      try {
        const res = await httpsRequest(`${server}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces`, { cert: pki.users.alice });
        if (res.status !== 200 || !res.body.includes(`"${expectNamespace}"`)) failures.push(`${new Date().toISOString()} ${res.status} ${res.body.slice(0, 200)}`);
      } catch (err) {
        failures.push(`${new Date().toISOString()} ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - started))));
    }
  })();
  return {
    failures,
    get requests() { return requests; },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
