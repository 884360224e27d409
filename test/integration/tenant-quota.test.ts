import { applyObject, auditWrites, controlPlane, kubectl, kubectlJson, PADDOCK_USER, uniqueName, waitFor } from './env';
import { leaseHolder, replicas, resyncRounds, startReplica, stopReplica } from './paddock-env';
import { createAs, createdOrRefusedByQuota, createPod, HeldWatch, isQuotaRefusal, type CreateAnswer } from './tenant-quota-helpers';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(600_000);

/**
 * The tenant-wide quota (SPEC §11): one budget over all of a tenant's namespaces, split into a share per
 * namespace (ResourceQuota paddock-tenant-quota) that kube-apiserver's own quota admission enforces.
 * Proven against the real control plane with alice, the owner, creating: the tenant never holds more
 * than its budget at any instant (a watch of every event), under concurrency, across a leader change
 * and with Paddock stopped; no owner create lands in a namespace before its share exists; headroom
 * moves to where it is used.
 */
const id = uniqueName('tq').slice(3);
const NAMESPACES = ['a', 'b', 'c', 'd'];

async function furnished(name: string, namespaces: readonly string[]): Promise<void> {
  for (const ns of namespaces) {
    await waitFor(`${name}-${ns} furnished`, async () => {
      const sa = await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', `${name}-${ns}`]);
      const share = await kubectl('admin', ['get', 'resourcequota', 'paddock-tenant-quota', '-n', `${name}-${ns}`, '-o', 'jsonpath={.status.hard}']);
      return sa.code === 0 && share.code === 0 && share.stdout !== '';
    }, 60_000, 200);
  }
}

/**
 * Resolves once kube-controller-manager's quota controller has counted the deletes of a round into every
 * share (`status.used` of `resource` summed is `held`). Its recount reads its own informers; a round of
 * creates started while it is still recounting the last round's deletes can be counted against a lagging
 * tally — kube's own quota race, outside what the shares decide — so each round starts from a settled count.
 */
async function quotaSettled(name: string, resource: string, held: number): Promise<void> {
  await waitFor(`the shares' ${resource} use at ${held}`, async () =>
    (await Promise.all(NAMESPACES.map((ns) => shareOf(`${name}-${ns}`)))).reduce((s, q) => s + Number(q.status?.used?.[resource] ?? 0), 0) === held, 60_000, 100);
}

/**
 * How many rounds a bound must hold in, not counting those kube's own recount raced, and how many rounds
 * at most: more raced ones than that leaves would mean the recounts come with every round (in this test
 * bed a round is raced now and then: the previous round's deletes are recounted once per delete, and
 * the first recount can settle the count before the last one lands).
 */
interface Rounds {
  clean: number;
  max: number;
}
const ROUNDS: Rounds = { clean: 3, max: 10 };

/**
 * Whether kube-controller-manager wrote a share's `status.used` of tenant `tenantName` (a recount) while
 * a round's creates were under way. Its recount reads its own informers and can count out objects
 * admitted a moment before: quota admission then admits past the share by the difference, whatever the
 * shares say — kube's own race, as in any namespace with a ResourceQuota (docs/design.md, "kube's
 * recount race"). Such a round says nothing about the shares.
 */
function recountedDuring(tenantName: string, from: Date, to: Date): boolean {
  return auditWrites(from).some((e) => e.user.username === 'system:kube-controller-manager'
    && e.objectRef?.resource === 'resourcequotas' && e.objectRef.subresource === 'status' && e.objectRef.name === 'paddock-tenant-quota'
    && (e.objectRef.namespace ?? '').startsWith(`${tenantName}-`) && new Date(e.requestReceivedTimestamp) <= to);
}

/**
 * Runs rounds (`create`, then `clear`, which returns the round's peak once all of its objects have come
 * through the watch) until `rounds.clean` of them ran without a recount of a share while their creates
 * were under way, each within `bound`; a round kube's recount raced is run again (up to `rounds.max` in
 * all) and not judged. Every round starts from a settled count: `held()` (default none) of `resource`.
 * Returns how many rounds were raced.
 */
