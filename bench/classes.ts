import type { BenchCluster } from './cluster';
import { ACCEPT_TABLE, pool } from './http';
import { measure, type ListResult, type Target } from './list';
import { ALICE_TENANT, type BenchConfig } from './scenarios';

const TSC = '/apis/tenancy.paddock.dev/v1alpha1/tenantstorageclasses';
const STORAGE_CLASSES = '/apis/storage.k8s.io/v1/storageclasses';

/**
 * Scenario: one owner lists the storage classes its tenant may use (`kubectl get tsc`), with `classes`
 * StorageClasses in the cluster and every bench Tenant in place (2k at the full size). alice's tenant
 * allows the classes labelled `tier=gold` (a tenth of them). Baseline: what a label-injecting proxy
 * (capsule-proxy) sends — kube-apiserver's StorageClass list with `labelSelector=tier=gold`, as a Table.
 */
export async function allowedClassesList(cluster: BenchCluster, config: BenchConfig, size: number, classes: number): Promise<ListResult> {
  await pool(Array.from({ length: classes }, (_, i) => i), 16, async (i) => {
    const res = await cluster.admin.postJson(STORAGE_CLASSES, {
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass',
      metadata: { name: `bench-sc-${String(i).padStart(4, '0')}`, labels: { tier: i % 10 === 0 ? 'gold' : 'standard' } },
      provisioner: 'example.com/bench',
    });
    if (res.status !== 201 && res.status !== 409) throw new Error(`creating a StorageClass answered ${res.status}`);
  });
  const gold = Math.ceil(classes / 10);
  const patched = await cluster.admin.patchJson(`/apis/paddock.dev/v1alpha1/tenants/${ALICE_TENANT}`, { spec: { storageClasses: { selector: { matchLabels: { tier: 'gold' } } } } });
  if (patched.status !== 200) throw new Error(`restricting alice's tenant answered ${patched.status}`);
  const alice = cluster.userCert('alice');
  const direct = cluster.client(cluster.paddockUrl, alice);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await direct.get(TSC, 'application/json');
    const n = res.status === 200 ? (JSON.parse(res.body.toString('utf8')) as { items: unknown[] }).items.length : -1;
    if (n === gold) break;
    if (Date.now() > deadline) throw new Error(`alice sees ${n} storage classes, not ${gold}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const exactly = (n: number) => n === gold;
  const targets: Target[] = [
    { name: 'Paddock direct', role: 'paddock', client: direct, path: TSC, accept: ACCEPT_TABLE, expectRows: exactly },
    { name: 'Paddock via kube-apiserver', role: 'paddock', client: cluster.client(cluster.state.server, alice), path: TSC, accept: ACCEPT_TABLE, expectRows: exactly },
    { name: 'kube-apiserver storageclasses, label selector', role: 'baseline', client: cluster.admin, path: `${STORAGE_CLASSES}?labelSelector=${encodeURIComponent('tier=gold')}`, accept: ACCEPT_TABLE, expectRows: exactly },
  ];
  const o = config.ownerList;
  return { scenario: 'owner-list', size, ...o, targets: await measure(targets, { ...o, scenario: `allowed classes at ${size}` }) };
}
