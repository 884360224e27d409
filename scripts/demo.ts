// `npm run demo`: a local control plane with Paddock and the example tenants, until Ctrl-C.
// `npm run demo -- --detach` returns once everything is up and leaves it running; `npm run demo:down`
// stops it. Kubeconfigs for admin, alice, bob and carol are written to .paddock/kubeconfig-<user>.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startControlPlane, stopControlPlane, type ControlPlaneState } from '../test/controlplane/controlplane';

const REPO = resolve(__dirname, '..');
const DIR = join(REPO, '.paddock', 'demo');
const USERS = ['admin', 'alice', 'bob', 'carol'];

function kubectl(state: ControlPlaneState, user: string, args: string[]): string {
  return execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs[user], ...args], { encoding: 'utf8' });
}

async function up(detach: boolean): Promise<void> {
  const state = await startControlPlane({ dir: DIR, log: (l) => console.log(l) });
  for (const user of USERS) copyFileSync(state.kubeconfigs[user], join(REPO, '.paddock', `kubeconfig-${user}`));
  kubectl(state, 'admin', ['apply', '--server-side', '-k', join(REPO, 'schemas')]);
  kubectl(state, 'admin', ['wait', '--for=condition=Established', 'crd/tenants.paddock.dev']);
  const examples = readdirSync(join(REPO, 'examples')).filter((f) => /^tenant-.*\.yaml$/.test(f));
  for (const file of examples) process.stdout.write(kubectl(state, 'admin', ['apply', '-f', join(REPO, 'examples', file)]));
  printWhatToTry();
  if (detach) {
    console.log('\nLeft running. Stop it with: npm run demo:down');
    return;
  }
  console.log('\nRunning until Ctrl-C.');
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  console.log('stopping...');
  await stopControlPlane(DIR);
}

function printWhatToTry(): void {
  const kc = (u: string) => `.paddock/kubeconfig-${u}`;
  console.log(`
Paddock demo is up. Kubeconfigs: ${USERS.map(kc).join(', ')}

Try:
  export KUBECONFIG=${kc('admin')}
  kubectl get tenants -o wide                      # the example tenants oil (alice) and gas (group gas-devs)
  kubectl get tenant oil -o yaml
  kubectl --kubeconfig ${kc('alice')} auth whoami
  kubectl --kubeconfig ${kc('bob')} auth whoami     # bob is in group gas-devs`);
}

const args = process.argv.slice(2);
(args.includes('--down') ? stopControlPlane(DIR).then(() => console.log('demo stopped')) : up(args.includes('--detach'))).catch((err) => {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
});
