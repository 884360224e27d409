import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startControlPlane } from '../controlplane/controlplane';
import { installPaddockIdentity, registerApiService, startPaddock } from '../controlplane/paddock';
import { killGroup, startDetached, waitFor } from '../controlplane/processes';
import { installCrds, installGatewayApiCrds } from '../controlplane/crds';

/** The directory of the control plane shared by every integration suite of one run. */
export const TEST_CONTROL_PLANE_DIR = resolve(__dirname, '..', '..', '.paddock', 'test');
/** Where the global setup records the Paddock replicas it started (see env.ts). */
export const PADDOCK_STATE_FILE = join(TEST_CONTROL_PLANE_DIR, 'paddock.json');

/**
 * Flags of the replicas under test: a short resync so tests can watch several happen, and short HTTP
 * deadlines so a stalled request is answered within a test's patience.
 */
export const TEST_PADDOCK_ARGS = ['--resync-period=4s', '--lease-duration=6s', '--renew-deadline=4s', '--retry-period=1s', '--watch-window=2000',
  '--request-timeout=20s', '--request-body-timeout=3s', '--header-timeout=5s'];

/** Whether `pid` is still the test bed's balancer. */
function isBalancer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('balancer.mjs');
  } catch {
    return false;
  }
}

/** Starts the balancer in front of the replicas listed in the state file (see balancer.mjs). */
async function startBalancer(): Promise<{ pid: number; port: number }> {
  const portFile = join(TEST_CONTROL_PLANE_DIR, 'balancer.port');
  rmSync(portFile, { force: true });
  const pid = startDetached(process.execPath, [resolve(__dirname, '..', 'controlplane', 'balancer.mjs'), PADDOCK_STATE_FILE, portFile],
    join(TEST_CONTROL_PLANE_DIR, 'logs', 'balancer.log'));
  await waitFor('the balancer to listen', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 10_000, 50);
  return { pid, port: Number(readFileSync(portFile, 'utf8')) };
}

/** Whether `pid` is still a Paddock process (a recycled pid must never be killed). */
function isPaddock(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/main.js');
  } catch {
    return false;
  }
}

/**
 * Starts one local control plane for the whole run, installs the Tenant CRD, starts two Paddock
 * replicas (mode all, leader election on) with the APIService pointing at a TCP balancer in front of
 * both, as a Service spreads connections over a Deployment's pods, and then installs Gateway API's
 * CRDs (the replicas were ready without them). Suites find all of it through `test/integration/env.ts`
 * and isolate themselves by unique names.
 */
export default async function globalSetup(): Promise<void> {
  // Replicas a killed earlier run left behind would keep a stale control plane's ports busy.
  if (existsSync(PADDOCK_STATE_FILE)) {
    const { replicas, balancer } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { replicas: { pid: number }[]; balancer?: { pid: number } };
    for (const r of replicas) if (isPaddock(r.pid)) await killGroup(r.pid, 1000);
    if (balancer && isBalancer(balancer.pid)) await killGroup(balancer.pid, 1000);
  }
  const state = await startControlPlane({ dir: TEST_CONTROL_PLANE_DIR });
  await installCrds(state.kubeconfigs.admin);
  const kubeconfig = installPaddockIdentity(state);
  const replicas = [];
  for (const name of ['paddock-a', 'paddock-b']) replicas.push(await startPaddock(state, kubeconfig, { name, extraArgs: TEST_PADDOCK_ARGS }));
  writeFileSync(PADDOCK_STATE_FILE, JSON.stringify({ kubeconfig, replicas }, null, 2));
  const balancer = await startBalancer();
  writeFileSync(PADDOCK_STATE_FILE, JSON.stringify({ kubeconfig, replicas, balancer }, null, 2));
  await registerApiService(state, balancer.port);
  // After the replicas are ready: they must start and serve without Gateway API, and pick it up later.
  await installGatewayApiCrds(state.kubeconfigs.admin);
}
