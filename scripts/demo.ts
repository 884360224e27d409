// `npm run demo`: a local control plane with Paddock and the example tenants, until Ctrl-C.
// `npm run demo -- --detach` returns once everything is up and leaves it running; `npm run demo:down`
// stops it. Kubeconfigs for admin, alice, bob and carol are written to .paddock/kubeconfig-<user>.
// `npm run demo -- --in-cluster` adds the test bed's node (root, see the README) and installs Paddock in the
// cluster with `kubectl apply -k apiservice/` (image built from the Dockerfile) instead of running it here.
// What it prints to try is demo-commands.ts, the list the demo-commands tests run.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_SHELL_SETUP, DEMO_USERS, demoCommands, formatCommands, inClusterCommands, kubeconfigPath } from './demo-commands';
import { startDemo, stopDemo } from './demo-environment';

const REPO = resolve(__dirname, '..');

async function up(detach: boolean, inCluster: boolean): Promise<void> {
  const state = await startDemo({ root: REPO, inCluster, log: (l) => console.log(l) });
  console.log('\n$ kubectl get tenants -o wide');
  process.stdout.write(execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs.admin, 'get', 'tenants', '-o', 'wide'], { encoding: 'utf8' }));
  for (const user of DEMO_USERS) {
    console.log(`\n$ kubectl --kubeconfig ${kubeconfigPath(user)} get tns${user === 'admin' ? ' -o wide' : ''}`);
    const out = execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs[user], 'get', 'tns', ...(user === 'admin' ? ['-o', 'wide'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(out || 'No resources found\n');
  }
  console.log(`
Paddock demo is up. Kubeconfigs: ${DEMO_USERS.map(kubeconfigPath).join(', ')}

Try, from the repository's root:
  ${DEMO_SHELL_SETUP}
${formatCommands(demoCommands(inCluster))}`);
  if (inCluster) console.log(`\nIn the cluster (node paddock-node):\n${formatCommands(inClusterCommands())}`);
  if (detach) {
    console.log('\nLeft running. Stop it with: npm run demo:down');
    return;
  }
  console.log('\nRunning until Ctrl-C.');
  // Signal listeners alone do not keep Node running (every child is detached): hold a timer until one comes.
  const keepAlive = setInterval(() => {}, 1 << 30);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  clearInterval(keepAlive);
  console.log('stopping...');
  await down();
}

async function down(): Promise<void> {
  const leftovers = await stopDemo(REPO);
  if (leftovers.length) console.error(`the node's teardown left behind:\n  ${leftovers.join('\n  ')}`);
}

const args = process.argv.slice(2);
(args.includes('--down') ? down().then(() => console.log('demo stopped')) : up(args.includes('--detach'), args.includes('--in-cluster'))).catch((err) => {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
});
