import { resolve } from 'node:path';
import { ensurePaddockImage, importImage, writeInstallOverlay } from '../controlplane/node';
import { controlPlane, httpsRequest, kubectl, kubectlJson, waitFor } from './env';
import { NODE_NAME, ensureNode } from './node-env';
import { replicas, startReplica, stopReplica } from './paddock-env';

// Paddock installed on the node the way a platform team installs it, for the suites that need it so
// (kubectl apply -k, helm, the in-cluster demo): the install through `kubectl apply -k` of apiservice/
// with an overlay that changes the image name only (the run's own Paddock processes step aside
// meanwhile and come back afterwards), and what those suites watch of it: its pods, the APIService, and
// a client that polls through kube-apiserver while pods are replaced.

export const NS = 'paddock-system';
export const SELECTOR = 'app.kubernetes.io/name=paddock,app.kubernetes.io/component=server';
export const APISERVICE = 'v1alpha1.tenancy.paddock.dev';
const OVERLAY = resolve(__dirname, '..', '..', '.paddock', 'install-overlay');

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

/**
 * Steps the run's replicas aside (with the ExternalName Service and the APIService that point at
 * them, so that what serves from here on is only what `apply -k` installs), installs, and resolves
 * once the APIService is Available through the Service; returns how long that took after the apply.
 */
export async function installInCluster(): Promise<number> {
  const node = await ensureNode();
  importImage(node, ensurePaddockImage());
  for (const r of replicas()) await stopReplica(r.identity);
  await kubectl('admin', ['delete', 'apiservice', APISERVICE, '--ignore-not-found']);
  await kubectl('admin', ['delete', 'service', 'paddock-apiserver', '-n', NS, '--ignore-not-found']);
  writeInstallOverlay(OVERLAY);
  const started = Date.now();
  const res = await kubectl('admin', ['apply', '-k', OVERLAY]);
  if (res.code !== 0) throw new Error(`kubectl apply -k failed: ${res.stderr}`);
  await waitFor('APIService Available through the Service', apiServiceAvailable, 120_000, 100);
  return Date.now() - started;
}

/** Removes what installInCluster installed, waits until its pods are gone, and brings the run's replicas back. */
export async function uninstallInCluster(): Promise<void> {
  for (const kind of ['deployment/paddock', 'poddisruptionbudget/paddock', 'service/paddock-apiserver', 'secret/paddock-serving-cert']) {
    await kubectl('admin', ['delete', kind, '-n', NS, '--ignore-not-found', '--wait=false']);
  }
  await kubectl('admin', ['delete', 'apiservice', APISERVICE, '--ignore-not-found']);
  await kubectl('admin', ['uncordon', NODE_NAME]);
  await waitFor('the installed Paddock pods gone', async () => (await paddockPods()).length === 0, 60_000, 250);
  for (const name of ['paddock-a', 'paddock-b']) await startReplica(name);
}