async function cleanRounds(tenantName: string, create: (round: number) => Promise<void>, clear: () => Promise<number>, bound: number, resource: string, rounds = ROUNDS, held = () => 0): Promise<number> {
  let clean = 0;
  let raced = 0;
  for (let r = 0; clean < rounds.clean; r++) {
    expect(r).toBeLessThan(rounds.max);
    const from = new Date();
    await create(r);
    const to = new Date();
    const peak = await clear();
    if (recountedDuring(tenantName, from, to)) raced++;
    else {
      clean++;
      expect(peak).toBeLessThanOrEqual(bound);
    }
    await quotaSettled(tenantName, resource, held());
  }
  return raced;
}

const shareOf = async (namespace: string) => (await kubectlJson('admin', ['get', 'resourcequota', 'paddock-tenant-quota', '-n', namespace])) as { spec: { hard: Record<string, string> }; status?: { used?: Record<string, string> } };

/** One round: `n` concurrent pod creates spread over the namespaces; every answer is a success or the quota's refusal. */
async function round(tenantName: string, label: string, r: number, n: number): Promise<CreateAnswer[]> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => createPod('alice', `${tenantName}-${NAMESPACES[i % NAMESPACES.length]}`, `p${r}-${i}`, label)));
  const unexpected = answers.filter((a) => !createdOrRefusedByQuota(a));
  expect(unexpected).toEqual([]);
  return answers;
}

async function deleteLabelled(tenantName: string, label: string, kind = 'pods'): Promise<void> {
  for (const ns of NAMESPACES) await kubectl('admin', ['delete', kind, '-n', `${tenantName}-${ns}`, '-l', `quota-test=${label}`, '--wait=false']);
}

