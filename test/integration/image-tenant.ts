/**
 * A Tenant that restricts only where images come from, owned by alice, with one namespace: for the suites
 * that check, through real kubectl and kube-apiserver, which images the tenant's admission policy lets in.
 */
import { applyObject, kubectl, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';

export interface ImageTenant {
  name: string;
  /** The tenant's one namespace. */
  ns: string;
  allowed: string[];
}

/** An image no test tenant allows: once refused, kube-apiserver enforces the tenant's policy. */
const PROBE_IMAGE = 'quay.io/probe/never-allowed';

/** Creates the Tenant and returns once kube-apiserver enforces its registry list in its namespace. */
export async function createImageTenant(prefix: string, allowed: string[]): Promise<ImageTenant> {
  const name = uniqueName(prefix);
  const t: ImageTenant = { name, ns: `${name}-app`, allowed };
  await applyObject(tenant(name, { namespaces: ['app'], containerRegistries: { allowed } }));
  await waitFor(`the default service account of ${t.ns}`, async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', t.ns])).code === 0, 60_000, 250);
  await waitFor(`kube-apiserver enforcing tenant ${name}'s registries`, async () => (await dryRunPod(t, pod([container(PROBE_IMAGE)]))).stderr.includes('paddock-tenant-restrictions'), 60_000, 250);
  return t;
}

export async function deleteImageTenant(t: ImageTenant): Promise<void> {
  await kubectl('admin', ['delete', 'tenant', t.name, '--wait=false']);
}

export const container = (image: string, name = 'c') => ({ name, image });

/** A Pod manifest; `spec` adds to or replaces the given containers. */
export const pod = (containers: unknown[], spec: Record<string, unknown> = {}, name = 'p') => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers, ...spec },
});

/** `kubectl create --dry-run=server` as alice in the tenant's namespace: admission runs in full, nothing is stored. */
export function dryRunPod(t: ImageTenant, obj: unknown): Promise<KubectlResult> {
  return kubectl('alice', ['create', '-n', t.ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
}

/** Whether the tenant's restrictions policy refused the request (not kube-apiserver's own validation). */
export function refusedByPolicy(res: KubectlResult): boolean {
  return res.code !== 0 && res.stderr.includes('paddock-tenant-restrictions');
}
