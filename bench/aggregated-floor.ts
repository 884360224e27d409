/**
 * The floor of an aggregated request (goal: Paddock's owner list through kube-apiserver within 1.5× of it):
 * `aggregated-floor-server.mjs` registered as the APIService of a group of its own, answering a copy of
 * Paddock's bytes from memory. A client's request to it takes the path kubectl's request to Paddock takes
 * — kube-apiserver's authentication and RBAC authorization, the aggregator's proxy over TLS to an
 * ExternalName Service on localhost with Paddock's serving certificate — and nothing else.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { b64 } from '../test/controlplane/pki';
import { killGroup, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster } from './cluster';
import type { Client } from './http';

const SERVER = resolve(__dirname, 'aggregated-floor-server.mjs');
const GROUP = 'floor.bench.paddock.dev';
const API_SERVICE = `v1alpha1.${GROUP}`;
/** Every authenticated user may list it, as every one may list Paddock's tenantnamespaces. */
const ROLE = 'paddock-bench:aggregated-floor';
export const AGGREGATED_FLOOR_PATH = `/apis/${GROUP}/v1alpha1/tenantnamespaces`;

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';

async function replace(admin: Client, collection: string, obj: { metadata: { name: string } }): Promise<void> {
  await admin.send('DELETE', `${collection}/${obj.metadata.name}`);
  const res = await admin.postJson<unknown>(collection, obj);
  if (res.status !== 201) throw new Error(`POST ${collection}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

/**
 * Starts the floor server answering `body`, registers it, and resolves once `probe` (a client of the user
 * whose answer `body` is, towards kube-apiserver) receives exactly `body` through the aggregator.
 */
export async function startAggregatedFloor(cluster: BenchCluster, body: Buffer, probe: Client): Promise<{ stop(): Promise<void> }> {
  const { dir, pki } = cluster.state;
  const portFile = join(dir, 'aggregated-floor.port');
  const bodyFile = join(dir, 'aggregated-floor.body');
  rmSync(portFile, { force: true });
  writeFileSync(bodyFile, body);
  const pid = startDetached(process.execPath, [SERVER, pki.paddockServing.cert, pki.paddockServing.key, pki.frontProxyCa.cert, bodyFile, portFile],
    join(dir, 'logs', 'aggregated-floor-server.log'));
  const admin = cluster.admin;
  const stop = async () => {
    await admin.send('DELETE', `${APISERVICES}/${API_SERVICE}`);
    await killGroup(pid);
  };
  try {
    await waitFor('the aggregated floor server', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 10_000, 50);
    const port = Number(readFileSync(portFile, 'utf8'));
    await replace(admin, `${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: ROLE },
      rules: [{ apiGroups: [GROUP], resources: ['tenantnamespaces'], verbs: ['get', 'list'] }],
    } as { metadata: { name: string } });
    await replace(admin, `${RBAC}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: ROLE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: ROLE },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
    } as { metadata: { name: string } });
    // Paddock's ExternalName Service (to localhost) and serving certificate, at the floor server's port:
    // kube-aggregator takes the port from the APIService and verifies `<service>.<namespace>.svc`.
    await replace(admin, APISERVICES, {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: API_SERVICE },
      spec: {
        group: GROUP, version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 15,
        service: { name: 'paddock-apiserver', namespace: 'paddock-system', port }, caBundle: b64(pki.ca.cert),
      },
    } as { metadata: { name: string } });
    await waitFor(`APIService ${API_SERVICE} answering the copy`, async () => {
      const res = await probe.get(AGGREGATED_FLOOR_PATH);
      return res.status === 200 && res.body.equals(body);
    }, 60_000, 250);
    return { stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