describe('a tenant with pods: 20 over four namespaces', () => {
  const name = `tqp${id}`;
  const label = `p${id}`;
  let watch: HeldWatch;

  beforeAll(async () => {
    await applyObject(tenant(name, { namespaces: NAMESPACES, deletionPolicy: 'Delete', quota: { hard: { pods: '20' } } }));
    await furnished(name, NAMESPACES);
    watch = await HeldWatch.open('pods', `quota-test=${label}`);
  });

  afterAll(async () => {
    watch?.close();
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('never holds more than 20 pods, over 5 rounds of 60 concurrent creates and a leader restart', async () => {
    let created = 0;
    const raced = await cleanRounds(name, async (r) => {
      let restarted: Promise<unknown> | undefined;
      if (r === 2) {
        // Mid-round: the leader stops as in a rollout, and the other replica takes over.
        const leader = await leaseHolder();
        restarted = stopReplica(leader).then(() => startReplica(leader));
      }
      watch.maxCount = watch.held.size;
      const answers = await round(name, label, r, 60);
      await restarted;
      created += answers.filter((a) => a.status === 201).length;
      // Every pod the round created has come through the watch: the round's peak is in.
      await waitFor('the round\'s pods seen', async () => answers.every((a, i) => a.status !== 201 || watch.addedAt.has(`${name}-${NAMESPACES[i % NAMESPACES.length]}/p${r}-${i}`)), 30_000, 50);
    }, async () => {
      // Free some pods so that the next round has headroom to fight over (moved by the rebalancer).
      const freed = [...watch.held.keys()].slice(0, 8);
      for (const key of freed) {
        const [ns, pod] = key.split('/');
        await kubectl('admin', ['delete', 'pod', pod!, '-n', ns!, '--wait=false']);
      }
      await waitFor('the deletes seen', async () => freed.every((key) => !watch.held.has(key)), 30_000, 50);
      return watch.maxCount;
    }, 20, 'pods', { clean: 5, max: 12 }, () => watch.held.size);
    // eslint-disable-next-line no-console
    console.log(`20 pods: rounds raced by kube's recount, not counted: ${raced}`);
    expect(created).toBeGreaterThan(20); // the rounds did create: the bound was exercised, not vacuous
    const sum = (await Promise.all(NAMESPACES.map((ns) => shareOf(`${name}-${ns}`)))).reduce((s, q) => s + Number(q.spec.hard.pods), 0);
    expect(sum).toBeLessThanOrEqual(20);
  });

  it('shows the budget and its use on the Tenant', async () => {
    await waitFor('status.quota.used', async () => {
      const t = await kubectlJson('admin', ['get', 'tenant', name]);
      return t.status?.quota?.hard?.pods === '20' && Number(t.status?.quota?.used?.pods) === watch.held.size;
    }, 30_000, 200);
    const wide = await kubectl('admin', ['get', 'tenant', name, '-o', 'wide']);
    expect(wide.stdout).toMatch(/BUDGET/);
    expect(wide.stdout).toMatch(/pods\W+20/);
    // The owner reads the same cells through the ownedtenants view (the Tenant CRD's printer columns), and
    // each namespace's share through its TenantNamespace.
    const owned = await kubectl('alice', ['get', 'ownedtenants', name, '-o', 'wide']);
    expect(owned.stdout).toMatch(/BUDGET\s+USED/);
    expect(owned.stdout).toMatch(/pods\W+20/);
    expect(owned.stdout).toMatch(new RegExp(`pods\\W+${watch.held.size}\\b`));
    // Read through Paddock's cache, which follows kube-apiserver's share (and the rebalancer may move it
    // between the two reads): the view shows it once both agree in one attempt.
    await waitFor(`${name}-a's share in its TenantNamespace`, async () => {
      const share = await shareOf(`${name}-a`);
      const tns = await kubectlJson('alice', ['get', 'tenantnamespaces', `${name}-a`]);
      return tns.status?.quota?.hard?.pods !== undefined && tns.status.quota.hard.pods === share.spec.hard.pods;
    }, 30_000, 200);
  });

  it('keeps refusing past the budget while Paddock is stopped, and moves headroom again once it is back', async () => {
    await deleteLabelled(name, label);
    await waitFor('no pods', async () => watch.held.size === 0, 30_000, 50);
    await quotaSettled(name, 'pods', 0);
    // Fill the budget, all of it in namespace a (headroom moves there from b, c and d).
    watch.maxCount = watch.held.size;
    const fillStart = Date.now();
    let n = 0;
    while (watch.held.size < 20) {
      const a = await createPod('alice', `${name}-a`, `fill-${n++}`, label);
      expect(createdOrRefusedByQuota(a) ? 'created or refused by the quota' : a).toBe('created or refused by the quota');
      if (Date.now() - fillStart > 60_000) throw new Error(`only ${watch.held.size} pods in ${name}-a after 60 s`);
    }
    const fillMs = Date.now() - fillStart;
    const stopped = replicas().map((r) => r.identity);
    try {
      for (const r of stopped) await stopReplica(r);
      for (const ns of NAMESPACES) expect(isQuotaRefusal(await createPod('alice', `${name}-${ns}`, `stopped-${ns}`, label))).toBe(true);
      // Freed in a while Paddock is down: b stays refused, as nothing moves the headroom.
      for (const key of [...watch.held.keys()].slice(0, 10)) await kubectl('admin', ['delete', 'pod', key.split('/')[1]!, '-n', key.split('/')[0]!, '--wait=false']);
      await waitFor('10 pods', async () => watch.held.size === 10, 30_000, 50);
      expect(isQuotaRefusal(await createPod('alice', `${name}-b`, 'stopped-b', label))).toBe(true);
    } finally {
      for (const r of stopped) await startReplica(r);
    }
    const start = Date.now();
    await waitFor('a create in b after the restart', async () => (await createPod('alice', `${name}-b`, `after-${Date.now()}`, label)).status === 201, 60_000, 100);
    // eslint-disable-next-line no-console
    console.log(`headroom moved: 20 pods into one namespace in ${fillMs} ms; a create in b ${Date.now() - start} ms after Paddock started again`);
    expect(watch.maxCount).toBeLessThanOrEqual(20);
  });

  it('moves headroom freed in one namespace to a create refused in another: measured', async () => {
    watch.maxCount = watch.held.size;
    const latencies: number[] = [];
    for (let trial = 0; trial < 6; trial++) {
      // At the budget, all of the headroom used in a.
      for (let n = 0; watch.held.size < 20; n++) {
        const a = await createPod('alice', `${name}-a`, `t${trial}-${n}`, label);
        expect(createdOrRefusedByQuota(a) ? 'created or refused by the quota' : a).toBe('created or refused by the quota');
      }
      expect(isQuotaRefusal(await createPod('alice', `${name}-b`, `t${trial}-refused`, label))).toBe(true);
      // Four pods freed in a: an equal part of the headroom is one pod for each namespace.
      const freed = [...watch.held.keys()].filter((k) => k.startsWith(`${name}-a/`)).slice(0, 4);
      for (const key of freed) await kubectl('admin', ['delete', 'pod', key.split('/')[1]!, '-n', `${name}-a`, '--wait=false']);
      await waitFor('the deletes seen', async () => freed.every((k) => !watch.held.has(k)), 30_000, 20);
      const start = Date.now();
      await waitFor('a create in b', async () => (await createPod('alice', `${name}-b`, `t${trial}-b-${Date.now()}`, label)).status === 201, 30_000, 20);
      latencies.push(Date.now() - start);
      await kubectl('admin', ['delete', 'pods', '-n', `${name}-b`, '-l', `quota-test=${label}`, '--wait=false']);
      await waitFor('the deletes in b seen', async () => ![...watch.held.keys()].some((k) => k.startsWith(`${name}-b/`)), 30_000, 20);
      await quotaSettled(name, 'pods', watch.held.size);
    }
    latencies.sort((x, y) => x - y);
    // eslint-disable-next-line no-console
    console.log(`headroom to a refused namespace, ms after the deletes were seen: ${latencies.join(', ')} (p50 ${latencies[Math.floor(latencies.length / 2)]}, max ${latencies[latencies.length - 1]})`);
    expect(watch.maxCount).toBeLessThanOrEqual(20);
  });

  it('writes nothing while the use does not change', async () => {
    // Converged: the shares and the status stop moving.
    let last = '';
    await waitFor('the shares at rest', async () => {
      const now = JSON.stringify(await Promise.all(NAMESPACES.map(async (ns) => (await shareOf(`${name}-${ns}`)).spec.hard)));
      const same = now === last;
      last = now;
      return same;
    }, 30_000, 2_000);
    const since = new Date();
    // A later positive event: the leader's reconciler resyncs every Tenant (the quota controller is
    // queued by the same events), and a probe pod is refused or created — then counted out below.
    await resyncRounds(2);
    const writes = auditWrites(since).filter((e) => e.user.username === PADDOCK_USER && (e.objectRef?.namespace?.startsWith(`${name}-`) || e.objectRef?.name === name));
    expect(writes.map((e) => `${e.verb} ${e.objectRef?.resource}/${e.objectRef?.name}`)).toEqual([]);
  });
});

describe('requests.cpu with LimitRange defaults, and count/services', () => {
  const name = `tqc${id}`;
  const label = `c${id}`;

  beforeAll(async () => {
    await applyObject(tenant(name, {
      namespaces: NAMESPACES,
      deletionPolicy: 'Delete',
      limitRanges: [{ limits: [{ type: 'Container', defaultRequest: { cpu: '100m' }, default: { cpu: '100m' } }] }],
      quota: { hard: { 'requests.cpu': '1', 'count/services': '6' } },
    } satisfies Partial<TenantSpec>));
    await furnished(name, NAMESPACES);
    await waitFor('the LimitRanges', async () => (await kubectl('admin', ['get', 'limitrange', 'paddock-limits-0', '-n', `${name}-d`])).code === 0, 30_000, 200);
  });

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('never holds more than 1 CPU of requests', async () => {
    const watch = await HeldWatch.open('pods', `quota-test=${label}`);
    try {
      const raced = await cleanRounds(name, async (r) => {
        watch.maxCpu = watch.cpu;
        await round(name, label, r, 40);
      }, async () => {
        await deleteLabelled(name, label);
        await waitFor('no pods', async () => watch.held.size === 0, 30_000, 50);
        // Every ADDED of the round came before its DELETED: the round's peak is in.
        return watch.maxCpu;
      }, 1000, 'pods');
      // eslint-disable-next-line no-console
      console.log(`1 CPU of requests: rounds raced by kube's recount, not counted: ${raced}`);
      expect(watch.maxCount).toBeGreaterThan(0);
    } finally {
      watch.close();
    }
  });

  it('never holds more than 6 Services', async () => {
    const watch = await HeldWatch.open('services', `quota-test=${label}`);
    try {
      const raced = await cleanRounds(name, async (r) => {
        watch.maxCount = watch.held.size;
        const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => createAs('alice', `/api/v1/namespaces/${name}-${NAMESPACES[i % 4]}/services`, {
          apiVersion: 'v1', kind: 'Service', metadata: { name: `s${r}-${i}`, labels: { 'quota-test': label } }, spec: { ports: [{ port: 80 }] },
        })));
        expect(answers.filter((a) => a.status !== 201 && !(a.status === 403 && a.message.includes('exceeded quota: paddock-tenant-quota')))).toEqual([]);
      }, async () => {
        await deleteLabelled(name, label, 'services');
        await waitFor('no services', async () => watch.held.size === 0, 30_000, 50);
        return watch.maxCount;
      }, 6, 'count/services');
      // eslint-disable-next-line no-console
      console.log(`6 Services: rounds raced by kube's recount, not counted: ${raced}`);
      expect(watch.maxCount).toBeGreaterThan(0);
    } finally {
      watch.close();
    }
  });
});

