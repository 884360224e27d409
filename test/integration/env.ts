import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlaneState } from '../controlplane/controlplane';
import { TEST_CONTROL_PLANE_DIR } from './global-setup';

/** The control plane the global setup started for this run. */
export function controlPlane(): ControlPlaneState {
  return JSON.parse(readFileSync(join(TEST_CONTROL_PLANE_DIR, 'state.json'), 'utf8')) as ControlPlaneState;
}

/** A name no other suite of this run uses: `<prefix>-<6 hex>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real kubectl as `user` (admin, alice, bob, carol); never throws, the exit code is in the result. */
export function kubectl(user: string, args: string[], input?: string): Promise<KubectlResult> {
  const kubeconfig = controlPlane().kubeconfigs[user];
  if (!kubeconfig) throw new Error(`no kubeconfig for user ${user}`);
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 64 << 20, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/**
 * Parses kubectl's human-readable table output by the header's column positions (cells may be empty, so
 * splitting on whitespace would shift them). Returns one record per row, keyed by header.
 */
export function parseTable(output: string): Record<string, string>[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index! }));
  return lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    starts.forEach((col, i) => {
      row[col.name] = line.slice(col.at, i + 1 < starts.length ? starts[i + 1].at : undefined).trim();
    });
    return row;
  });
}
