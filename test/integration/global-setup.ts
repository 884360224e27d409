import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { startControlPlane } from '../controlplane/controlplane';

/** The directory of the control plane shared by every integration suite of one run. */
export const TEST_CONTROL_PLANE_DIR = resolve(__dirname, '..', '..', '.paddock', 'test');

/**
 * Starts one local control plane for the whole run and installs the Tenant CRD. Suites find it through
 * `test/integration/env.ts` and isolate themselves by unique names.
 */
export default async function globalSetup(): Promise<void> {
  const state = await startControlPlane({ dir: TEST_CONTROL_PLANE_DIR });
  const crd = resolve(__dirname, '..', '..', 'schemas', 'tenant-crd.yaml');
  execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs.admin, 'apply', '-f', crd], { stdio: 'pipe' });
  execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs.admin, 'wait', '--for=condition=Established', '--timeout=30s',
    'crd/tenants.paddock.dev'], { stdio: 'pipe' });
  process.env.PADDOCK_TEST_STATE = join(TEST_CONTROL_PLANE_DIR, 'state.json');
}
