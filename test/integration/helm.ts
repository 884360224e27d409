import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { toolBinary } from '../controlplane/tools';
import { kubeconfigOf, type KubectlResult } from './env';

export const REPO = resolve(__dirname, '..', '..');
export const CHART = join(REPO, 'charts', 'paddock');
/** Helm's cache, config and data stay in the run's directory, not in the user's home. */
const HELM_HOME = join(REPO, '.paddock', 'helm');

/** Runs the real helm (built from its Go module) as `user` (see kubeconfigOf); never throws. */
export function helm(user: string | undefined, args: string[], timeoutMs = 300_000): Promise<KubectlResult> {
  mkdirSync(HELM_HOME, { recursive: true });
  const kubeconfig = user === undefined ? [] : ['--kubeconfig', kubeconfigOf(user)!];
  const env = { ...process.env, HELM_CACHE_HOME: join(HELM_HOME, 'cache'), HELM_CONFIG_HOME: join(HELM_HOME, 'config'), HELM_DATA_HOME: join(HELM_HOME, 'data') };
  return new Promise((done) => {
    execFile(toolBinary('helm'), [...kubeconfig, ...args], { env, cwd: REPO, maxBuffer: 64 << 20, timeout: timeoutMs },
      (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

export interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The objects of a multi-document YAML stream (empty documents dropped). */
export function objectsOf(yaml: string): Rendered[] {
  return (loadAll(yaml) as (Rendered | null)[]).filter((o): o is Rendered => o !== null);
}

/** `helm template` of the chart into paddock-system with `args` (values); throws with helm's stderr on failure. */
export async function renderChart(args: string[] = []): Promise<Rendered[]> {
  const res = await helm(undefined, ['template', 'paddock', CHART, '--namespace', 'paddock-system', '--include-crds', ...args]);
  if (res.code !== 0) throw new Error(`helm template failed: ${res.stderr}`);
  return objectsOf(res.stdout);
}
