import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CustomObjectsApi, KubeConfig, makeInformer, Watch, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';

/**
 * Real Kubernetes clients watching tenancy.paddock.dev/v1alpha1 tenantnamespaces, each reduced to one
 * event log of the same shape so a test can hold them all to the same specification:
 *
 * - client-go's dynamic shared informer (test/clients/go-informer), in list+watch or WatchList mode;
 * - @kubernetes/client-node's informer (`makeInformer`: list, then watch from the list's resourceVersion);
 * - client-node's `Watch` asking for a WatchList stream (`sendInitialEvents=true`).
 */

export const GROUP = 'tenancy.paddock.dev';
export const VERSION = 'v1alpha1';
export const PLURAL = 'tenantnamespaces';
export const TNS_PATH = `/apis/${GROUP}/${VERSION}/${PLURAL}`;
/** The annotation kube-apiserver (and Paddock) put on the bookmark that ends the initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** A change to one row, as the client's event handler saw it. */
export interface RowEvent {
  event: 'add' | 'update' | 'delete';
  name: string;
  tenant: string;
  resourceVersion: string;
  phase: string;
  labels: Record<string, string>;
}

export type ClientEvent =
  | RowEvent
  /** The client holds the complete initial state (informer synced, or the initial-events-end bookmark). */
  | { event: 'synced'; watchList?: boolean }
  /** A request the client sent (client-go only: its transport is wrapped to report them). */
  | { event: 'request'; method: string; path: string; query: string }
  | { event: 'bookmark'; resourceVersion: string; initialEventsEnd: boolean }
  /** The client's watch ended and it resumed from its last resourceVersion. */
  | { event: 'reconnect'; resourceVersion: string; reason: string }
  | { event: 'error'; message: string };

/** One running client. `events` grows as the client reports; nothing is ever removed from it. */
export interface InformerClient {
  readonly name: string;
  readonly events: ClientEvent[];
  /** Diagnostics for a failure message (the client's stderr, if it has one). */
  diagnostics(): string;
  stop(): Promise<void>;
}

export const isRow = (e: ClientEvent): e is RowEvent => e.event === 'add' || e.event === 'update' || e.event === 'delete';

interface TenantNamespaceObject extends KubernetesObject {
  spec?: { tenant?: string };
  status?: { phase?: string };
}

function rowEvent(event: RowEvent['event'], o: TenantNamespaceObject): RowEvent {
  return {
    event, name: o.metadata?.name ?? '', tenant: o.spec?.tenant ?? '', resourceVersion: o.metadata?.resourceVersion ?? '',
    phase: o.status?.phase ?? '', labels: o.metadata?.labels ?? {},
  };
}

function loadKubeConfig(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

/**
 * Builds (or finds in the cache) the client-go test client and returns the binary's path. A cold build
 * compiles client-go and takes minutes; later runs hit the cache keyed by the client's sources.
 */
export function buildGoInformer(): string {
  const script = resolve(__dirname, 'go-informer', 'build.sh');
  const out = execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15 * 60_000 });
  return out.trim().split('\n').pop()!;
}

/**
 * Runs the client-go dynamic informer as the kubeconfig's user. `watchList` sets client-go's
 * WatchListClient feature gate through its environment variable.
 */
export function startGoInformer(name: string, binary: string, kubeconfig: string, watchList: boolean): InformerClient {
  const events: ClientEvent[] = [];
  let stderr = '';
  const child: ChildProcessWithoutNullStreams = spawn(binary, ['--kubeconfig', kubeconfig], {
    env: { ...process.env, KUBE_FEATURE_WatchListClient: String(watchList) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', (code, signal) => {
    if (!stopping) events.push({ event: 'error', message: `go-informer exited (code ${code}, signal ${signal})` });
    done();
  }));
  let stopping = false;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-20_000)));
  createInterface(child.stdout).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as ClientEvent);
    } catch {
      events.push({ event: 'error', message: `unparsable line: ${line}` });
    }
  });
  return {
    name,
    events,
    diagnostics: () => stderr,
    async stop() {
      stopping = true;
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** client-node's informer: list with CustomObjectsApi, then watch from the list's resourceVersion. */
export async function startNodeInformer(name: string, kubeconfig: string): Promise<InformerClient> {
  const kc = loadKubeConfig(kubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const list = () => api.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL }) as Promise<KubernetesListObject<TenantNamespaceObject>>;
  const informer = makeInformer<TenantNamespaceObject>(kc, TNS_PATH, list);
  const events: ClientEvent[] = [];
  informer.on('add', (o) => events.push(rowEvent('add', o)));
  informer.on('update', (o) => events.push(rowEvent('update', o)));
  informer.on('delete', (o) => events.push(rowEvent('delete', o)));
  // client-node's informer stops on any error but 410 and client-side timeouts: a test then sees it here.
  informer.on('error', (err) => events.push({ event: 'error', message: String((err as Error)?.message ?? err) }));
  await informer.start();
  events.push({ event: 'synced' });
  return { name, events, diagnostics: () => '', stop: () => informer.stop() };
}

/**
 * client-node's `Watch` asking for a WatchList stream: ADDED for every visible row, a BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"`, then live events. When the stream ends (server timeout, or
 * client-node's 30 s inactivity timeout) it resumes from the last resourceVersion, as a reflector does.
 */
export async function startNodeWatchList(name: string, kubeconfig: string): Promise<InformerClient> {
  const watch = new Watch(loadKubeConfig(kubeconfig));
  const events: ClientEvent[] = [];
  let resourceVersion = '';
  let stopped = false;
  let failed = false;
  let controller: AbortController | undefined;

  const onEvent = (type: string, obj: TenantNamespaceObject) => {
    if (obj?.metadata?.resourceVersion) resourceVersion = obj.metadata.resourceVersion;
    switch (type) {
      case 'ADDED': events.push(rowEvent('add', obj)); break;
      case 'MODIFIED': events.push(rowEvent('update', obj)); break;
      case 'DELETED': events.push(rowEvent('delete', obj)); break;
      case 'BOOKMARK': {
        const initialEventsEnd = obj.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
        events.push({ event: 'bookmark', resourceVersion: obj.metadata?.resourceVersion ?? '', initialEventsEnd });
        if (initialEventsEnd) events.push({ event: 'synced' });
        break;
      }
      default: // ERROR: a Status; the stream ends and is not resumed (a 410 would need a fresh WatchList).
        failed = true;
        events.push({ event: 'error', message: `${type}: ${JSON.stringify(obj)}` });
    }
  };
  const onDone = (err: unknown) => {
    if (stopped || failed) return;
    events.push({ event: 'reconnect', resourceVersion, reason: err ? String((err as Error).message ?? err) : 'closed by the server' });
    void open({ resourceVersion, allowWatchBookmarks: true });
  };
  const open = async (query: Record<string, string | boolean>) => {
    controller = await watch.watch(TNS_PATH, query, onEvent, onDone);
  };
  await open({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
  return {
    name,
    events,
    diagnostics: () => '',
    async stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
