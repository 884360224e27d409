import type { KubectlResult } from './env';

/**
 * What kube-apiserver answered under Paddock's restrictions policy, for the suites that assert it:
 * refused by the policy itself (not by kube-apiserver's own validation), or accepted as JSON.
 */
export function refused(res: KubectlResult, ...mentions: string[]): void {
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('paddock-tenant-restrictions');
  for (const m of mentions) expect(res.stderr).toContain(m);
}

/** The object a dry run (`-o json`) returned; throws with kube-apiserver's refusal otherwise. */
export function accepted(res: KubectlResult): any {
  if (res.code !== 0) throw new Error(`refused: ${res.stderr}`);
  return JSON.parse(res.stdout);
}
