import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { sleep, waitFor } from '../../src/testing/wait';

/** A port on 127.0.0.1 that was free a moment ago (the OS picked it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts `command` in a process group of its own, detached from ours, with stdout and stderr appended to
 * `logFile`. Returns its pid, which is also its process-group id (see {@link killGroup}).
 */
export function startDetached(command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): number {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env });
    child.unref();
    if (!child.pid) throw new Error(`could not start ${command}`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends SIGTERM to the process group `pid`, then SIGKILL after `graceMs`; resolves once it is gone. */
export async function killGroup(pid: number, graceMs = 5000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (isAlive(pid)) signal('SIGKILL');
  while (isAlive(pid)) await sleep(20);
}

/** Waiting is shared with the unit tests. */
export { sleep, waitFor };
