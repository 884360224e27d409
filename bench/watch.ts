import { eachLine } from '../src/testing/lines';
import { request, type Agent } from 'node:https';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { sleep } from '../test/controlplane/processes';
import { TENANT_LABEL, TNS, type BenchCluster } from './cluster';
import { pool, type Client } from './http';
import { RssSampler } from './proc';
import { CpuTimeline, MAIN_THREAD } from './cpu-timeline';
import { otherThreadsFrom, schedFrom, schedPer, type Sched, type ServingProcess } from './sched';
import { ownerName, type BenchConfig } from './scenarios';
import { ratio, round, summarize, type LatencySummary } from './stats';
import { tails } from './tails';

/** The label the benchmark patches onto a namespace; its value names the phase and the change. */
const SEQ_LABEL = 'bench.paddock.dev/seq';

/** The namespaces changes are made to, with the owner whose watchers must see each. */
export interface WatchWorld {
  namespaces: { name: string; tenant: string; owner: string }[];
  tenantsOf: Map<string, string[]>;
}

export interface WatchPhaseResult {
  target: string;
  role: 'paddock' | 'baseline';
  watchers: number;
  /** Milliseconds to open every watch (headers received). */
  openMs: number;
  changes: number;
  expected: number;
  delivered: number;
  /** Deliveries to a watcher whose owner does not own the namespace (must be 0). */
  unexpected: number;
  /**
   * Watches that ended before the phase closed them (must be 0): the server ended the stream, with an
   * ERROR event or without, or the connection failed. Their missing deliveries are in `expected − delivered`.
   */
  endedEarly: number;
  /** Those watches by why they ended (only when there were any): `ERROR <code> <reason>`, `end`, `error: ...`. */
  endedEarlyBy?: Record<string, number>;
  /** Paddock's writes to kube-apiserver during the phase (audit log; must be 0: label changes are not drift). */
  paddockWrites: number;
  /** Those writes by verb and resource (only when there were any). */
  paddockWritesByResource?: Record<string, number>;
  /** From just before the PATCH is sent to the event's arrival at a watcher that should see it. */
  delivery: LatencySummary;
  /**
   * From the change's arrival at a direct watch of kube-apiserver (the reference, open in every phase) to
   * its arrival at a watcher: the target's own hop (Paddock's informer and fan-out, capsule-proxy's
   * proxying; about 0 for kube-apiserver's label-selected watch). Negative when the watcher was first.
   */
  hop?: LatencySummary;
  /** Latency of the PATCH requests themselves. */
  write: LatencySummary;
  /**
   * Paddock's main thread (its event loop) per change, from the first PATCH until every event arrived
   * (/proc/<pid>/schedstat; Paddock phases only): time on a CPU, and time runnable but waiting for one
   * while the machine's other processes ran. What a change costs Paddock, and what part of its hop it
   * spent waiting its turn rather than working; and how many times it was put on a CPU (each wake-up
   * pays a wait on a busy machine).
   */
  paddockPerChange?: Sched;
  /** The same thread per second just before, its watches open and no change made: its background (timers, the bench's probes). */
  paddockIdlePerSecond?: Sched;
  /**
   * Paddock's other threads, summed, per change and per second idle: V8's workers (GC and compilation
   * off the event loop), libuv's pool when in use, the CPU profiler's sampler when profiling. Whether a
   * change also wakes them.
   */
  paddockOtherThreadsPerChange?: Sched;
  paddockOtherThreadsIdlePerSecond?: Sched;
  rssPeakMiB: { paddock: number; kubeApiserver: number };
  rssMeanMiB: { paddock: number; kubeApiserver: number };
}

export interface WatchResult {
  scenario: 'watch-fanout';
  size: number;
  owners: number;
  /** The largest fan-out's watchers per owner (the phases hold every fan-out measured, each with its `watchers`). */
  watchersPerOwner: number;
  changesPerSecond: number;
  seconds: number;
  phases: WatchPhaseResult[];
  /** kube-apiserver's label-selected watch ÷ Paddock's delivery latency at each fan-out (higher is better for Paddock; goal ≥ 1). */
  vsLabelSelected?: WatchRatio[];
  /** capsule-proxy's ÷ Paddock's delivery latency at each fan-out, from scenario 7 (higher is better for Paddock; goal ≥ 1). */
  vsCapsuleProxy?: WatchRatio[];
  /** Paddock's hop beside the floor of a Node.js hop (watch-relay-floor.ts) at each fan-out. */
  hopFloor?: HopFloor[];
}

