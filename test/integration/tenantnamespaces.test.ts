import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePki, type CertFiles } from '../controlplane/pki';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, parseTable, uniqueName, waitFor, type HttpsResponse } from './env';
import { replicas } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';
import type { TenantOwner } from '../../src/kube/types';

jest.setTimeout(120_000);

const id = uniqueName('t').slice(2);
const OIL = `oil${id}`;
const GAS = `gas${id}`;
const OIL_NS = [`${OIL}-production`, `${OIL}-staging`];
const GAS_NS = [`${GAS}-production`];
const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';

function tenant(name: string, owners: TenantOwner[], namespaces: string[], hard: Record<string, string>) {
  return tenantNamed(name, {
    owners, namespaces, resourceQuotas: [{ hard }], nodeSelector: { 'kubernetes.io/os': 'linux' },
    limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '200m', memory: '128Mi' }, defaultRequest: { cpu: '100m', memory: '64Mi' } }] }],
  });
}

/** The namespaces of every tenant that lists `user` (or one of `groups`) as an owner, per the Tenants themselves. */
async function ownedNamespaces(user: string, groups: string[] = []): Promise<string[]> {
  const tenants = (await kubectlJson('admin', ['get', 'tenants'])).items;
  return tenants
    .filter((t: any) => t.spec.owners.some((o: any) => (o.kind === 'User' && o.name === user) || (o.kind === 'Group' && groups.includes(o.name))))
    .flatMap((t: any) => t.status?.namespaces ?? [])
    .sort();
}

/** A request straight to Paddock's HTTPS port (no kube-apiserver in between). */
function direct(path: string, opts: { cert?: CertFiles; headers?: Record<string, string>; method?: string; body?: string } = {}): Promise<HttpsResponse> {
  const port = replicas().find((r) => r.identity === 'paddock-a')!.port;
  return httpsRequest(`https://127.0.0.1:${port}${path}`, opts);
}

const TNS_PATH = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';

/** A request through kube-apiserver (kubectl's path) as `user`, with an Accept header kubectl cannot set. */
function viaApiserver(user: string, path: string, accept: string): Promise<HttpsResponse> {
  const { pki, server } = controlPlane();
  return httpsRequest(`${server}${path}`, { cert: pki.users[user], headers: { Accept: accept } });
}

