import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor, type HttpsResponse } from './env';
import { replicas } from './paddock-env';
import { tenant as tenantNamed } from '../../src/testing/tenants';

jest.setTimeout(300_000);

const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';

function tns(name: string, tenant: string): string {
  return JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name }, spec: { tenant } });
}

/** A request as `user` (client certificate) to `base` (kube-apiserver, or one Paddock replica directly). */
function as(user: string, base: string, path: string, opts: { method?: string; body?: string } = {}): Promise<HttpsResponse> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  return httpsRequest(`${base}${path}`, { cert: controlPlane().pki.users[user], method: opts.method, headers, body: opts.body });
}

const apiserver = () => controlPlane().server;

async function namespaceExists(name: string): Promise<boolean> {
  const r = await kubectl('admin', ['get', 'namespace', name, '-o', 'name']);
  return r.code === 0;
}

const tenant = uniqueName('dry');

beforeAll(async () => {
  await applyObject(tenantNamed(tenant));
  await waitFor('the tenant to be Ready', async () => (await kubectlJson('admin', ['get', 'tenant', tenant])).status?.phase !== undefined, 60_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', tenant, '--wait=false']);
});

describe('deleting a TenantNamespace honours dryRun, preconditions and propagationPolicy', () => {
  const name = `${tenant}-keep`;
  let uid = '';

  beforeAll(async () => {
    const created = await as('alice', apiserver(), TNS, { method: 'POST', body: tns(name, tenant) });
    expect(created.status).toBe(201);
    uid = JSON.parse(created.body).metadata.uid;
  });

  it('kubectl delete --dry-run=server writes nothing', async () => {
    const res = await kubectl('alice', ['delete', 'tns', name, '--dry-run=server']);
    expect(res.stdout).toContain('deleted (server dry run)');
    const ns = await kubectlJson('admin', ['get', 'namespace', name]);
    expect(ns.metadata.uid).toBe(uid);
    expect(ns.metadata.deletionTimestamp).toBeUndefined();
  });

  it('dryRun=All in the query and dryRun: [All] in the DeleteOptions body write nothing', async () => {
    const query = await as('alice', apiserver(), `${TNS}/${name}?dryRun=All`, { method: 'DELETE' });
    expect(query.status).toBe(200);
    const body = await as('alice', apiserver(), `${TNS}/${name}`, { method: 'DELETE', body: JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] }) });
    expect(body.status).toBe(200);
    const ns = await kubectlJson('admin', ['get', 'namespace', name]);
    expect(ns.metadata.deletionTimestamp).toBeUndefined();
  });

  it('refuses a dryRun value other than All with 400 and deletes nothing', async () => {
    for (const bad of ['Bogus', '', 'all']) {
      const res = await as('alice', apiserver(), `${TNS}/${name}?dryRun=${bad}`, { method: 'DELETE' });
      expect({ status: res.status, body: res.body.slice(0, 200) }).toEqual({ status: 400, body: expect.stringContaining('"reason":"BadRequest"') });
    }
    const inBody = await as('alice', apiserver(), `${TNS}/${name}`, { method: 'DELETE', body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['Bogus'] }) });
    expect(inBody.status).toBe(400);
    expect((await kubectlJson('admin', ['get', 'namespace', name])).metadata.deletionTimestamp).toBeUndefined();
  });

  it('answers 409 Conflict for a uid or resourceVersion precondition that does not match, and deletes nothing', async () => {
    const wrongUid = await as('alice', apiserver(), `${TNS}/${name}`, { method: 'DELETE', body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } }) });
    expect(wrongUid.status).toBe(409);
    expect(JSON.parse(wrongUid.body).message).toContain('Precondition failed: UID in precondition: not-the-uid');
    const wrongRv = await as('alice', apiserver(), `${TNS}/${name}`, { method: 'DELETE', body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: '1' } }) });
    expect(wrongRv.status).toBe(409);
    expect(JSON.parse(wrongRv.body).reason).toBe('Conflict');
    const badPolicy = await as('alice', apiserver(), `${TNS}/${name}?propagationPolicy=Sideways`, { method: 'DELETE' });
    expect(badPolicy.status).toBe(400);
    expect((await kubectlJson('admin', ['get', 'namespace', name])).metadata.deletionTimestamp).toBeUndefined();
  });

  it('deletes with matching preconditions and a propagation policy', async () => {
    const row = JSON.parse((await as('alice', apiserver(), `${TNS}/${name}`)).body);
    const res = await as('alice', apiserver(), `${TNS}/${name}`, {
      method: 'DELETE',
      body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: { uid, resourceVersion: row.metadata.resourceVersion } }),
    });
    expect(res.status).toBe(200);
    await waitFor('the namespace to be deleted', async () => {
      const r = await kubectl('admin', ['get', 'namespace', name, '-o', 'jsonpath={.metadata.deletionTimestamp}']);
      return r.code !== 0 || r.stdout !== '';
    }, 30_000, 200);
  });
});

