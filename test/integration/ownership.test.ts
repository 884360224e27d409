import { createHash, randomBytes } from 'node:crypto';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { tenant as tenantNamed } from '../../src/testing/tenants';

jest.setTimeout(180_000);

const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';

function post(user: string, name: string, tenant: string, dryRun = false) {
  return httpsRequest(`${controlPlane().server}${TNS}${dryRun ? '?dryRun=All' : ''}`, {
    cert: controlPlane().pki.users[user], method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name }, spec: { tenant } }),
  });
}

async function ready(tenant: string): Promise<{ status: string; reason: string; message: string }> {
  let cond: any;
  await waitFor(`tenant ${tenant} to report`, async () => {
    const t = await kubectlJson('admin', ['get', 'tenant', tenant]);
    cond = t.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
    return t.status?.observedGeneration === t.metadata.generation && cond !== undefined;
  }, 60_000, 200);
  return cond;
}

async function canI(user: string, verb: string, resource: string, namespace: string): Promise<boolean> {
  return (await kubectl(user, ['auth', 'can-i', verb, resource, '-n', namespace])).stdout.trim() === 'yes';
}

async function exists(kind: string, name: string, namespace?: string): Promise<boolean> {
  return (await kubectl('admin', ['get', kind, name, ...(namespace ? ['-n', namespace] : []), '-o', 'name'])).code === 0;
}

describe('a label is not proof of ownership', () => {
  const t = uniqueName('lbl');
  const planted = `${t}-planted`;
  const victim = uniqueName('victim');

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', t, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', planted, victim, '--wait=false']);
  });

  it('does not adopt a namespace created beforehand with the tenant label and a planted RoleBinding', async () => {
    await applyObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: planted, labels: { 'paddock.dev/tenant': t, 'app.kubernetes.io/managed-by': 'paddock' } } });
    await applyObject({
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding',
      metadata: { name: 'paddock:tenant-admin', namespace: planted, labels: { 'paddock.dev/tenant': t, 'app.kubernetes.io/managed-by': 'paddock' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'mallory' }],
    });
    // Someone who may label namespaces labels an unrelated one for the tenant too.
    await applyObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: victim, labels: { 'paddock.dev/tenant': t } } });
    await applyObject(tenantNamed(t, { namespaces: ['planted', 'real'], deletionPolicy: 'Delete', resourceQuotas: [{ hard: { pods: '1' } }] }));

    await waitFor('the declared namespace Paddock creates', async () => exists('namespace', `${t}-real`), 60_000, 200);
    const cond = await ready(t);
    expect(cond).toMatchObject({ status: 'False', reason: 'NamespaceConflict' });
    expect(cond.message).toContain(planted);
    expect(cond.message).toContain(victim);

    // Nothing of Paddock's went into either, and the planted binding was not "repaired" into an owner's.
    expect(await exists('resourcequota', 'paddock-quota-0', planted)).toBe(false);
    expect(await exists('resourcequota', 'paddock-quota-0', victim)).toBe(false);
    const rb = await kubectlJson('admin', ['get', 'rolebinding', 'paddock:tenant-admin', '-n', planted]);
    expect(rb.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'mallory' }]);
    expect(await canI('alice', 'create', 'pods', planted)).toBe(false);
    expect(await canI('alice', 'create', 'pods', victim)).toBe(false);
    expect(await canI('alice', 'create', 'pods', `${t}-real`)).toBe(true);

    // alice's view holds the namespace Paddock made, not the labelled ones.
    const rows = (await kubectlJson('alice', ['get', 'tns'])).items.map((r: { metadata: { name: string } }) => r.metadata.name);
    expect(rows).toContain(`${t}-real`);
    expect(rows).not.toContain(planted);
    expect(rows).not.toContain(victim);
    const claims = (await kubectlJson('admin', ['get', 'tenant', t])).status.claims.map((c: { name: string }) => c.name);
    expect(claims).toEqual([`${t}-real`]);
  });

  it('with deletionPolicy Delete, deleting the Tenant deletes only what Paddock provisioned', async () => {
    await kubectl('admin', ['delete', 'tenant', t, '--wait=true', '--timeout=60s']);
    await waitFor('its own namespace to be deleted', async () => {
      const r = await kubectl('admin', ['get', 'namespace', `${t}-real`, '-o', 'jsonpath={.metadata.deletionTimestamp}']);
      return r.code !== 0 || r.stdout !== '';
    }, 60_000, 200);
    for (const ns of [planted, victim]) {
      const live = await kubectlJson('admin', ['get', 'namespace', ns]);
      expect(live.metadata.deletionTimestamp).toBeUndefined();
      expect(live.metadata.labels['paddock.dev/tenant']).toBe(t); // not even released: never Paddock's
    }
  });
});