beforeAll(async () => {
  await applyObject(tenant(OIL, [{ kind: 'User', name: 'alice' }], ['production', 'staging'], { 'requests.cpu': '8', 'requests.memory': '16Gi', pods: '10' }));
  await applyObject(tenant(GAS, [{ kind: 'Group', name: 'gas-devs' }], ['production'], { 'requests.cpu': '4', pods: '5' }));
  await waitFor('both tenants served', async () => {
    const res = await kubectl('admin', ['get', 'tns', ...OIL_NS, ...GAS_NS]);
    return res.code === 0;
  }, 60_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenants', OIL, GAS, '--wait=false']);
});

describe('kubectl get tns, per caller', () => {
  it('shows alice the namespaces of the tenants she owns and never gas', async () => {
    const rows = parseTable((await kubectl('alice', ['get', 'tns'])).stdout);
    const names = rows.map((r) => r.NAME);
    expect(names).toEqual(await ownedNamespaces('alice'));
    expect(names).toEqual(expect.arrayContaining(OIL_NS));
    expect(names).not.toContain(GAS_NS[0]);
    expect(rows.find((r) => r.NAME === OIL_NS[0])).toEqual({ NAME: OIL_NS[0], TENANT: OIL, STATUS: 'Active', AGE: expect.stringMatching(/^\d+[smh]/) });
  });

  it('shows bob (group gas-devs) only gas namespaces', async () => {
    const names = parseTable((await kubectl('bob', ['get', 'tns'])).stdout).map((r) => r.NAME);
    expect(names).toEqual(await ownedNamespaces('bob', ['gas-devs']));
    expect(names).toContain(GAS_NS[0]);
    expect(names).not.toContain(OIL_NS[0]);
  });

  it('tells carol "No resources found"', async () => {
    const res = await kubectl('carol', ['get', 'tns']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('No resources found');
  });

  it('shows admin every tenant namespace', async () => {
    // Every namespace proven its tenant's: labelled for it and named by UID in one of its claims. Suites
    // before this one delete tenants without waiting, so compare once both sides have settled.
    const proven = async () => {
      const uids = new Map<string, string>((await kubectlJson('admin', ['get', 'namespaces', '-l', 'paddock.dev/tenant'])).items.map((n: any) => [n.metadata.name, n.metadata.uid]));
      const tenants = (await kubectlJson('admin', ['get', 'tenants'])).items;
      return tenants.flatMap((t: any) => (t.status?.claims ?? []).filter((c: any) => c.uid && uids.get(c.name) === c.uid).map((c: any) => c.name)).sort();
    };
    let names: string[] = [];
    let all: string[] = [];
    await waitFor('the view and the proven namespaces to agree', async () => {
      names = parseTable((await kubectl('admin', ['get', 'tns'])).stdout).map((r) => r.NAME);
      all = await proven();
      return JSON.stringify(names) === JSON.stringify(all);
    }, 60_000, 500).catch(() => undefined);
    expect(names).toEqual(all);
  });

  it.each([
    ['JSON', 'application/json', (b: any) => b.items.map((i: any) => i.metadata.name), 'TenantNamespaceList'],
    ['Table v1', TABLE_V1, (b: any) => b.rows.map((r: any) => r.cells[0]), 'Table'],
    ['Table v1beta1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', (b: any) => b.rows.map((r: any) => r.cells[0]), 'Table'],
    ['PartialObjectMetadataList', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', (b: any) => b.items.map((i: any) => i.metadata.name), 'PartialObjectMetadataList'],
  ])('answers through kube-apiserver with Accept %s the same way', async (_what, accept, names, kind) => {
    const res = await viaApiserver('alice', TNS_PATH, accept);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.kind).toBe(kind);
    expect(names(body)).toEqual(await ownedNamespaces('alice'));
  });

  it('answers kubectl get --raw the same way', async () => {
    const res = await kubectl('alice', ['get', '--raw', TNS_PATH]);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).items.map((i: any) => i.metadata.name)).toEqual(await ownedNamespaces('alice'));
  });

  it('answers a name alice may not see exactly like a name that does not exist', async () => {
    const hidden = await kubectl('alice', ['get', 'tns', GAS_NS[0]]);
    const missing = await kubectl('alice', ['get', 'tns', `${GAS}-nonexistent`]);
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toBe(`Error from server (NotFound): tenantnamespaces.tenancy.paddock.dev "${GAS_NS[0]}" not found\n`);
    expect(missing.stderr).toBe(hidden.stderr.replace(GAS_NS[0], `${GAS}-nonexistent`));
  });
});