/** At one fan-out: Paddock's hop and the Node.js relay's (ms), and Paddock's ÷ the relay's (lower is better; 1 is the floor). */
export interface HopFloor {
  watchers: number;
  paddock: { p50: number; p99: number };
  relay: { p50: number; p99: number };
  ratioP50: number;
  ratioP99: number;
}

/** The path of an owner's label-selected namespace watch: what a label-injecting proxy would send for it. */
export function labelSelectedWatchPath(world: WatchWorld, owner: string): string {
  const selector = `${TENANT_LABEL} in (${world.tenantsOf.get(owner)!.join(',')})`;
  return `/api/v1/namespaces?watch=1&labelSelector=${encodeURIComponent(selector)}`;
}

/** The label-selected watch of kube-apiserver, scenario 3's baseline. */
export const LABEL_SELECTED_TARGET = 'kube-apiserver namespaces, label selector';

/** A baseline's delivery latency ÷ Paddock's, at one fan-out, measured in the same run one after the other. */
export interface WatchRatio {
  watchers: number;
  ratioP50: number;
  ratioP99: number;
}

/** The baseline ÷ Paddock ratios of a fan-out result, one per number of watchers (each baseline phase, or `target`'s alone, beside the Paddock phase with as many watchers). */
export function watchRatios(w: WatchResult, target?: string): WatchRatio[] {
  return w.phases.filter((b) => b.role === 'baseline' && (target === undefined || b.target === target)).flatMap((b) => {
    const p = w.phases.find((x) => x.role === 'paddock' && x.watchers === b.watchers);
    return p ? [{ watchers: b.watchers, ratioP50: ratio(b.delivery.p50, p.delivery.p50), ratioP99: ratio(b.delivery.p99, p.delivery.p99) }] : [];
  });
}

/** A deterministic pseudo-random sequence (mulberry32), so both phases make the same changes. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a watch's stream has told so far. */
export interface WatchStream {
  /** The changes of the phase it delivered. */
  seen: Set<number>;
  /**
   * Why it ended, once it did: the server's ERROR event (`ERROR <code> <reason>`, its message), or the
   * response's end or failure without one. Read before the phase closes the watch itself.
   */
  ended?: { why: string; message: string };
}

interface OpenWatch {
  req: ClientRequest;
  stream: WatchStream;
}

/**
 * Follows a watch's response: every event line is parsed; an event whose object carries
 * `<phase>-<seq>` in the seq label counts as one delivery of change `seq` (first arrival only). An
 * ERROR event, the response's end or its failure is recorded in `ended`: a watch that ended delivers
 * nothing more, and its phase must say so rather than count it as a watcher that was sent nothing.
 */
export function followWatch(res: IncomingMessage, phase: string, onDelivery: (seq: number, at: number) => void): WatchStream {
  const stream: WatchStream = { seen: new Set() };
  const prefix = `${phase}-`;
  let error: WatchStream['ended'];
  const end = (why: string, message = why) => {
    stream.ended ??= error ?? { why, message };
  };
  eachLine(res, (line, at) => {
    if (line.startsWith('{"type":"ERROR"')) {
      const status = (JSON.parse(line) as { object?: { code?: number; reason?: string; message?: string } }).object;
      error ??= { why: `ERROR ${status?.code} ${status?.reason}`, message: status?.message ?? '' };
      return;
    }
    if (!line.includes(prefix)) return;
    const event = JSON.parse(line) as { object?: { metadata?: { labels?: Record<string, string> } } };
    const value = event.object?.metadata?.labels?.[SEQ_LABEL];
    if (!value?.startsWith(prefix)) return;
    const seq = Number(value.slice(prefix.length));
    if (stream.seen.has(seq)) return;
    stream.seen.add(seq);
    onDelivery(seq, at);
  });
  res.on('end', () => end('end', 'the server ended the response'));
  res.on('error', (err) => end(`error: ${err.message}`));
  res.on('close', () => end('close', 'the connection closed'));
  return stream;
}

/** How long a watch may take to answer its request (its headers): a server that does not is not waited on for ever. */
const OPEN_TIMEOUT_MS = 60_000;

