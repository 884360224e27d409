import { stopControlPlane } from '../controlplane/controlplane';
import { TEST_CONTROL_PLANE_DIR } from './global-setup';

/** Stops the run's control plane; its logs stay in .paddock/test/logs for the next look. */
export default async function globalTeardown(): Promise<void> {
  await stopControlPlane(TEST_CONTROL_PLANE_DIR);
}