describe('kubectl output options behave as for namespaces', () => {
  it('-o wide shows OWNERS, CPU, MEMORY, PODS (used/hard, from the quota controller), SHARE, GUARDRAILS, POD-SECURITY, NODE-SELECTOR', async () => {
    const ns = OIL_NS[0];
    // The namespace's default ServiceAccount (made by kube-controller-manager) must exist before a pod.
    await waitFor('a pod in the tenant namespace', async () =>
      (await kubectl('admin', ['run', 'pause', '-n', ns, '--image=registry.k8s.io/pause:3.10', '--restart=Never'])).code === 0, 30_000, 250);
    let row: Record<string, string> | undefined;
    await waitFor('quota usage in -o wide', async () => {
      row = parseTable((await kubectl('alice', ['get', 'tns', ns, '-o', 'wide'])).stdout)[0];
      return row?.PODS === '1/10';
    }, 60_000, 500);
    expect(Object.keys(row!)).toEqual(['NAME', 'TENANT', 'STATUS', 'AGE', 'OWNERS', 'CPU', 'MEMORY', 'PODS', 'SHARE', 'GUARDRAILS', 'POD-SECURITY', 'NODE-SELECTOR']);
    // SHARE is the tenant-wide quota's (tenant-quota-view.test.ts): this Tenant has none.
    expect(row).toMatchObject({ OWNERS: 'User:alice', CPU: '100m/8', MEMORY: '64Mi/16Gi', PODS: '1/10', SHARE: '<none>', 'POD-SECURITY': 'baseline', 'NODE-SELECTOR': 'kubernetes.io/os=linux' });
  });

  it('-o yaml and -o json carry the TenantNamespace', async () => {
    const json = await kubectlJson('alice', ['get', 'tns', OIL_NS[0]]);
    expect(json).toMatchObject({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: OIL_NS[0] }, spec: { tenant: OIL } });
    expect(json.status.owners).toEqual([{ kind: 'User', name: 'alice', role: 'admin' }]);
    expect(json.status.quota.hard).toMatchObject({ 'requests.cpu': '8', pods: '10' });
    const yaml = await kubectl('alice', ['get', 'tns', OIL_NS[0], '-o', 'yaml']);
    expect(yaml.stdout).toContain('kind: TenantNamespace');
    expect(yaml.stdout).toContain(`tenant: ${OIL}`);
  });

  it('-o name, -o jsonpath and -o custom-columns', async () => {
    const filter = ['--field-selector', `spec.tenant=${OIL}`];
    expect((await kubectl('alice', ['get', 'tns', ...filter, '-o', 'name'])).stdout).toBe(OIL_NS.map((n) => `tenantnamespace.tenancy.paddock.dev/${n}\n`).join(''));
    expect((await kubectl('alice', ['get', 'tns', ...filter, '-o', 'jsonpath={.items[*].spec.tenant}'])).stdout).toBe(`${OIL} ${OIL}`);
    const cc = await kubectl('alice', ['get', 'tns', ...filter, '-o', 'custom-columns=N:.metadata.name,T:.spec.tenant,P:.status.phase']);
    expect(parseTable(cc.stdout)).toEqual(OIL_NS.map((n) => ({ N: n, T: OIL, P: 'Active' })));
  });

  it('--show-labels and -L', async () => {
    const shown = parseTable((await kubectl('alice', ['get', 'tns', OIL_NS[0], '--show-labels'])).stdout)[0];
    expect(shown.LABELS.split(',')).toEqual(expect.arrayContaining([`paddock.dev/tenant=${OIL}`, 'app.kubernetes.io/managed-by=paddock']));
    const col = (await kubectl('alice', ['get', 'tns', OIL_NS[0], '-L', 'pod-security.kubernetes.io/enforce'])).stdout.split('\n');
    expect(col[0].split(/\s+/)).toEqual(['NAME', 'TENANT', 'STATUS', 'AGE', 'ENFORCE']);
    expect(col[1].split(/\s+/).pop()).toBe('baseline');
  });

  it.each([
    [`paddock.dev/tenant=${OIL}`, OIL_NS],
    [`paddock.dev/tenant==${OIL}`, OIL_NS],
    [`paddock.dev/tenant=${OIL},kubernetes.io/metadata.name!=${OIL_NS[0]}`, [OIL_NS[1]]],
    [`kubernetes.io/metadata.name in (${OIL_NS[1]},${GAS_NS[0]})`, [OIL_NS[1]]],
    [`paddock.dev/tenant=${OIL},kubernetes.io/metadata.name notin (${OIL_NS[1]})`, [OIL_NS[0]]],
    [`paddock.dev/tenant=${OIL},pod-security.kubernetes.io/enforce`, OIL_NS],
    [`paddock.dev/tenant=${OIL},!no-such-label`, OIL_NS],
  ])('-l %s', async (selector, expected) => {
    const res = await kubectl('alice', ['get', 'tns', '-l', selector, '-o', 'name']);
    expect(res.stdout.trim().split('\n').filter(Boolean).map((l) => l.split('/')[1])).toEqual(expected);
  });

  it('--field-selector spec.tenant=', async () => {
    const names = parseTable((await kubectl('admin', ['get', 'tns', '--field-selector', `spec.tenant=${GAS}`])).stdout).map((r) => r.NAME);
    expect(names).toEqual(GAS_NS);
  });

  it('--sort-by=.metadata.creationTimestamp', async () => {
    const res = await kubectl('alice', ['get', 'tns', '--sort-by=.metadata.creationTimestamp', '-o', 'jsonpath={range .items[*]}{.metadata.creationTimestamp}{"\\n"}{end}']);
    expect(res.stderr).toBe('');
    const times = res.stdout.trim().split('\n');
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect([...times].sort()).toEqual(times);
  });

  it('--chunk-size=1 pages through everything', async () => {
    const paged = parseTable((await kubectl('admin', ['get', 'tns', '--chunk-size=1', '-v=6'])).stdout).map((r) => r.NAME);
    const whole = parseTable((await kubectl('admin', ['get', 'tns'])).stdout).map((r) => r.NAME);
    expect(paged).toEqual(whole);
  });
});

