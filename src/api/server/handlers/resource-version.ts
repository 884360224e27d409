import type { ServedResource } from '../../registration/served-resource';
import { RESOURCE_VERSION_WAIT_MS } from '../../storage/change-log';

/**
 * A resourceVersion another replica issued and this one has not reached yet is waited for (up to
 * RESOURCE_VERSION_WAIT_MS), as kube-apiserver waits for a revision its watch cache has not seen. Only a
 * caller that passes `admit` (the verb's own checks) waits, and waiting holds no in-flight slot (the
 * change log bounds how many wait at once). The read that follows places `rv` again: still ahead is 504.
 */
export async function awaitResourceVersion(resource: ServedResource, rv: string | undefined, admit: () => Promise<void>): Promise<void> {
  if (!rv || resource.storage.locate(rv) !== 'ahead') return;
  await admit();
  await resource.storage.whenReached(rv, RESOURCE_VERSION_WAIT_MS);
}