/** Opens one watch and resolves once its response headers arrived; its events are followed by `followWatch`. */
function openWatch(agent: Agent, url: string, phase: string, onDelivery: (seq: number, at: number) => void): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => req.destroy(new Error(`watch ${url}: no response headers within ${OPEN_TIMEOUT_MS / 1000} s`)), OPEN_TIMEOUT_MS);
    const req = request(url, { agent, headers: { Accept: 'application/json' } }, (res) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          const message = `watch ${url}: ${res.statusCode} ${body.slice(0, 300)}`;
          const retryAfter = Number(res.headers['retry-after']);
          const retryable = res.statusCode === 429 || res.statusCode === 503;
          reject(retryable ? new RetryLater(message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1) : new Error(message));
        });
        return;
      }
      resolve({ req, stream: followWatch(res, phase, onDelivery) });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}

/** A refusal the server asks to be retried (429, 503), after `seconds`. */
class RetryLater extends Error {
  constructor(message: string, readonly seconds: number) {
    super(message);
  }
}

/**
 * Opens a watch as client-go's reflector does: a refusal that asks to be retried (a busy server, an
 * authorization review that timed out) is retried after the time it names, a few times.
 */
async function openWatchRetrying(...args: Parameters<typeof openWatch>): Promise<OpenWatch> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openWatch(...args);
    } catch (err) {
      if (!(err instanceof RetryLater) || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, err.seconds * 1000));
    }
  }
}

/** One phase of the scenario: who watches what. */
export interface Phase {
  target: string;
  role: 'paddock' | 'baseline';
  /** The watch URLs of one owner's watchers (one per watcher) and the agent they share. */
  watchesOf(owner: string): { agent: Agent; url: string };
  /** The proxy the watches go through, when they go through one (its CPU time names a late delivery's cause). */
  proxy?: ServingProcess;
}

/**
 * Scenario 3: some watches for each owner, open at once, while an admin patches a label on
 * tenant namespaces at a steady rate; every change must reach exactly the watchers of the namespace's
 * owner. Paddock's watchers watch tenantnamespaces directly with their owner's client certificate; the
 * baseline watchers watch kube-apiserver's namespaces with a set-based selector on the owner's tenants
 * (`paddock.dev/tenant in (...)`, what a label-injecting proxy would send). The two phases run one after
 * the other with the same sequence of changes, at each fan-out of `opts.fanouts` (watchers per owner;
 * default the config's). `opts.baseline` replaces the label-selected baseline phase (another
 * implementation watched by the same owners); `opts.extra` phases follow it (a floor). Every delivery
 * is also a sample of the run's tails (tails.ts), under `opts.scenario`.
 */
