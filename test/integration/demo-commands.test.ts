import { rmSync } from 'node:fs';
import { demoCommands, type DemoCommand } from '../../scripts/demo-commands';
import { startDemo, stopDemo } from '../../scripts/demo-environment';
import { demoRoot, expectOutcome, readmeTenantNamespaceSamples, runDemoCommand, withoutAge } from './demo-run';

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

  // First, as the demo has just started: the README shows its state then.
  test.each(readmeTenantNamespaceSamples().map((s): [string, typeof s] => [s.command, s]))('the README shows what the demo shows: $ %s', async (_title, sample) => {
    const run = await runDemoCommand({ command: sample.command, outcome: { kind: 'succeeds' } }, root);
    expect(run.code).toBe(0);
    expect(withoutAge(run.output)).toEqual(withoutAge(sample.output));
  });

  test.each(demoCommands(false).map((c): [string, DemoCommand] => [`${c.command}${c.comment ? `   # ${c.comment}` : ''}`, c]))('%s', async (_title, cmd) => {
    expectOutcome(cmd, await runDemoCommand(cmd, root));
  });
});
