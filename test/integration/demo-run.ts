import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEMO_SHELL_SETUP, type DemoCommand } from '../../scripts/demo-commands';
import { parseTable } from './env';

/**
 * A directory laid out like the repository's root for the printed commands: `examples/` (the
 * repository's own) and `.paddock/`, where the demo (or a suite) writes the users' kubeconfigs. A
 * demo a developer runs from the repository is left alone.
 */
export function demoRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'paddock-demo-'));
  mkdirSync(join(root, '.paddock'));
  symlinkSync(resolve(__dirname, '..', '..', 'examples'), join(root, 'examples'));
  return root;
}

export interface DemoRun {
  code: number | null;
  /** stdout and stderr as a terminal shows them, interleaved. */
  output: string;
}

/**
 * Runs `cmd.command` exactly as printed, in bash from `root` after the printed setup line. A command
 * that `watches` is stopped (its process group) once its output shows what the comment promises; any
 * other must exit by itself within `timeoutMs`.
 */
export function runDemoCommand(cmd: DemoCommand, root: string, timeoutMs = 120_000): Promise<DemoRun> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', `${DEMO_SHELL_SETUP}\n${cmd.command}`], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch { /* already gone */ }
    };
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`${cmd.command}: no ${cmd.outcome.kind === 'watches' ? 'matching output' : 'exit'} within ${timeoutMs} ms; output so far:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (cmd.outcome.kind === 'watches' && cmd.outcome.shows.test(output)) stop();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Checks a run against what the printed comment promises (see DemoOutcome). */
export function expectOutcome(cmd: DemoCommand, run: DemoRun): void {
  const o = cmd.outcome;
  const context = `$ ${cmd.command}\n${run.output}`;
  if (o.kind === 'succeeds') expect({ code: run.code, context }).toEqual({ code: 0, context });
  if (o.kind === 'refused') expect({ failed: run.code !== 0, context }).toEqual({ failed: true, context });
  for (const re of o.kind === 'succeeds' ? o.shows ?? [] : [o.shows]) expect(run.output).toMatch(re);
  for (const re of o.kind === 'refused' ? [] : o.hides ?? []) expect(run.output).not.toMatch(re);
}

/** A `$ command` of a README console block with the output printed under it. */
export interface ReadmeSample {
  command: string;
  output: string;
}

/**
 * The README's samples of what the demo's users see of their tenant namespaces: every `$ kubectl
 * --kubeconfig .paddock/kubeconfig-<user> get tns|tenantnamespaces …` in a console block, with its output.
 */
export function readmeTenantNamespaceSamples(): ReadmeSample[] {
  const readme = readFileSync(resolve(__dirname, '..', '..', 'README.md'), 'utf8');
  const samples: ReadmeSample[] = [];
  for (const block of readme.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const part of block[1]!.split(/^\$ /m).slice(1)) {
      const [command, ...output] = part.replace(/\n+$/, '').split('\n');
      if (/^kubectl --kubeconfig \.paddock\/kubeconfig-\w+ get (tns|tenantnamespaces)\b/.test(command!)) samples.push({ command: command!, output: output.join('\n') });
    }
  }
  return samples;
}

/** kubectl's table output (or its one-line answer) without the AGE column, which no two runs share. */
export function withoutAge(output: string): string[][] | string {
  if (!/^NAME\s/.test(output)) return output.trim();
  const rows = parseTable(output);
  return rows.map((r) => Object.entries(r).filter(([k]) => k !== 'AGE').map(([k, v]) => `${k}=${v}`));
}
