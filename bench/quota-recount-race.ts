// `tsx bench/quota-recount-race.ts [trials] [--control]`: whether kube-controller-manager's resource quota controller,
// recounting a ResourceQuota because its spec.hard changed while creates are being admitted, can write a
// status.used below the objects that exist — and whether quota admission then admits past spec.hard.
// Runs on a control plane of its own (.paddock/quota-race), stopped at the end.
//
// Per trial, one namespace with a ResourceQuota (pods: LIMIT, and count/configmaps, the resource whose
// limit is toggled so that spec.hard changes without the pods limit changing): WORKERS concurrent pod
// creates until each has been refused REFUSALS times in a row, while spec.hard is rewritten every
// TOGGLE_MS. A watch of the pods and a watch of the quota (one etcd: resourceVersions are one order)
// give, for each status the quota went through, the pods created before it; a status.used below that
// count is an undercount. At the end, pods beyond LIMIT are over-admissions.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startControlPlane, stopControlPlane, type ControlPlaneState } from '../test/controlplane/controlplane';
import { sleep } from '../test/controlplane/processes';
import { ACCEPT_JSON, Client } from './http';
import { eachJsonLine } from '../src/testing/lines';

const DIR = join(resolve(__dirname, '..'), '.paddock', 'quota-race');
const LIMIT = 30;
const WORKERS = 12;
const REFUSALS = 5;
const TOGGLE_MS = 15;

interface Event {
  type: string;
  object: { metadata: { name: string; resourceVersion: string }; status?: { used?: Record<string, string> } };
}

