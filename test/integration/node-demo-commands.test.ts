import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_USERS, demoCommands, inClusterCommands, kubeconfigPath, type DemoCommand } from '../../scripts/demo-commands';
import { applyExamples } from '../../scripts/demo-environment';
import { controlPlane, kubectl } from './env';
import { NS, installInCluster, uninstallInCluster } from './install-env';
import { demoRoot, expectOutcome, runDemoCommand } from './demo-run';
import { describeNode } from './node-env';

// `npm run demo -- --in-cluster` as a newcomer meets it: Paddock installed with `kubectl apply -k` on
// the test bed's node (the run's node: one node per machine), the examples applied as the demo applies
// them, then every command it prints, verbatim and in the printed order, each doing what its comment says.

jest.setTimeout(180_000);

const title = (c: DemoCommand): [string, DemoCommand] => [`${c.command}${c.comment ? `   # ${c.comment}` : ''}`, c];

describeNode('every command npm run demo -- --in-cluster prints does what its comment says', () => {
  const root = demoRoot();

  beforeAll(async () => {
    const cp = controlPlane();
    for (const user of DEMO_USERS) copyFileSync(cp.kubeconfigs[user], join(root, kubeconfigPath(user)));
    await installInCluster();
    const rollout = await kubectl('admin', ['rollout', 'status', 'deployment/paddock', '-n', NS, '--timeout=120s']);
    if (rollout.code !== 0) throw new Error(`Paddock's rollout: ${rollout.stderr}`);
    applyExamples(cp.kubeconfigs.admin);
  }, 900_000);

  afterAll(async () => {
    // oil retains its namespaces when deleted (deletionPolicy Retain): they go once the Tenants have.
    await kubectl('admin', ['delete', 'tenant', 'oil', 'gas', '--ignore-not-found', '--timeout=120s']);
    await kubectl('admin', ['delete', 'namespace', 'oil-production', 'oil-staging', 'gas-production', '--ignore-not-found', '--wait=false']);
    await kubectl('admin', ['delete', '-f', join(root, 'examples', 'classes.yaml'), '--ignore-not-found']);
    await uninstallInCluster();
    rmSync(root, { recursive: true, force: true });
  }, 300_000);

  describe('what every demo prints', () => {
    test.each(demoCommands(true).map(title))('%s', async (_title, cmd) => {
      expectOutcome(cmd, await runDemoCommand(cmd, root));
    });
  });

  describe('what the in-cluster demo adds', () => {
    test.each(inClusterCommands().map(title))('%s', async (_title, cmd) => {
      expectOutcome(cmd, await runDemoCommand(cmd, root));
    });
  });
});
