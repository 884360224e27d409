// `npm test`: builds (or finds cached) control-plane binaries, type-checks, runs the unit and integration
// suites (the integration global setup starts one local control plane for the run and its teardown stops
// it), then prints `tests: N passed, N failed` as its last line and writes it to .paddock/.
// Flags: --unit or --integration to run one project; anything else is passed to Jest.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(`Node.js ${process.version} found; Paddock needs Node.js 24 (installed into node_modules by npm ci).`);
  process.exit(1);
}
mkdirSync('.paddock', { recursive: true });
const args = process.argv.slice(2);
const projects = args.includes('--unit') ? ['unit'] : args.includes('--integration') ? ['integration'] : ['unit', 'integration'];
const jestArgs = args.filter((a) => a !== '--unit' && a !== '--integration');

if (projects.includes('integration') && !process.env.PADDOCK_CONTROLPLANE_BIN) {
  // Build once here, before Jest starts, so that a cold build is reported plainly and not inside a test.
  const out = execFileSync('bash', ['test/controlplane/build-binaries.sh'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.env.PADDOCK_CONTROLPLANE_BIN = out.trim().split('\n').pop();
}
// helm, built from its Go module like the control plane (the chart, Helm and GitOps suites).
for (const [tool, env] of [['helm', 'PADDOCK_HELM']]) {
  if (!projects.includes('integration') || process.env[env]) continue;
  const out = execFileSync('bash', ['test/controlplane/build-tool.sh', tool], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.env[env] = out.trim().split('\n').pop();
}

// The node suites (test/integration/node-*.test.ts) need a node: decide here whether this machine can run
// one, and build it before Jest starts when it can. Suites report themselves skipped with this reason.
const paths = jestArgs.filter((a) => !a.startsWith('-'));
// A path argument selects node suites when it names one (node-*.test.ts) or is not a single test file.
const selects = (word) => paths.length === 0 || paths.some((p) => {
  const base = p.split('/').pop();
  return base.startsWith(word) || !base.includes('.test');
});
const nodeSuitesSelected = projects.includes('integration') && selects('node');
if (nodeSuitesSelected && process.env.PADDOCK_NODE_SKIP_REASON === undefined) {
  const check = spawnSync('bash', ['test/controlplane/node-check.sh'], { encoding: 'utf8' });
  process.env.PADDOCK_NODE_SKIP_REASON = check.status === 0 ? '' : (check.stdout.trim() || `node-check.sh exited ${check.status}`);
}
if (nodeSuitesSelected && !process.env.PADDOCK_NODE_SKIP_REASON && !process.env.PADDOCK_NODE_BIN) {
  const out = execFileSync('bash', ['test/controlplane/build-node.sh'], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.env.PADDOCK_NODE_BIN = out.trim().split('\n').pop();
}
if (process.env.PADDOCK_NODE_SKIP_REASON) console.error(`node suites will be skipped: ${process.env.PADDOCK_NODE_SKIP_REASON}`);

let failedChecks = 0;
console.error('type-checking (tsc --noEmit)...');
if (spawnSync('tsc', ['--noEmit', '-p', 'tsconfig.json'], { stdio: 'inherit' }).status !== 0) failedChecks++;
// Unused files, exports and dependencies (knip.json); import cycles are src/dependencies.test.ts's.
console.error('linting (knip)...');
if (spawnSync('knip', ['--no-progress'], { stdio: 'inherit' }).status !== 0) failedChecks++;
// Integration suites run the compiled program (dist/), as the container image does: compiled afresh, so
// that no output of a module that has moved is left behind to be loaded instead of its new place.
if (projects.includes('integration')) {
  rmSync('dist', { recursive: true, force: true });
  if (spawnSync('tsc', ['-p', 'tsconfig.build.json'], { stdio: 'inherit' }).status !== 0) failedChecks++;
}
// The install suites (kubectl apply -k, helm) deploy the image built from the Dockerfile (reused while its inputs are unchanged).
if (nodeSuitesSelected && !process.env.PADDOCK_NODE_SKIP_REASON && (selects('node-install') || selects('node-helm'))) {
  const image = spawnSync('bash', ['test/controlplane/build-image.sh', '.paddock/image/paddock.tar'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (image.status !== 0) console.error('building the image failed; the install suite will report it');
}

const results = '.paddock/jest-results.json';
// A run that ends before Jest writes its results must not be counted from an earlier run's.
rmSync(results, { force: true });
// Integration suites share one control plane and two Paddock replicas that some suites restart: they run
// one at a time.
const serial = projects.includes('integration') ? ['--runInBand'] : [];
const jest = spawnSync('jest', ['--selectProjects', ...projects, ...serial, '--json', `--outputFile=${results}`, ...jestArgs], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
});

// Whatever happened to Jest, leave no control-plane process behind.
stopLeftovers('.paddock/test/paddock.json', (s) => s.replicas.map((r) => r.pid));
stopLeftovers('.paddock/test/state.json', (s) => Object.values(s.pids));
// The global teardown stops the node and undoes its changes to the host; this only ends its processes if
// Jest died before it (the next node start finishes the cleanup from the state it left).
stopLeftovers('.paddock/node/node.json', (s) => Object.entries(s.pids).filter(([name]) => name !== 'lock').map(([, pid]) => pid));

let passed = 0;
let failed = failedChecks;
if (existsSync(results)) {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
  if (r.numTotalTests === 0) failed++;
} else {
  failed++;
}
let skippedNote = '';
if (existsSync(results)) {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  if (r.numPendingTests > 0) skippedNote = `${r.numPendingTests} skipped (${process.env.PADDOCK_NODE_SKIP_REASON ? `no node: ${process.env.PADDOCK_NODE_SKIP_REASON}` : 'see above'})`;
}
if (skippedNote) console.log(`tests: ${skippedNote}`);
const summary = `tests: ${passed} passed, ${failed} failed`;
writeFileSync('.paddock/test-summary.txt', summary + '\n');
console.log(summary);
process.exit(failed === 0 && jest.status === 0 ? 0 : 1);

function stopLeftovers(stateFile, pidsOf) {
  if (!existsSync(stateFile)) return;
  for (const pid of pidsOf(JSON.parse(readFileSync(stateFile, 'utf8')))) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already stopped by the global teardown */
    }
  }
}
