import { readFileSync, writeFileSync } from 'node:fs';
import { httpsGet } from '../controlplane/controlplane';
import { registerApiService, startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { controlPlane, kubectlJson, waitFor } from './env';
import { PADDOCK_STATE_FILE, TEST_PADDOCK_ARGS } from './global-setup';

interface PaddockState {
  kubeconfig: string;
  replicas: PaddockProcess[];
  /** The TCP balancer the APIService points at, in front of every replica listed here. */
  balancer: { pid: number; port: number };
}

function read(): PaddockState {
  return JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as PaddockState;
}

/** The Paddock replicas of this run (both serve the APIService through the balancer, both compete for the Lease). */
export function replicas(): PaddockProcess[] {
  return read().replicas;
}

/**
 * Stops replica `name` as a rollout stops a pod: first out of the balancer (as out of the Service's
 * endpoints), so no new connection reaches it, then SIGTERM (it ends its watches and closes).
 */
export async function stopReplica(name: string): Promise<void> {
  const state = read();
  const r = state.replicas.find((p) => p.identity === name);
  writeFileSync(PADDOCK_STATE_FILE, JSON.stringify({ ...state, replicas: state.replicas.filter((p) => p.identity !== name) }, null, 2));
  if (r) await stopPaddock(r);
}

/**
 * Starts replica `name` again (after stopReplica): the balancer sends it connections from now on, and
 * the APIService points at the balancer again (a suite may have replaced it).
 */
export async function startReplica(name: string): Promise<PaddockProcess> {
  const state = read();
  const p = await startPaddock(controlPlane(), state.kubeconfig, { name, extraArgs: TEST_PADDOCK_ARGS });
  writeFileSync(PADDOCK_STATE_FILE, JSON.stringify({ ...state, replicas: [...state.replicas.filter((r) => r.identity !== name), p] }, null, 2));
  await registerApiService(controlPlane(), state.balancer.port);
  return p;
}

/**
 * Starts one more Paddock (API server only) with flags of its own, for a suite that needs tight limits
 * or its own serving certificate without disturbing the shared replicas. Stop it with stopPaddock.
 */
export function startApiServerReplica(name: string, extraArgs: string[]): Promise<PaddockProcess> {
  return startPaddock(controlPlane(), read().kubeconfig, { name, mode: 'apiserver', extraArgs: [...TEST_PADDOCK_ARGS, ...extraArgs] });
}

/** The replica holding the reconciler's Lease. */
export async function leaseHolder(): Promise<string> {
  return (await kubectlJson('admin', ['get', 'lease', 'paddock-controller', '-n', 'paddock-system'])).spec.holderIdentity ?? '';
}

/** Successful Tenant reconciles a replica has run, from its own /metrics. */
export async function reconciles(identity: string): Promise<number> {
  const r = replicas().find((p) => p.identity === identity)!;
  const { pki } = controlPlane();
  const res = await httpsGet(`https://127.0.0.1:${r.port}/metrics`, pki, pki.users.admin);
  // The Tenant controller's series: the tenant-wide quota's controller counts its passes apart, and its
  // series may come first (series are listed in the order they were first counted).
  const m = /^paddock_reconcile_total\{(?=[^}]*controller="tenants")[^}]*result="success"[^}]*\} (\d+)$/m.exec(res.body);
  return m ? Number(m[1]) : 0;
}

/**
 * Resolves once the leader has reconciled every Tenant `rounds` more times (periodic resyncs): the
 * positive event after which a check that nothing was written during them can be made.
 */
export async function resyncRounds(rounds: number): Promise<void> {
  const leader = await leaseHolder();
  const before = await reconciles(leader);
  const tenants = (await kubectlJson('admin', ['get', 'tenants'])).items.length;
  await waitFor(`${rounds} resyncs of ${tenants} Tenants by ${leader}`, async () => (await reconciles(leader)) - before >= rounds * tenants, 120_000, 250);
}