/** A watch of `path` collecting every event until closed. */
function watch(state: ControlPlaneState, path: string): { events: Event[]; close: () => void; ready: Promise<void> } {
  const events: Event[] = [];
  let close = () => undefined as void;
  const ready = new Promise<void>((done, fail) => {
    const u = new URL(`${state.server}${path}`);
    const req = request({
      host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`,
      ca: readFileSync(state.pki.ca.cert), cert: readFileSync(state.pki.users.admin.cert), key: readFileSync(state.pki.users.admin.key),
    }, (res) => {
      eachJsonLine<Event>(res, (e) => events.push(e));
      done();
    });
    req.on('error', (err) => (req.destroyed ? undefined : fail(err)));
    req.end();
    close = () => req.destroy();
  });
  return { events, close: () => close(), ready };
}

interface Trial {
  created: number;
  /**
   * Statuses of the quota whose used.pods is below the pods created before them. Only a recount can
   * start one (quota admission adds to the latest status, under its resourceVersion); the admissions
   * counted on top of an undercount show up as further ones, until a later recount corrects it.
   */
  undercounts: { rv: number; used: number; existing: number }[];
  statuses: number;
  specWrites: number;
}

async function trial(state: ControlPlaneState, admin: Client, n: number, toggle: boolean): Promise<Trial> {
  const ns = `race-${n}`;
  const must = async (res: Promise<{ status: number; body: unknown }>, what: string) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  await must(admin.postJson('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }), 'namespace');
  await must(admin.postJson(`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }), 'serviceaccount');
  await must(admin.postJson(`/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: String(LIMIT), 'count/configmaps': '1000' } } }), 'quota');
  for (;;) {
    const q = await admin.getJson<{ status?: { hard?: Record<string, string> } }>(`/api/v1/namespaces/${ns}/resourcequotas/q`);
    if (q.status?.hard?.pods === String(LIMIT)) break;
    await sleep(50);
  }
  const pods = watch(state, `/api/v1/namespaces/${ns}/pods?watch=true`);
  const quota = watch(state, `/api/v1/namespaces/${ns}/resourcequotas?watch=true`);
  await Promise.all([pods.ready, quota.ready]);

  let running = true;
  let specWrites = 0;
  const toggler = (async () => {
    for (let i = 0; running && toggle; i++) {
      await must(admin.patchJson(`/api/v1/namespaces/${ns}/resourcequotas/q`, { spec: { hard: { 'count/configmaps': String(1000 + (i % 2)) } } }), 'toggle');
      specWrites++;
      await sleep(TOGGLE_MS);
    }
  })();
  let next = 0;
  let created = 0;
  await Promise.all(Array.from({ length: WORKERS }, async () => {
    for (let refused = 0; refused < REFUSALS;) {
      const res = await admin.send('POST', `/api/v1/namespaces/${ns}/pods`, { 'Content-Type': 'application/json', Accept: ACCEPT_JSON },
        JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${next++}` }, spec: { containers: [{ name: 'c', image: 'registry.example.com/app:1' }] } }));
      if (res.status === 201) {
        created++;
        refused = 0;
      } else if (res.status === 403 && res.body.toString('utf8').includes('exceeded quota')) refused++;
      else if (res.status !== 409 && res.status !== 500) throw new Error(`create: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
    }
  }));
  running = false;
  await toggler;
  // Both watches have delivered everything: the final spec change recounted, every created pod added.
  await must(admin.patchJson(`/api/v1/namespaces/${ns}/resourcequotas/q`, { spec: { hard: { 'count/configmaps': '1999' } } }), 'final');
  const hardOf = (e: Event) => (e.object as { status?: { hard?: Record<string, string> } }).status?.hard?.['count/configmaps'];
  while (!quota.events.some((e) => hardOf(e) === '1999') || pods.events.filter((e) => e.type === 'ADDED').length < created) await sleep(50);
  pods.close();
  quota.close();

  const createdAt = pods.events.filter((e) => e.type === 'ADDED').map((e) => Number(e.object.metadata.resourceVersion)).sort((a, b) => a - b);
  const existingBefore = (rv: number) => createdAt.filter((p) => p < rv).length;
  const undercounts: Trial['undercounts'] = [];
  let statuses = 0;
  for (const e of quota.events) {
    if (e.type !== 'MODIFIED' || e.object.status?.used?.pods === undefined) continue;
    statuses++;
    const rv = Number(e.object.metadata.resourceVersion);
    const used = Number(e.object.status.used.pods);
    const existing = existingBefore(rv);
    if (used < existing) undercounts.push({ rv, used, existing });
  }
  return { created, undercounts, statuses, specWrites };
}

async function main(): Promise<void> {
  // `--control`: the same creates without rewriting spec.hard (kube-controller-manager does not recount).
  const toggle = !process.argv.includes('--control');
  const trials = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10);
  const state = await startControlPlane({ dir: DIR, controllers: ['namespace-controller', 'garbage-collector-controller', 'resourcequota-controller'] });
  const admin = new Client(state.server, state.pki.ca.cert, state.pki.users.admin, 32);
  try {
    let over = 0;
    let under = 0;
    for (let n = 0; n < trials; n++) {
      const t = await trial(state, admin, n, toggle);
      if (t.created > LIMIT) over++;
      if (t.undercounts.length) under++;
      console.log(`trial ${n}: ${t.created} pods created (limit ${LIMIT}); ${t.specWrites} spec.hard writes; ` +
        `${t.undercounts.length} of ${t.statuses} quota statuses below the pods created before them${t.undercounts.length ? `: ${t.undercounts.slice(0, 3).map((u) => `used ${u.used} < ${u.existing} at rv ${u.rv}`).join(', ')}` : ''}`);
    }
    console.log(`${over}/${trials} trials admitted more than ${LIMIT} pods; ${under}/${trials} saw status.used below the pods that existed`);
  } finally {
    admin.close();
    await stopControlPlane(DIR);
  }
}

process.on('SIGINT', () => void stopControlPlane(DIR).finally(() => process.exit(130)));
main().then(() => process.exit(0), (err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : String(err));
  void stopControlPlane(DIR).finally(() => process.exit(1));
});