describe('a namespace deleted and re-created by someone else under the same name is not the tenant\'s any more', () => {
  const t = uniqueName('recr');
  const name = `${t}-dev`;

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', t, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', name, '--wait=false']);
  });

  it('reports a conflict instead of furnishing the impostor', async () => {
    await applyObject(tenantNamed(t, { resourceQuotas: [{ hard: { pods: '1' } }] }));
    await waitFor('the tenant', async () => (await post('alice', name, t)).status === 201, 30_000, 200);
    await waitFor('guardrails', async () => exists('resourcequota', 'paddock-quota-0', name), 30_000, 200);
    const before = await kubectlJson('admin', ['get', 'tenant', t]);
    expect(before.status.claims).toEqual([expect.objectContaining({ name, origin: 'SelfService', uid: expect.any(String) })]);
    // An admin deletes it and someone re-creates it with the tenant's label before Paddock's cache sees a gap.
    await kubectl('admin', ['delete', 'namespace', name, '--wait=true', '--timeout=60s']);
    await applyObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'paddock.dev/tenant': t } } });
    await waitFor('the claim to be dropped and the impostor reported', async () => {
      const after = await kubectlJson('admin', ['get', 'tenant', t]);
      const cond = after.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
      return (after.status.claims ?? []).length === 0 && cond?.reason === 'NamespaceConflict' && cond.message.includes(name);
    }, 60_000, 250);
    expect(await exists('resourcequota', 'paddock-quota-0', name)).toBe(false);
    expect(await canI('alice', 'create', 'pods', name)).toBe(false);
  });
});

describe('a claim whose writer died before recording the namespace\'s UID', () => {
  const t = uniqueName('crash');
  const good = `${t}-good`;
  const forged = `${t}-forged`;

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', t, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', good, forged, '--wait=false']);
  });

  it('is proven by the token on the namespace, read live, and by nothing else', async () => {
    await applyObject(tenantNamed(t, { resourceQuotas: [{ hard: { pods: '1' } }] }));
    await ready(t);
    // What a replica leaves when it dies between creating the namespaces and recording their UIDs: each
    // namespace with a token and the tenant's label, each claim with the token's hash and no UID. The
    // second namespace carries another token: whoever made it did not draw the claim's.
    const token = randomBytes(24).toString('base64url');
    const proof = createHash('sha256').update(token).digest('base64url');
    for (const [name, carried] of [[good, token], [forged, randomBytes(24).toString('base64url')]]) {
      await applyObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'paddock.dev/tenant': t }, annotations: { 'paddock.dev/claim-token': carried } } });
    }
    const uid = (await kubectlJson('admin', ['get', 'namespace', good])).metadata.uid;
    const claimedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await waitFor('the claims to be written', async () => {
      const current = await kubectlJson('admin', ['get', 'tenant', t]);
      const claims = [good, forged].map((name) => ({ name, origin: 'SelfService', proof, claimedAt }));
      const body = JSON.stringify({ ...current, status: { ...current.status, claims } });
      return (await kubectl('admin', ['replace', '--subresource=status', '-f', '-'], body)).code === 0;
    }, 30_000, 200);

    await waitFor('the proven UID recorded and the forged namespace reported', async () => {
      const after = await kubectlJson('admin', ['get', 'tenant', t]);
      const cond = after.status?.conditions?.find((c: { type: string }) => c.type === 'Ready');
      return after.status.claims?.find((c: { name: string }) => c.name === good)?.uid === uid && cond?.reason === 'NamespaceConflict' && cond.message.includes(forged);
    }, 60_000, 200);
    const claims = (await kubectlJson('admin', ['get', 'tenant', t])).status.claims;
    expect(claims.find((c: { name: string }) => c.name === good)).not.toHaveProperty('proof');
    expect(claims.find((c: { name: string }) => c.name === forged)).not.toHaveProperty('uid');
    expect(await exists('resourcequota', 'paddock-quota-0', good)).toBe(true);
    expect(await exists('resourcequota', 'paddock-quota-0', forged)).toBe(false);
    expect(await canI('alice', 'create', 'pods', good)).toBe(true);
    expect(await canI('alice', 'create', 'pods', forged)).toBe(false);
    const rows = (await kubectlJson('alice', ['get', 'tns'])).items.map((r: { metadata: { name: string } }) => r.metadata.name);
    expect(rows).toContain(good);
    expect(rows).not.toContain(forged);
  });
});

