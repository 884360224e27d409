import { readFileSync, writeFileSync } from 'node:fs';
import { registerApiService, startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { controlPlane } from './env';
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
