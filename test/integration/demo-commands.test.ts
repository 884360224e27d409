import { rmSync } from 'node:fs';
import { demoCommands, type DemoCommand } from '../../scripts/demo-commands';
import { startDemo, stopDemo } from '../../scripts/demo-environment';
import { demoRoot, expectOutcome, runDemoCommand } from './demo-run';

// `npm run demo` as a newcomer meets it: the demo's own start (a control plane of its own, Paddock,
// the examples), then every command it prints to try, verbatim and in the printed order, each doing
// what its printed comment says.

jest.setTimeout(180_000);

describe('every command npm run demo prints does what its comment says', () => {
  const root = demoRoot();

  beforeAll(async () => {
    await startDemo({ root, inCluster: false, build: false, log: () => {} });
  }, 300_000);

  afterAll(async () => {
    await stopDemo(root);
    rmSync(root, { recursive: true, force: true });
  }, 120_000);

  test.each(demoCommands(false).map((c): [string, DemoCommand] => [`${c.command}${c.comment ? `   # ${c.comment}` : ''}`, c]))('%s', async (_title, cmd) => {
    expectOutcome(cmd, await runDemoCommand(cmd, root));
  });
});