describe('a name belongs to the tenant with the longest <tenant>- prefix', () => {
  const short = uniqueName('sq');
  const long = `${short}-prod`;

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', short, long, '--wait=false']);
  });

  it('refuses a Tenant whose name would take an existing namespace from another tenant, without naming it', async () => {
    await applyObject(tenantNamed(short));
    await waitFor('the short tenant', async () => (await post('alice', `${long}-x`, short)).status === 201, 30_000, 200);

    await applyObject(tenantNamed(long, { owners: [{ kind: 'User', name: 'bob' }], namespaces: ['x', 'y'] }));
    const cond = await ready(long);
    expect(cond).toMatchObject({ status: 'False', reason: 'TenantNameConflict' });
    expect(cond.message).toContain('would take 1 namespace');
    expect(cond.message).not.toContain(`${long}-x`); // another tenant's name: this Tenant's owners read its status
    // Refused: it provisions nothing, and the namespace stays the short tenant's.
    expect(await exists('namespace', `${long}-y`)).toBe(false);
    const ns = await kubectlJson('admin', ['get', 'namespace', `${long}-x`]);
    expect(ns.metadata.labels['paddock.dev/tenant']).toBe(short);
    expect(await canI('alice', 'create', 'pods', `${long}-x`)).toBe(true);
    expect(await canI('bob', 'create', 'pods', `${long}-x`)).toBe(false);
  });

  it('does not let the shorter tenant create names in the longer tenant\'s space, and the answer reveals nothing', async () => {
    const existing = `${long}-x`; // exists (the short tenant's, from before)
    const absent = `${long}-nothing-here`;
    const a = await post('alice', existing, short, true);
    const b = await post('alice', absent, short, true);
    expect(a.status).toBe(403);
    expect(b.status).toBe(403);
    const strip = (body: string, name: string) => JSON.parse(body).message.replaceAll(name, 'NAME');
    expect(strip(a.body, existing)).toBe(strip(b.body, absent));
    expect((await post('alice', absent, short)).status).toBe(403);
    expect(await exists('namespace', absent)).toBe(false);
  });
});

describe('lowering namespaceQuota', () => {
  const t = uniqueName('lq');

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', t, '--wait=false']);
  });

  it('keeps, repairs and reports the namespaces over the new quota', async () => {
    await applyObject(tenantNamed(t, { namespaces: ['a', 'b'], namespaceQuota: 2, resourceQuotas: [{ hard: { pods: '1' } }] }));
    expect(await ready(t)).toMatchObject({ status: 'True' });
    await kubectl('admin', ['patch', 'tenant', t, '--type=merge', '-p', '{"spec":{"namespaceQuota":1}}']);
    const cond = await ready(t);
    expect(cond).toMatchObject({ status: 'False', reason: 'NamespaceQuotaExceeded' });
    expect(cond.message).toContain(`${t}-b`);
    // Still a paddock: drift in the namespace over the quota is repaired.
    await kubectl('admin', ['delete', 'resourcequota', 'paddock-quota-0', '-n', `${t}-b`]);
    await waitFor('the quota to be repaired', async () => exists('resourcequota', 'paddock-quota-0', `${t}-b`), 30_000, 200);
    expect(await exists('namespace', `${t}-a`)).toBe(true);
  });
});
