/**
 * What the watch suites share: their Tenants (namespaces deleted with them), waiting for rows to be
 * served, admin patches without a kubectl process each, and reading straight from one replica.
 */
import { httpsGet } from '../controlplane/controlplane';
import { controlPlane, httpsRequest, kubectl, waitFor } from './env';
import { replicas } from './paddock-env';
import type { WatchEventLine } from './watch-client';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { TenantOwner, TenantSpec } from '../../src/kube/types';

export function tenant(name: string, owners: TenantOwner[], namespaces: string[], extra: Partial<TenantSpec> = {}) {
  return tenantNamed(name, { owners, namespaces, deletionPolicy: 'Delete', ...extra });
}
export const ALICE: TenantOwner[] = [{ kind: 'User', name: 'alice' }];
export const GAS_DEVS: TenantOwner[] = [{ kind: 'Group', name: 'gas-devs' }];

export async function served(names: string[]): Promise<void> {
  await waitFor(`rows ${names.join(', ')}`, async () => (await kubectl('admin', ['get', 'tns', ...names])).code === 0, 60_000, 200);
}

/** A merge patch through kube-apiserver as admin, without a kubectl process per change. */
export async function patchAsAdmin(path: string, body: unknown): Promise<number> {
  const { pki, server } = controlPlane();
  const res = await httpsRequest(`${server}${path}`, { cert: pki.users.admin, method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify(body) });
  return res.status;
}

export const portOf = (identity: string) => replicas().find((r) => r.identity === identity)!.port;
export const kinds = (events: WatchEventLine[]) => events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}`);

export const BOB: TenantOwner[] = [{ kind: 'User', name: 'bob' }];
export const ownerNames = (o: any): string[] => (o?.status?.owners ?? []).map((x: { name: string }) => x.name);
export const tnsPath = (name = '') => `/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces${name ? `/${name}` : ''}`;

/** Whether `user` gets `name` from replica `identity` (straight to it, not through kube-apiserver). */
export async function getsRow(identity: string, user: 'alice' | 'bob', name: string): Promise<boolean> {
  const { pki } = controlPlane();
  return (await httpsGet(`https://127.0.0.1:${portOf(identity)}${tnsPath(name)}`, pki, pki.users[user])).status === 200;
}