describe('discovery', () => {
  it('kubectl api-resources --api-group=tenancy.paddock.dev', async () => {
    const rows = parseTable((await kubectl('alice', ['api-resources', '--api-group=tenancy.paddock.dev', '-o', 'wide'])).stdout);
    const view = (name: string, short: string, kind: string) => ({ NAME: name, SHORTNAMES: short, KIND: kind, VERBS: 'get,list,watch' });
    expect(rows.map(({ NAME, SHORTNAMES, KIND, VERBS }) => ({ NAME, SHORTNAMES, KIND, VERBS }))).toEqual([
      view('ownedtenants', 'otn', 'OwnedTenant'),
      view('tenantdeviceclasses', 'tdc', 'TenantDeviceClass'),
      view('tenantgatewayclasses', 'tgc', 'TenantGatewayClass'),
      view('tenantingressclasses', 'tic', 'TenantIngressClass'),
      { NAME: 'tenantnamespaces', SHORTNAMES: 'tns', KIND: 'TenantNamespace', VERBS: 'create,delete,get,list,watch' },
      view('tenantnodes', 'tno', 'TenantNode'),
      view('tenantpriorityclasses', 'tpc', 'TenantPriorityClass'),
      view('tenantruntimeclasses', 'trc', 'TenantRuntimeClass'),
      view('tenantstorageclasses', 'tsc', 'TenantStorageClass'),
    ]);
    for (const r of rows) expect(r).toMatchObject({ APIVERSION: 'tenancy.paddock.dev/v1alpha1', NAMESPACED: 'false', CATEGORIES: 'paddock' });
  });

  it('kubectl explain tns.status.quota', async () => {
    // kube-aggregator fetches an APIService's OpenAPI shortly after it becomes available.
    let res = await kubectl('alice', ['explain', 'tns.status.quota']);
    await waitFor('the aggregated OpenAPI', async () => (res = await kubectl('alice', ['explain', 'tns.status.quota'])).code === 0, 90_000, 1000);
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('KIND:       TenantNamespace');
    expect(res.stdout).toMatch(/hard/);
    expect(res.stdout).toMatch(/used/);
  });

  it('kubectl get paddock (category) works for an owner; Tenants are in paddock-admin', async () => {
    const owner = await kubectl('alice', ['get', 'paddock']);
    expect(owner.code).toBe(0);
    expect(owner.stderr).toBe('');
    expect(owner.stdout).toContain(OIL_NS[0]);
    const admin = await kubectl('admin', ['get', 'paddock-admin']);
    expect(admin.code).toBe(0);
    expect(admin.stdout).toContain(OIL);
  });

  it('the APIService is Available and kube-controller-manager lists and watches the group without errors', async () => {
    const svc = await kubectlJson('admin', ['get', 'apiservice', 'v1alpha1.tenancy.paddock.dev']);
    expect(svc.status.conditions.find((c: any) => c.type === 'Available').status).toBe('True');
    // Discovery of the group goes stale for a moment whenever a suite restarts the replica behind the
    // APIService; what must never fail is listing and watching the resource itself.
    const log = readFileSync(controlPlane().logs.controllerManager, 'utf8');
    const trouble = log.split('\n').filter((l) => /tenantnamespaces/.test(l) && /^E|error|failed/i.test(l));
    expect(trouble).toEqual([]);
    // The group is listed and watched through kube-apiserver (kube-controller-manager's metadata
    // informers are standing watchers). A replica restarted since kube-controller-manager listed has seen
    // only its watches (they resume there without a relist): count both verbs on both replicas.
    const { pki } = controlPlane();
    let served = 0;
    for (const r of replicas()) {
      const metrics = (await httpsRequest(`https://127.0.0.1:${r.port}/metrics`, { cert: pki.users.admin })).body;
      for (const m of metrics.matchAll(/paddock_apiserver_request_duration_seconds_count\{verb="(?:list|watch)",resource="tenantnamespaces",code="200"\} (\d+)/g)) served += Number(m[1]);
    }
    expect(served).toBeGreaterThan(0);
  });
});