export async function watchFanout(cluster: BenchCluster, config: BenchConfig, size: number, world: WatchWorld, opts: { baseline?: Phase; extra?: readonly Phase[]; fanouts?: number[]; scenario?: string } = {}): Promise<WatchResult> {
  const w = config.watch;
  // Watchers per owner of each fan-out, in order: every phase runs at each.
  const fanouts = opts.fanouts ?? [w.watchersPerOwner];
  const most = Math.max(...fanouts);
  // The owners that own a tenant of this world (at a small size, some own none and have nothing to watch).
  const owners = Array.from({ length: config.owners }, (_, i) => ownerName(i)).filter((o) => world.tenantsOf.has(o));
  const baselineAgent = cluster.client(cluster.state.server, cluster.state.pki.users.admin, owners.length * most + 8).agent;
  const paddockAgents = new Map<string, Client>(owners.map((o) => [o, cluster.client(cluster.paddockUrl, cluster.userCert(o), most + 2)]));
  const phases: Phase[] = [
    {
      target: 'Paddock direct (tenantnamespaces)', role: 'paddock',
      watchesOf: (owner) => ({ agent: paddockAgents.get(owner)!.agent, url: `${cluster.paddockUrl}${TNS}?watch=1` }),
    },
    opts.baseline ?? {
      target: LABEL_SELECTED_TARGET, role: 'baseline',
      watchesOf: (owner) => ({ agent: baselineAgent, url: `${cluster.state.server}${labelSelectedWatchPath(world, owner)}` }),
    },
    ...(opts.extra ?? []),
  ];
  const random = prng(42);
  const total = Math.round(w.changesPerSecond * w.seconds);
  const changes = Array.from({ length: total }, () => world.namespaces[Math.floor(random() * world.namespaces.length)]);
  const writer = cluster.client(cluster.state.server, cluster.state.pki.users.admin, 16);
  const results: WatchPhaseResult[] = [];
  for (const [p, phase, perOwner] of fanouts.flatMap((n) => phases.map((ph, i) => [i, ph, n] as const))) {
    const tag = `w${perOwner}p${p}`;
    const sentAt = new Array<number>(total);
    const latencies: number[] = [];
    let unexpected = 0;
    const sampleOf = { scenario: opts.scenario ?? 'watch', target: `${phase.target}, ${owners.length * perOwner} watchers`, role: phase.role };
    const deliveries: { seq: number; at: number }[] = [];
    const deliveryTo = (owner: string) => (seq: number, at: number) => {
      if (changes[seq].owner !== owner) unexpected++;
      else {
        latencies.push(at - sentAt[seq]);
        deliveries.push({ seq, at });
      }
    };
    // Every phase's watches start from the state just before they open, each on its own server's
    // resourceVersion. One taken before an earlier phase would have each watch replay that phase's changes
    // first (a resume), and once it is older than the watch window the watch ends at once with 410 Expired.
    const kubeRv = (await cluster.admin.getJson<{ metadata: { resourceVersion: string } }>('/api/v1/namespaces?limit=1')).metadata.resourceVersion;
    const rv = phase.role === 'baseline' ? kubeRv : (await cluster.paddockAdmin!.getJson<{ metadata: { resourceVersion: string } }>(`${TNS}?limit=1`)).metadata.resourceVersion;
    // The reference: one watch of every namespace straight on kube-apiserver, open in every phase alike.
    // When a change reaches it is when kube-apiserver's own watch delivered it; the rest is the phase's hop.
    const referenceAt = new Array<number>(total);
    const reference = await openWatchRetrying(baselineAgent, `${cluster.state.server}/api/v1/namespaces?watch=1&resourceVersion=${kubeRv}`, tag, (seq, at) => (referenceAt[seq] = at));
    const opening = performance.now();
    const slots = owners.flatMap((o) => Array.from({ length: perOwner }, () => o));
    const open: OpenWatch[] = [];
    await pool(slots, 32, async (owner) => {
      const { agent, url } = phase.watchesOf(owner);
      open.push(await openWatchRetrying(agent, `${url}&resourceVersion=${encodeURIComponent(rv)}`, tag, deliveryTo(owner)));
    });
    const openMs = performance.now() - opening;
    const audit = cluster.auditOffset();
    const sampler = new RssSampler({ paddock: cluster.paddock!.pid, kubeApiserver: cluster.state.pids.apiserver });
    // What kube-apiserver, the proxy and this process spend over each delivery: a late one's busy process.
    const cpu = new CpuTimeline({ kubeApiserver: cluster.state.pids.apiserver, client: MAIN_THREAD, ...(phase.proxy ? { proxy: phase.proxy.pid } : {}) });
    cluster.toggleProfile();
    // Paddock idle, its watches open: what its main thread does with no change to deliver (timers, probes).
    const idleSched = phase.role === 'paddock' ? schedFrom(cluster.paddock!.pid) : undefined;
    const idleOthers = phase.role === 'paddock' ? otherThreadsFrom(cluster.paddock!.pid) : undefined;
    const idleStarted = performance.now();
    await sleep(2000);
    const idle = idleSched?.()?.paddock;
    const idleOthersSched = idleOthers?.();
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const paddockSched = phase.role === 'paddock' ? schedFrom(cluster.paddock!.pid) : undefined;
    const paddockOthers = phase.role === 'paddock' ? otherThreadsFrom(cluster.paddock!.pid) : undefined;

    const writes: number[] = [];
    const pending: Promise<void>[] = [];
    const interval = 1000 / w.changesPerSecond;
    const started = performance.now();
    for (let seq = 0; seq < total; seq++) {
      const due = started + seq * interval;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const ns = changes[seq];
      const body = JSON.stringify({ metadata: { labels: { [SEQ_LABEL]: `${tag}-${seq}` } } });
      sentAt[seq] = performance.now();
      pending.push(writer.send('PATCH', `/api/v1/namespaces/${ns.name}`, { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' }, body).then((res) => {
        if (res.status !== 200) throw new Error(`PATCH namespace ${ns.name}: ${res.status}`);
        writes.push(res.ms);
      }));
    }
    await Promise.all(pending);
    const expected = total * perOwner;
    const deadline = performance.now() + 10_000;
    while (latencies.length < expected && performance.now() < deadline) await sleep(100);
    const perChange = paddockSched?.()?.paddock;
    const othersPerChange = paddockOthers?.();
    const rss = sampler.stop();
    cpu.stop();
    cluster.toggleProfile();
    // Before the phase closes them: which watches the server ended, or lost their connection, meanwhile.
    const endedEarlyBy: Record<string, number> = {};
    const ended = [...open, reference].flatMap((o) => (o.stream.ended ? [o.stream.ended] : []));
    for (const { why } of ended) endedEarlyBy[why] = (endedEarlyBy[why] ?? 0) + 1;
    if (ended.length > 0) cluster.log(`  ${phase.target}: ${ended.length} of ${open.length + 1} watches ended early: ${JSON.stringify(endedEarlyBy)}; the first: ${ended[0].message.slice(0, 300)}`);
    for (const o of [...open, reference]) o.req.destroy();
    const hops: number[] = [];
    for (const { seq, at } of deliveries) {
      const upstream = referenceAt[seq] === undefined ? undefined : referenceAt[seq] - sentAt[seq];
      if (upstream !== undefined) hops.push(at - referenceAt[seq]);
      const { kubeApiserver, proxy, client } = cpu.over(sentAt[seq], at);
      tails.record(sampleOf, sentAt[seq], at - sentAt[seq], {
        upstreamMs: upstream, cpu: { kubeApiserver, client, ...(phase.proxy && proxy !== undefined ? { proxy: { name: phase.proxy.name, cpuMs: proxy } } : {}) },
      });
    }
    const paddockWrites = cluster.paddockWrites(audit);
    if (paddockWrites.total > 0) {
      cluster.log(`  ${phase.target}: ${paddockWrites.total} Paddock writes during the phase: ${JSON.stringify(paddockWrites.byResource)}`);
      for (const o of paddockWrites.objects) cluster.log(`    ${o}`);
    }
    results.push({
      target: phase.target, role: phase.role, watchers: slots.length, openMs: round(openMs), changes: total, expected,
      delivered: latencies.length, unexpected, endedEarly: ended.length, ...(ended.length > 0 ? { endedEarlyBy } : {}),
      paddockWrites: paddockWrites.total,
      ...(paddockWrites.total > 0 ? { paddockWritesByResource: paddockWrites.byResource } : {}),
      delivery: summarize(latencies), hop: summarize(hops), write: summarize(writes),
      ...(idle ? { paddockIdlePerSecond: schedPer(idle, idleSeconds) } : {}),
      ...(perChange ? { paddockPerChange: schedPer(perChange, total) } : {}),
      ...(idleOthersSched ? { paddockOtherThreadsIdlePerSecond: schedPer(idleOthersSched, idleSeconds) } : {}),
      ...(othersPerChange ? { paddockOtherThreadsPerChange: schedPer(othersPerChange, total) } : {}),
      rssPeakMiB: { paddock: round(rss.paddock.peakMiB), kubeApiserver: round(rss.kubeApiserver.peakMiB) },
      rssMeanMiB: { paddock: round(rss.paddock.meanMiB), kubeApiserver: round(rss.kubeApiserver.meanMiB) },
    });
    const r = results[results.length - 1];
    cluster.log(`  ${phase.target}, ${r.watchers} watchers: opened in ${r.openMs} ms, ${r.delivered}/${r.expected} delivered, ${r.endedEarly} ended early; ` +
      `delivery p50 ${round(r.delivery.p50)} / p99 ${round(r.delivery.p99)} ms, hop p50 ${round(r.hop!.p50)} / p99 ${round(r.hop!.p99)} ms` +
      (r.paddockPerChange ? `; Paddock per change ${JSON.stringify(r.paddockPerChange)}, idle per second ${JSON.stringify(r.paddockIdlePerSecond)}` : '') +
      (r.paddockOtherThreadsPerChange ? `; its other threads per change ${JSON.stringify(r.paddockOtherThreadsPerChange)}, idle per second ${JSON.stringify(r.paddockOtherThreadsIdlePerSecond)}` : ''));
    await sleep(2000);
  }
  for (const c of paddockAgents.values()) c.close();
  return { scenario: 'watch-fanout', size, owners: owners.length, watchersPerOwner: w.watchersPerOwner, changesPerSecond: w.changesPerSecond, seconds: w.seconds, phases: results };
}