describe('no unguarded window', () => {
  const name = `tqw${id}`;
  const label = `w${id}`;

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  /** Creates pods in `namespace` as fast as one client can until `done`; returns every answer. */
  async function hammer(namespace: string, client: string, done: () => boolean): Promise<CreateAnswer[]> {
    const answers: CreateAnswer[] = [];
    for (let i = 0; !done(); i++) answers.push(await createPod('alice', namespace, `h-${client}-${i}`, label));
    return answers;
  }

  /**
   * Alice creates pods in `namespace` from 6 clients at once, as fast as they go, while `appear` makes the
   * namespace; until one is created. Every pod created must come after the share (etcd's revisions
   * order the two creates), and the namespace must hold no more than the budget.
   */
  async function race(namespace: string, appear: () => Promise<unknown>): Promise<void> {
    const shares = await HeldWatch.open('resourcequotas', `paddock.dev/tenant=${name}`);
    let stop = false;
    const racing = Promise.all(Array.from({ length: 6 }, (_, c) => hammer(namespace, `c${c}`, () => stop)));
    await appear();
    await waitFor(`a pod created in ${namespace}`, async () => (await kubectl('admin', ['get', 'pods', '-n', namespace, '-o', 'name'])).stdout.trim() !== '', 60_000, 100);
    stop = true;
    const answers = (await racing).flat();
    shares.close();
    const ok = answers.filter((a) => a.status === 201);
    const guard = answers.filter((a) => a.message.includes("ValidatingAdmissionPolicy 'paddock-tenant-quota'"));
    // eslint-disable-next-line no-console
    console.log(`window race in ${namespace}: ${answers.length} creates, ${guard.length} refused by the guard, ${ok.length} created`);
    expect(ok.length).toBeGreaterThan(0);
    const shareAt = shares.addedAt.get(`${namespace}/paddock-tenant-quota`);
    expect(shareAt).toBeDefined();
    for (const a of ok) expect(Number(a.resourceVersion)).toBeGreaterThan(shareAt!);
    const created = await kubectlJson('admin', ['get', 'pods', '-n', namespace]);
    expect(created.items.length).toBe(ok.length);
    expect(created.items.length).toBeLessThanOrEqual(4);
  }

  it('refuses every create in a new declared namespace until its share exists', async () => {
    await applyObject(tenant(name, { namespaces: ['a'], quota: { hard: { pods: '4' } } }));
    await furnished(name, ['a']);
    await race(`${name}-b`, () => kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', JSON.stringify({ spec: { namespaces: ['a', 'b'] } })]));
  });

  it('refuses every create in a new self-service namespace until its share exists', async () => {
    // b's pods are gone first, so the budget leaves the new namespace room.
    await kubectl('admin', ['delete', 'pods', '--all', '-n', `${name}-b`]);
    await race(`${name}-ss`, () => kubectl('alice', ['create', '-f', '-'], JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: `${name}-ss` }, spec: { tenant: name } })));
  });

  it('refuses creates while a deleted share is missing, naming the policy', async () => {
    // With every replica stopped nothing re-creates the share, so the probe meets the namespace without
    // it: the guard alone must refuse. Started again, Paddock restores the share and the same create passes.
    const probe = (i: number) => createAs('alice', `/api/v1/namespaces/${name}-a/pods?dryRun=All`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: `dry-${i}` }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    const stopped = replicas().map((r) => r.identity);
    try {
      for (const r of stopped) await stopReplica(r);
      await kubectl('admin', ['delete', 'resourcequota', 'paddock-tenant-quota', '-n', `${name}-a`]);
      // kube-apiserver answers a binding whose parameter is missing (`Deny`) with 422 Invalid.
      const refused = await probe(0);
      expect(refused).toEqual({ status: 422, message: expect.stringContaining("ValidatingAdmissionPolicy 'paddock-tenant-quota'"), resourceVersion: undefined });
    } finally {
      for (const r of stopped) await startReplica(r);
    }
    await furnished(name, ['a']);
    expect((await probe(1)).status).toBe(201);
  });

  it("never refuses Paddock's own guardrails while a new namespace's share is not yet in force", async () => {
    // The guard holds the owners' creates until kube-controller-manager has put the share in force; the
    // guardrails Paddock writes right after the share (network policies, role bindings) are not the
    // owners' and must not wait for it, or every new namespace of a budgeted tenant costs a failed pass.
    // kube-controller-manager is paused meanwhile, so no share can come into force before they are made.
    const fresh = `${name}f`;
    const since = new Date();
    const kcm = controlPlane().pids.controllerManager;
    process.kill(kcm, 'SIGSTOP');
    try {
      await applyObject(tenant(fresh, { namespaces: ['a', 'b'], deletionPolicy: 'Delete', quota: { hard: { pods: '6' } } }));
      for (const ns of ['a', 'b']) {
        await waitFor(`${fresh}-${ns}'s owner RoleBinding and isolation policy`, async () =>
          (await kubectl('admin', ['get', 'networkpolicy/paddock-isolation', '-n', `${fresh}-${ns}`])).code === 0 &&
          (await kubectl('admin', ['get', 'rolebindings', '-n', `${fresh}-${ns}`, '-l', 'app.kubernetes.io/managed-by=paddock', '-o', 'name'])).stdout.includes('rolebinding'), 60_000, 200);
      }
      // The owners are still held: alice's create (a ConfigMap: a pod would wait for its ServiceAccount,
      // which kube-controller-manager makes) meets the guard.
      const early = await createAs('alice', `/api/v1/namespaces/${fresh}-a/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'early' } });
      expect(early).toEqual({ status: 403, message: expect.stringContaining('is not in force yet'), resourceVersion: undefined });
      // Of the kinds Paddock writes, only what carries its label passes, and that label is Paddock's alone.
      const policy = (labels: Record<string, string>) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: `early-${Object.keys(labels).length}`, labels }, spec: { podSelector: {}, policyTypes: ['Egress'] } });
      expect(await createAs('alice', `/apis/networking.k8s.io/v1/namespaces/${fresh}-a/networkpolicies`, policy({})))
        .toEqual({ status: 403, message: expect.stringContaining('is not in force yet'), resourceVersion: undefined });
      expect(await createAs('alice', `/apis/networking.k8s.io/v1/namespaces/${fresh}-a/networkpolicies`, policy({ 'app.kubernetes.io/managed-by': 'paddock' })))
        .toEqual({ status: 403, message: expect.stringContaining('is for what Paddock makes'), resourceVersion: undefined });
    } finally {
      process.kill(kcm, 'SIGCONT');
    }
    try {
      await furnished(fresh, ['a', 'b']);
      const refusals = auditWrites(since)
        .filter((e) => e.user.username === PADDOCK_USER && (e.objectRef?.namespace ?? '').startsWith(`${fresh}-`) && (e.responseStatus?.code ?? 0) >= 400 && e.responseStatus?.code !== 409)
        .map((e) => `${e.verb} ${e.objectRef?.resource} ${e.objectRef?.namespace}/${e.objectRef?.name} → ${e.responseStatus?.code}`);
      expect(refusals).toEqual([]);
    } finally {
      await kubectl('admin', ['delete', 'tenant', fresh, '--wait=false']);
    }
  });
});

describe('gaining, losing and misspelling spec.quota', () => {
  const name = `tqg${id}`;
  const ns = `${name}-x`;
  const patchQuota = (quota: unknown) => kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', JSON.stringify({ spec: { quota } })]);

  beforeAll(async () => {
    await applyObject(tenant(name, { namespaces: ['x'] }));
    await waitFor(`${ns} furnished`, async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', ns])).code === 0, 60_000, 200);
    // Until alice's RoleBinding and the TenantRestriction are in place her creates are refused: the first is retried.
    await waitFor('alice creating in x', async () => (await createPod('alice', ns, 'before-0', `g${id}`)).status === 201, 60_000, 200);
    for (let i = 1; i < 3; i++) expect((await createPod('alice', ns, `before-${i}`, `g${id}`)).status).toBe(201);
  });

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('limits an existing namespace once the Tenant gains a budget, counting what it already holds', async () => {
    await patchQuota({ hard: { pods: '4' } });
    await waitFor('the share and the label', async () => {
      const labels = (await kubectlJson('admin', ['get', 'namespace', ns])).metadata.labels ?? {};
      const share = await kubectl('admin', ['get', 'resourcequota', 'paddock-tenant-quota', '-n', ns, '-o', 'jsonpath={.status.used.pods}']);
      return labels['paddock.dev/tenant-quota'] === 'true' && share.stdout === '3';
    }, 60_000, 200);
    await waitFor('the fourth pod', async () => (await createPod('alice', ns, `after-${Date.now()}`, `g${id}`)).status === 201, 30_000, 100);
    expect(isQuotaRefusal(await createPod('alice', ns, 'fifth', `g${id}`))).toBe(true);
    await waitFor('status.quota and AtBudget', async () => {
      const t = await kubectlJson('admin', ['get', 'tenant', name]);
      const c = (t.status?.conditions ?? []).find((x: { type: string }) => x.type === 'QuotaAvailable');
      return t.status?.quota?.used?.pods === '4' && c?.reason === 'AtBudget';
    }, 30_000, 200);
  });

  it('reports a budget below the use and deletes nothing', async () => {
    await patchQuota({ hard: { pods: '2' } });
    await waitFor('OverBudget', async () => {
      const t = await kubectlJson('admin', ['get', 'tenant', name]);
      return (t.status?.conditions ?? []).some((x: { type: string; reason: string }) => x.type === 'QuotaAvailable' && x.reason === 'OverBudget');
    }, 30_000, 200);
    expect((await kubectlJson('admin', ['get', 'pods', '-n', ns])).items).toHaveLength(4);
    expect(isQuotaRefusal(await createPod('alice', ns, 'over', `g${id}`))).toBe(true);
  });

  it('reports a resource name or quantity it cannot use, by name', async () => {
    await patchQuota({ hard: { pods: 'lots', 'not a name': '1' } });
    await waitFor('InvalidSpec naming the keys', async () => {
      const t = await kubectlJson('admin', ['get', 'tenant', name]);
      const ready = (t.status?.conditions ?? []).find((x: { type: string }) => x.type === 'Ready');
      return ready?.reason === 'InvalidSpec' && ready.message.includes('spec.quota.hard[pods]') && ready.message.includes('spec.quota.hard[not a name]');
    }, 30_000, 200);
  });

  it('removes the share, the label and status.quota when the budget is removed', async () => {
    await patchQuota(null);
    await waitFor('no share, no label, no status.quota', async () => {
      const share = await kubectl('admin', ['get', 'resourcequota', 'paddock-tenant-quota', '-n', ns]);
      const labels = (await kubectlJson('admin', ['get', 'namespace', ns])).metadata.labels ?? {};
      const t = await kubectlJson('admin', ['get', 'tenant', name]);
      return share.code !== 0 && labels['paddock.dev/tenant-quota'] === undefined && t.status?.quota === undefined;
    }, 60_000, 200);
    expect((await createPod('alice', ns, 'unlimited', `g${id}`)).status).toBe(201);
  });
});
