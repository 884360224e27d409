import type { KubeObject } from '../../../kube/types';

/**
 * The default resourceVersion of a TenantNamespace: the largest resourceVersion among the objects it is
 * joined from (its Namespace, Tenant and ResourceQuotas).
 *
 * All of them come from one kube-apiserver whose resourceVersions are etcd revisions — one counter for
 * every object — so the largest is a revision at which this view was current, it grows whenever one of
 * the sources changes, and a client can hand it back as `resourceVersion` in kube's number space.
 * Known limit: removing a source (a quota deleted, the Tenant gone) changes the view without raising the
 * maximum. The watch layer replaces this with the revision of its own change log, which has no such gap.
 *
 * Non-numeric resourceVersions (never seen from kube-apiserver) are ignored; none at all gives "0".
 */
export function deriveResourceVersion(sources: readonly (KubeObject | undefined)[]): string {
  let max = 0n;
  for (const source of sources) {
    const rv = source?.metadata.resourceVersion;
    if (!rv || !/^\d+$/.test(rv)) continue;
    const n = BigInt(rv);
    if (n > max) max = n;
  }
  return max.toString();
}