describe('direct HTTPS to Paddock', () => {
  const { pki } = controlPlane();

  it('refuses X-Remote-User without a client certificate: 401 Status', async () => {
    const res = await direct(TNS_PATH, { headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 });
  });

  it("takes a cluster-CA client certificate's own identity and ignores X-Remote-* headers", async () => {
    const res = await direct(TNS_PATH, { cert: pki.users.alice, headers: { 'X-Remote-User': 'admin', 'X-Remote-Group': 'system:masters' } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).items.map((i: any) => i.metadata.name)).toEqual(await ownedNamespaces('alice'));
  });

  it('refuses a certificate from an unknown CA: 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paddock-foreign-'));
    try {
      const foreign = generatePki(dir);
      const res = await direct(TNS_PATH, { cert: foreign.users.admin });
      expect(res.status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['a bad Accept', 'GET', TNS_PATH, { Accept: 'text/html' }, 406, 'NotAcceptable'],
    ['an unsupported field selector', 'GET', `${TNS_PATH}?fieldSelector=status.owner=alice`, {}, 400, 'BadRequest'],
    ['a malformed label selector', 'GET', `${TNS_PATH}?labelSelector=${encodeURIComponent('a in (b')}`, {}, 400, 'BadRequest'],
    ['a bad includeObject', 'GET', `${TNS_PATH}?includeObject=Everything`, { Accept: TABLE_V1 }, 400, 'BadRequest'],
    ['an unknown continue token', 'GET', `${TNS_PATH}?limit=1&continue=bm90LWEtdG9rZW4`, {}, 400, 'BadRequest'],
    ['an expired continue token', 'GET', `${TNS_PATH}?limit=1&continue=${Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: '12345', start: 'a' })).toString('base64')}`, {}, 410, 'Expired'],
    ['a negative timeoutSeconds', 'GET', `${TNS_PATH}?watch=true&timeoutSeconds=-1`, {}, 400, 'BadRequest'],
    ['an unsupported method', 'PUT', `${TNS_PATH}/x`, {}, 405, 'MethodNotAllowed'],
    ['a malformed name in the path', 'GET', `${TNS_PATH}/%E0%A4%A`, {}, 400, 'BadRequest'],
  ])('answers %s with a Status', async (_what, method, path, headers, code, reason) => {
    const res = await direct(path, { cert: pki.users.alice, headers: headers as Record<string, string>, method });
    expect(res.status).toBe(code);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
  });

  it.each([
    ['a body that is not JSON', '{"kind": ', { 'Content-Type': 'application/json' }, 400, 'BadRequest'],
    ['a body of an unsupported type', '<x/>', { 'Content-Type': 'application/xml' }, 415, 'UnsupportedMediaType'],
    ['a body over the size limit', 'x'.repeat(2 << 20), { 'Content-Type': 'application/json' }, 413, 'RequestEntityTooLarge'],
    ['a body that is not an object', '[1,2]', { 'Content-Type': 'application/json' }, 400, 'BadRequest'],
  ])('answers a create with %s with a Status', async (_what, body, headers, code, reason) => {
    const res = await direct(TNS_PATH, { cert: pki.users.alice, method: 'POST', headers, body });
    expect(res.status).toBe(code);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason, code });
  });

  it('keeps /healthz, /livez and /readyz open and /metrics behind authorization', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) expect((await direct(p)).status).toBe(200);
    expect((await direct('/metrics')).status).toBe(401);
    expect((await direct('/metrics', { cert: pki.users.carol })).status).toBe(403);
    const metrics = await direct('/metrics', { cert: pki.users.admin });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('paddock_apiserver_request_duration_seconds_bucket');
  });
});
