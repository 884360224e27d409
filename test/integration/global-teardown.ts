import { existsSync, readFileSync } from 'node:fs';
import { stopControlPlane } from '../controlplane/controlplane';
import { stopNode } from '../controlplane/node';
import { killGroup } from '../controlplane/processes';
import { PADDOCK_STATE_FILE, TEST_CONTROL_PLANE_DIR } from './global-setup';
import { NODE_DIR } from './node-env';

/**
 * Stops the node (when a suite started one), Paddock and the run's control plane; logs stay in
 * .paddock/test/logs and .paddock/node/logs for the next look.
 */
export default async function globalTeardown(): Promise<void> {
  const leftovers = await stopNode(NODE_DIR);
  if (leftovers.length) process.stderr.write(`the node's teardown left behind:\n  ${leftovers.join('\n  ')}\n`);
  if (existsSync(PADDOCK_STATE_FILE)) {
    const { replicas, balancer } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { replicas: { pid: number }[]; balancer?: { pid: number } };
    for (const r of replicas) await killGroup(r.pid);
    if (balancer) await killGroup(balancer.pid);
  }
  await stopControlPlane(TEST_CONTROL_PLANE_DIR);
}
