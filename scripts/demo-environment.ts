// The demo's cluster: a local control plane with Paddock (run here, or installed in the cluster on the
// test bed's node) and the example tenants. `root` is a directory laid out like the repository's root:
// the demo writes `.paddock/` there, and the printed commands (demo-commands.ts) run from it.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startControlPlane, stopControlPlane, type ControlPlaneState } from '../test/controlplane/controlplane';
import { installCrds, installGatewayApiCrds } from '../test/controlplane/crds';
import { ensurePaddockImage, importImage, nodeSkipReason, startNode, stopNode, writeInstallOverlay } from '../test/controlplane/node';
import { buildPaddock, installPaddockIdentity, registerApiService, startPaddock } from '../test/controlplane/paddock';
import { killGroup, waitFor } from '../test/controlplane/processes';
import { DEMO_USERS, kubeconfigPath } from './demo-commands';

const EXAMPLES = resolve(__dirname, '..', 'examples');

export interface DemoOptions {
  root: string;
  inCluster: boolean;
  log: (line: string) => void;
  /** Build Paddock (tsc) before starting it here; false when dist/ is known current. */
  build?: boolean;
}

const dirs = (root: string) => ({ controlPlane: join(root, '.paddock', 'demo'), node: join(root, '.paddock', 'demo-node') });
const paddockPidFile = (root: string) => join(dirs(root).controlPlane, 'paddock.pid');

function kubectl(kubeconfig: string, args: string[]): string {
  return execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The example manifests, in the order they are applied: the cluster's objects the tenants name
 * (classes.yaml) before the tenants that name them.
 */
export function exampleManifests(): string[] {
  const tenants = readdirSync(EXAMPLES).filter((f) => /^tenant-.*\.yaml$/.test(f)).sort();
  return ['classes.yaml', ...tenants].map((f) => join(EXAMPLES, f));
}

/** Applies the examples as admin and waits until every Tenant is Ready; returns kubectl's output. */
export function applyExamples(adminKubeconfig: string): string {
  let out = '';
  for (const file of exampleManifests()) out += kubectl(adminKubeconfig, ['apply', '-f', file]);
  const tenants = [...out.matchAll(/^tenant\.paddock\.dev\/(\S+) /gm)].map((m) => `tenant/${m[1]}`);
  kubectl(adminKubeconfig, ['wait', '--for=condition=Ready', ...tenants, '--timeout=60s']);
  return out;
}

/** Starts the demo; resolves once Paddock serves and the example tenants are Ready. */
export async function startDemo(opts: DemoOptions): Promise<ControlPlaneState> {
  const { root, inCluster, log } = opts;
  const reason = inCluster ? nodeSkipReason() : undefined;
  if (reason) throw new Error(`--in-cluster needs the test bed's node, which this machine cannot run: ${reason}`);
  const state = await startControlPlane({ dir: dirs(root).controlPlane, log });
  for (const user of DEMO_USERS) copyFileSync(state.kubeconfigs[user], join(root, kubeconfigPath(user)));
  await installCrds(state.kubeconfigs.admin);
  await installGatewayApiCrds(state.kubeconfigs.admin);
  if (inCluster) {
    log('starting the node and building the image from the Dockerfile (first use builds for several minutes)...');
    const node = await startNode(state, { dir: dirs(root).node, log });
    importImage(node, ensurePaddockImage());
    const t0 = Date.now();
    log(kubectl(state.kubeconfigs.admin, ['apply', '-k', writeInstallOverlay(join(root, '.paddock', 'demo-overlay'))]).trimEnd());
    await waitFor('APIService v1alpha1.tenancy.paddock.dev Available', async () =>
      kubectl(state.kubeconfigs.admin, ['get', 'apiservice', 'v1alpha1.tenancy.paddock.dev', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']) === 'True', 120_000, 250);
    log(`Paddock installed with kubectl apply -k apiservice/; APIService Available after ${Date.now() - t0} ms`);
  } else {
    if (opts.build !== false) {
      log('building Paddock (tsc)...');
      buildPaddock();
    }
    const paddock = await startPaddock(state, installPaddockIdentity(state), { name: 'paddock' });
    writeFileSync(paddockPidFile(root), String(paddock.pid));
    await registerApiService(state, paddock.port);
    log(`Paddock serving on https://127.0.0.1:${paddock.port} (log: ${paddock.log}); APIService v1alpha1.tenancy.paddock.dev is Available`);
  }
  log(applyExamples(state.kubeconfigs.admin).trimEnd());
  return state;
}

/** Stops Paddock, the node (with --in-cluster), then the control plane; returns what the node's teardown left behind. */
export async function stopDemo(root: string): Promise<string[]> {
  const pidFile = paddockPidFile(root);
  if (existsSync(pidFile)) await killGroup(Number(readFileSync(pidFile, 'utf8')));
  const leftovers = await stopNode(dirs(root).node);
  await stopControlPlane(dirs(root).controlPlane);
  return leftovers;
}
