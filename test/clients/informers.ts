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
  /** An update whose object equals the one it replaced but for its resourceVersion (client-go only). */
  same?: boolean;
}

export type ClientEvent =
  | RowEvent
  /** The client holds the complete initial state (informer synced, or the initial-events-end bookmark). */
  | { event: 'synced'; watchList?: boolean }
  /** A request the client sent, once answered (client-go only: its transport is wrapped to report them). */
  | { event: 'request'; method: string; path: string; query: string; status?: number; error?: string }
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
  const script = resolve(__dirname, 'build-go-client.sh');
  const out = execFileSync('bash', [script, 'go-informer'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15 * 60_000 });
  return out.trim().split('\n').pop()!;
}

/**
 * Runs the client-go dynamic informer (or, with `metadata`, a metadata informer) as the kubeconfig's
 * user. `watchList` sets client-go's WatchListClient feature gate through its environment variable.
 */
export function startGoInformer(name: string, binary: string, kubeconfig: string, watchList: boolean, metadata = false): InformerClient {
  const events: ClientEvent[] = [];
  let stderr = '';
  const child: ChildProcessWithoutNullStreams = spawn(binary, ['--kubeconfig', kubeconfig, ...(metadata ? ['--metadata'] : [])], {
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

/**
 * client-node's informer: list with CustomObjectsApi, then watch from the list's resourceVersion. It stops
 * on any error but a 410 or a client-side timeout; like its documentation advises, it is then started
 * again (after a second), which watches from its last resourceVersion or relists.
 */
export async function startNodeInformer(name: string, kubeconfig: string): Promise<InformerClient> {
  const kc = loadKubeConfig(kubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const list = () => api.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL }) as Promise<KubernetesListObject<TenantNamespaceObject>>;
  const informer = makeInformer<TenantNamespaceObject>(kc, TNS_PATH, list);
  const events: ClientEvent[] = [];
  let stopped = false;
  informer.on('add', (o) => events.push(rowEvent('add', o)));
  informer.on('update', (o) => events.push(rowEvent('update', o)));
  informer.on('delete', (o) => events.push(rowEvent('delete', o)));
  informer.on('error', (err) => {
    if (stopped) return;
    events.push({ event: 'reconnect', resourceVersion: '', reason: String((err as Error)?.message ?? err) });
    setTimeout(() => void (stopped || informer.start()), 1000).unref();
  });
  await informer.start();
  events.push({ event: 'synced' });
  return {
    name, events, diagnostics: () => '',
    async stop() {
      stopped = true;
      await informer.stop();
    },
  };
}

/**
 * client-node's `Watch` asking for a WatchList stream: ADDED for every visible row, a BOOKMARK annotated
 * `k8s.io/initial-events-end: "true"`, then live events. It keeps what a reflector keeps (each row's
 * resourceVersion) and recovers as one does: a stream that ends is resumed from the last resourceVersion
 * (after a second if it failed); a 410 starts a fresh WatchList, whose initial events are reported
 * against what it held (update for a changed row, delete for one not sent again).
 */
export async function startNodeWatchList(name: string, kubeconfig: string): Promise<InformerClient> {
  const watch = new Watch(loadKubeConfig(kubeconfig));
  const events: ClientEvent[] = [];
  const held = new Map<string, string>();
  /** The names sent by the initial events of the current WatchList, until its initial-events-end bookmark. */
  let initial: Set<string> | undefined;
  let resourceVersion = '';
  let stopped = false;
  let expired = false;
  let failed = false;
  let controller: AbortController | undefined;

  const onEvent = (type: string, obj: TenantNamespaceObject) => {
    const rowName = obj?.metadata?.name ?? '';
    switch (type) {
      case 'ADDED':
        initial?.add(rowName);
        if (!held.has(rowName)) events.push(rowEvent('add', obj));
        else if (held.get(rowName) !== obj.metadata?.resourceVersion) events.push(rowEvent('update', obj));
        held.set(rowName, obj.metadata?.resourceVersion ?? '');
        break;
      case 'MODIFIED':
        events.push(rowEvent('update', obj));
        held.set(rowName, obj.metadata?.resourceVersion ?? '');
        break;
      case 'DELETED':
        events.push(rowEvent('delete', obj));
        held.delete(rowName);
        break;
      case 'BOOKMARK': {
        const initialEventsEnd = obj.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
        events.push({ event: 'bookmark', resourceVersion: obj.metadata?.resourceVersion ?? '', initialEventsEnd });
        if (initialEventsEnd && initial) {
          for (const gone of [...held.keys()].filter((n) => !initial!.has(n))) {
            events.push({ event: 'delete', name: gone, tenant: '', resourceVersion: held.get(gone)!, phase: '', labels: {} });
            held.delete(gone);
          }
          initial = undefined;
          events.push({ event: 'synced' });
        }
        break;
      }
      default: { // ERROR carries a Status and the server ends the stream: a 410 means relist, anything else is fatal.
        const message = `${type}: ${JSON.stringify(obj)}`;
        if ((obj as { code?: number }).code === 410) {
          expired = true;
          events.push({ event: 'reconnect', resourceVersion, reason: message });
        } else {
          failed = true;
          events.push({ event: 'error', message });
        }
        return;
      }
    }
    if (obj?.metadata?.resourceVersion) resourceVersion = obj.metadata.resourceVersion;
  };
  const onDone = (err: unknown) => {
    if (stopped || failed) return;
    if (expired) {
      expired = false;
      void open(true);
      return;
    }
    events.push({ event: 'reconnect', resourceVersion, reason: err ? String((err as Error).message ?? err) : 'closed by the server' });
    setTimeout(() => void (stopped || open(false)), err ? 1000 : 0).unref();
  };
  const open = async (fresh: boolean) => {
    if (fresh) initial = new Set();
    const query = fresh
      ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }
      : { resourceVersion, allowWatchBookmarks: true };
    controller = await watch.watch(TNS_PATH, query, onEvent, onDone);
  };
  await open(true);
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
