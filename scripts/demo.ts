// `npm run demo`: a local control plane with Paddock and the example tenants, until Ctrl-C.
// `npm run demo -- --detach` returns once everything is up and leaves it running; `npm run demo:down`
// stops it. Kubeconfigs for admin, alice, bob and carol are written to .paddock/kubeconfig-<user>.
// `npm run demo -- --in-cluster` adds the test bed's node (root, see the README) and installs Paddock in the
// cluster with `kubectl apply -k apiservice/` (image built from the Dockerfile) instead of running it here.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startControlPlane, stopControlPlane, type ControlPlaneState } from '../test/controlplane/controlplane';
import { buildPaddock, installPaddockIdentity, registerApiService, startPaddock } from '../test/controlplane/paddock';
import { ensurePaddockImage, importImage, nodeSkipReason, startNode, stopNode, writeInstallOverlay } from '../test/controlplane/node';
import { killGroup, waitFor } from '../test/controlplane/processes';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { installCrds, installGatewayApiCrds } from '../test/controlplane/crds';

const REPO = resolve(__dirname, '..');
const DIR = join(REPO, '.paddock', 'demo');
const USERS = ['admin', 'alice', 'bob', 'carol'];
const PADDOCK_PID = join(DIR, 'paddock.pid');
const NODE_DIR = join(REPO, '.paddock', 'demo-node');

function kubectl(state: ControlPlaneState, user: string, args: string[]): string {
  return execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs[user], ...args], { encoding: 'utf8' });
}

async function up(detach: boolean, inCluster: boolean): Promise<void> {
  const reason = inCluster ? nodeSkipReason() : undefined;
  if (reason) throw new Error(`--in-cluster needs the test bed's node, which this machine cannot run: ${reason}`);
  const state = await startControlPlane({ dir: DIR, log: (l) => console.log(l) });
  for (const user of USERS) copyFileSync(state.kubeconfigs[user], join(REPO, '.paddock', `kubeconfig-${user}`));
  await installCrds(state.kubeconfigs.admin);
  await installGatewayApiCrds(state.kubeconfigs.admin);
  if (inCluster) {
    console.log('starting the node and building the image from the Dockerfile (first use builds for several minutes)...');
    const node = await startNode(state, { dir: NODE_DIR, log: (l) => console.log(l) });
    importImage(node, ensurePaddockImage());
    const t0 = Date.now();
    process.stdout.write(kubectl(state, 'admin', ['apply', '-k', writeInstallOverlay(join(REPO, '.paddock', 'demo-overlay'))]));
    await waitFor('APIService v1alpha1.tenancy.paddock.dev Available', async () =>
      kubectl(state, 'admin', ['get', 'apiservice', 'v1alpha1.tenancy.paddock.dev', '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}']) === 'True', 120_000, 250);
    console.log(`Paddock installed with kubectl apply -k apiservice/; APIService Available after ${Date.now() - t0} ms`);
  } else {
    console.log('building Paddock (tsc)...');
    buildPaddock();
    const paddock = await startPaddock(state, installPaddockIdentity(state), { name: 'paddock' });
    writeFileSync(PADDOCK_PID, String(paddock.pid));
    await registerApiService(state, paddock.port);
    console.log(`Paddock serving on https://127.0.0.1:${paddock.port} (log: ${paddock.log}); APIService v1alpha1.tenancy.paddock.dev is Available`);
  }
  const examples = readdirSync(join(REPO, 'examples')).filter((f) => /^tenant-.*\.yaml$/.test(f));
  for (const file of examples) process.stdout.write(kubectl(state, 'admin', ['apply', '-f', join(REPO, 'examples', file)]));
  kubectl(state, 'admin', ['wait', '--for=condition=Ready', 'tenants', '--all', '--timeout=60s']);
  console.log('\n$ kubectl get tenants -o wide');
  process.stdout.write(kubectl(state, 'admin', ['get', 'tenants', '-o', 'wide']));
  for (const user of USERS) {
    console.log(`\n$ kubectl --kubeconfig .paddock/kubeconfig-${user} get tns${user === 'admin' ? ' -o wide' : ''}`);
    const out = execFileSync('kubectl', ['--kubeconfig', state.kubeconfigs[user], 'get', 'tns', ...(user === 'admin' ? ['-o', 'wide'] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(out || 'No resources found\n');
  }
  printWhatToTry(inCluster);
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

/** Stops Paddock, the node (with --in-cluster), then the control plane. */
async function down(): Promise<void> {
  if (existsSync(PADDOCK_PID)) await killGroup(Number(readFileSync(PADDOCK_PID, 'utf8')));
  const leftovers = await stopNode(NODE_DIR);
  if (leftovers.length) console.error(`the node's teardown left behind:\n  ${leftovers.join('\n  ')}`);
  await stopControlPlane(DIR);
}

function printWhatToTry(inCluster: boolean): void {
  const kc = (u: string) => `.paddock/kubeconfig-${u}`;
  console.log(`
Paddock demo is up. Kubeconfigs: ${USERS.map(kc).join(', ')}

Try:
  export KUBECONFIG=${kc('admin')}
  kubectl get tenants -o wide                          # oil (owner alice), gas (owner group gas-devs)
  kubectl get tns -o wide                             # every tenant namespace, with quota used/hard
  kubectl --kubeconfig ${kc('alice')} get tns           # alice sees oil only
  kubectl --kubeconfig ${kc('bob')} get tns -w          # bob (group gas-devs) watches gas only
  kubectl --kubeconfig ${kc('carol')} get tns           # carol owns nothing: No resources found
  kubectl --kubeconfig ${kc('alice')} create -f examples/self-service/tenantnamespace-oil-dev.yaml
  kubectl --kubeconfig ${kc('alice')} delete tns oil-dev
  kubectl explain tns.status.quota
  kubectl delete quota paddock-quota-0 -n oil-production && kubectl get quota -n oil-production   # repaired`);
  if (inCluster) {
    console.log(`
In the cluster (node paddock-node):
  kubectl get pods,svc,pdb -n paddock-system -o wide    # 2 replicas behind the Service paddock-apiserver
  kubectl get lease paddock-controller -n paddock-system # the leader
  kubectl rollout restart deployment/paddock -n paddock-system && kubectl --kubeconfig ${kc('alice')} get tns -w
  kubectl get secret paddock-serving-cert -n paddock-system   # the serving certificate Paddock made
  kubectl run echo -n oil-production --image=localhost/netcheck:1 --image-pull-policy=Never -- serve
  kubectl run probe -n oil-staging --image=localhost/netcheck:1 --image-pull-policy=Never -- serve
  kubectl exec -n oil-staging probe -- /netcheck probe tcp <echo pod IP>:8080   # same tenant: ok`);
  }
}

const args = process.argv.slice(2);
(args.includes('--down') ? down().then(() => console.log('demo stopped')) : up(args.includes('--detach'), args.includes('--in-cluster'))).catch((err) => {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
});
