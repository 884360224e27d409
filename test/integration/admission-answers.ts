import { kubectl, kubectlJson, waitFor, type KubectlResult } from './env';

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

/**
 * Resolves once Tenant `name` is Ready for its current generation and the TenantRestriction of its
 * namespace `ns` exists: kube-apiserver's policies have their parameter there.
 */
export async function readyWithRestriction(name: string, ns: string): Promise<void> {
  await waitFor(`tenant ${name} Ready with its TenantRestriction`, async () => {
    const t = await kubectlJson('admin', ['get', 'tenant', name]);
    const ready = t.status?.conditions?.find((c: any) => c.type === 'Ready');
    if (ready?.status !== 'True' || t.status?.observedGeneration !== t.metadata.generation) return false;
    return (await kubectl('admin', ['get', '-n', ns, 'tenantrestriction/paddock-restrictions'])).code === 0;
  }, 60_000, 250);
}
