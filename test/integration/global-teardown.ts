import { existsSync, readFileSync } from 'node:fs';
import { stopControlPlane } from '../controlplane/controlplane';
import { killGroup } from '../controlplane/processes';
import { PADDOCK_STATE_FILE, TEST_CONTROL_PLANE_DIR } from './global-setup';

/** Stops Paddock and the run's control plane; logs stay in .paddock/test/logs for the next look. */
export default async function globalTeardown(): Promise<void> {
  if (existsSync(PADDOCK_STATE_FILE)) {
    const { replicas } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { replicas: { pid: number }[] };
    for (const r of replicas) await killGroup(r.pid);
  }
  await stopControlPlane(TEST_CONTROL_PLANE_DIR);
}