describe('self-service create, dry-run and errors', () => {
  it('a dry-run create runs kube-apiserver\'s checks too and writes nothing (no namespace, no claim)', async () => {
    const name = `${tenant}-drycreate`;
    const res = await as('alice', apiserver(), `${TNS}?dryRun=All`, { method: 'POST', body: tns(name, tenant) });
    expect(res.status).toBe(201);
    expect(await namespaceExists(name)).toBe(false);
    const t = await kubectlJson('admin', ['get', 'tenant', tenant]);
    expect((t.status?.claims ?? []).map((c: { name: string }) => c.name)).not.toContain(name);
  });

  it('a create over a namespace that is still Terminating answers 409, never a 500', async () => {
    const name = `${tenant}-term`;
    expect((await as('alice', apiserver(), TNS, { method: 'POST', body: tns(name, tenant) })).status).toBe(201);
    // A ConfigMap with a finalizer keeps the namespace Terminating until the finalizer is removed.
    await applyObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hold', namespace: name, finalizers: ['example.com/hold'] } });
    expect((await as('alice', apiserver(), `${TNS}/${name}`, { method: 'DELETE' })).status).toBe(200);
    await waitFor('Terminating', async () => (await kubectlJson('admin', ['get', 'namespace', name])).status?.phase === 'Terminating', 30_000, 200);
    const again = await as('alice', apiserver(), TNS, { method: 'POST', body: tns(name, tenant) });
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body)).toMatchObject({ kind: 'Status', code: 409 });
    await kubectl('admin', ['patch', 'configmap', 'hold', '-n', name, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    // Once it is gone, the name is free again (its claim was dropped).
    await waitFor('the name to be free', async () => (await as('alice', apiserver(), TNS, { method: 'POST', body: tns(name, tenant) })).status === 201, 90_000, 500);
  });
});

describe('namespaceQuota under concurrent creates on both replicas', () => {
  const ROUNDS = 5;
  const CREATES = 50;
  const QUOTA = 6;

  it(`never exceeds the quota, and every 201 is provisioned (${ROUNDS} rounds of ${CREATES} creates split across both replicas)`, async () => {
    const bases = replicas().map((r) => `https://127.0.0.1:${r.port}`);
    expect(bases.length).toBe(2);
    for (let round = 0; round < ROUNDS; round++) {
      const t = uniqueName(`race${round}`);
      await applyObject(tenantNamed(t, { namespaceQuota: QUOTA, resourceQuotas: [{ hard: { pods: '2' } }] }));
      // Both replicas must know the tenant before the race starts.
      for (const base of bases) await waitFor(`${base} to know ${t}`, async () => (await as('alice', base, `${TNS}?dryRun=All`, { method: 'POST', body: tns(`${t}-probe`, t) })).status === 201, 30_000, 100);

      const results = await Promise.all(
        Array.from({ length: CREATES }, (_, i) => as('alice', bases[i % 2], TNS, { method: 'POST', body: tns(`${t}-n${i}`, t) }).then((r) => ({ name: `${t}-n${i}`, r }))),
      );
      const unexpected = results.filter(({ r }) => ![201, 403].includes(r.status)).map(({ name, r }) => `${name}: ${r.status} ${r.body.slice(0, 300)}`);
      expect(unexpected).toEqual([]);
      const won = results.filter(({ r }) => r.status === 201).map(({ name }) => name).sort();
      expect(won.length).toBeLessThanOrEqual(QUOTA);
      expect(won.length).toBe(QUOTA); // every place is taken: losers lost only to the quota
      for (const { r } of results.filter(({ r }) => r.status === 403)) expect(JSON.parse(r.body).message).toContain('namespaceQuota');

      const live = (await kubectlJson('admin', ['get', 'namespaces', '-l', `paddock.dev/tenant=${t}`])).items.map((n: { metadata: { name: string } }) => n.metadata.name).sort();
      expect(live).toEqual(won);
      for (const name of won) {
        await waitFor(`the guardrails of ${name}`, async () => (await kubectl('admin', ['get', 'resourcequota/paddock-quota-0', 'rolebinding/paddock:tenant-admin', '-n', name])).code === 0, 60_000, 250);
      }
      const status = (await kubectlJson('admin', ['get', 'tenant', t])).status;
      expect(status.claims.map((c: { name: string }) => c.name).sort()).toEqual(won);
      for (const c of status.claims) expect(c.uid).toBeTruthy();
      await kubectl('admin', ['delete', 'tenant', t, '--wait=false']);
    }
  });
});
