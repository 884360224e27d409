// Installs the locked dependencies when node_modules is missing or older than package-lock.json.
// Runs under whatever Node.js npm found first (a fresh clone has no node_modules/.bin/node yet), so it
// uses nothing but Node's standard library. It runs `npm install`, which installs the locked versions,
// rather than `npm ci`: npm 11 refuses `npm ci` when the lock omits the optional per-platform packages
// of @swc/core and the resolver that Jest uses, which it does when written with
// omit-lockfile-registry-resolved set.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
if (stale) {
  console.error('installing dependencies (npm install, locked versions)...');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
