import { resolve } from 'node:path';
import { ensurePaddockImage, importImage, writeInstallOverlay } from '../controlplane/node';
import { kubectl, kubectlJson, waitFor } from './env';
import { NODE_NAME, ensureNode } from './node-env';
import { replicas, startReplica, stopReplica } from './paddock-env';

// Paddock installed the way a platform team installs it, for the suites that need it so: the image
// built from the Dockerfile, then `kubectl apply -k` of apiservice/ through an overlay that changes the
// image name only. The run's Paddock processes step aside meanwhile and come back afterwards.

export const PADDOCK_NS = 'paddock-system';
export const PADDOCK_SELECTOR = 'app.kubernetes.io/name=paddock,app.kubernetes.io/component=server';
export const APISERVICE = 'v1alpha1.tenancy.paddock.dev';
const OVERLAY = resolve(__dirname, '..', '..', '.paddock', 'install-overlay');

export interface PaddockPod {
  name: string;
  ip: string;
  ready: boolean;
  deleting: boolean;
}

export async function paddockPods(): Promise<PaddockPod[]> {
  const list = await kubectlJson('admin', ['get', 'pods', '-n', PADDOCK_NS, '-l', PADDOCK_SELECTOR]);
  return list.items.map((p: any) => ({
    name: p.metadata.name, ip: p.status.podIP, deleting: !!p.metadata.deletionTimestamp,
    ready: p.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ?? false,
  }));
}

export async function apiServiceAvailable(): Promise<boolean> {
  const res = await kubectl('admin', ['get', 'apiservice', APISERVICE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']);
  return res.stdout.trim() === 'True';
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
  await kubectl('admin', ['delete', 'service', 'paddock-apiserver', '-n', PADDOCK_NS, '--ignore-not-found']);
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
    await kubectl('admin', ['delete', kind, '-n', PADDOCK_NS, '--ignore-not-found', '--wait=false']);
  }
  await kubectl('admin', ['delete', 'apiservice', APISERVICE, '--ignore-not-found']);
  await kubectl('admin', ['uncordon', NODE_NAME]);
  await waitFor('the installed Paddock pods gone', async () => (await paddockPods()).length === 0, 60_000, 250);
  for (const name of ['paddock-a', 'paddock-b']) await startReplica(name);
}
