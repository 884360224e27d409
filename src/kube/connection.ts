import type * as https from 'node:https';
import type { AgentOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';

/** Where to find credentials: a kubeconfig file, the in-cluster service account, or client-node's default search. */
export interface KubeConfigSource {
  /** Path of a kubeconfig file. */
  kubeconfig?: string;
  /** Use the pod's service account (`KUBERNETES_SERVICE_HOST` + the mounted token and CA). */
  inCluster?: boolean;
  /** Context to use instead of the file's current context. */
  context?: string;
}

/** How to reach kube-apiserver: its URL, TLS material for the Agent, and auth headers (re-read periodically). */
export interface Connection {
  readonly server: URL;
  readonly tls: AgentOptions;
  /** Headers to add to every request (Authorization); refreshed at most every `AUTH_REFRESH_MS`. */
  authHeaders(): Promise<Record<string, string>>;
}

/** Tokens (service-account projected tokens, exec plugins) rotate: auth is re-derived this often. */
const AUTH_REFRESH_MS = 60_000;

/**
 * Builds a Connection from a kubeconfig. client-node is used only to read the kubeconfig and turn it into
 * TLS options and auth headers (`applyToHTTPSOptions`); HTTP itself is done by KubeClient.
 */
export async function loadConnection(source: KubeConfigSource = {}): Promise<Connection> {
  const kc = new KubeConfig();
  if (source.kubeconfig) kc.loadFromFile(source.kubeconfig);
  else if (source.inCluster) kc.loadFromCluster();
  else kc.loadFromDefault();
  if (source.context) kc.setCurrentContext(source.context);
  return connectionFromKubeConfig(kc);
}

export async function connectionFromKubeConfig(kc: KubeConfig): Promise<Connection> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const first = await deriveOptions(kc);
  const tls: AgentOptions = {};
  for (const k of ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const) {
    if (first[k] !== undefined) (tls as Record<string, unknown>)[k] = first[k];
  }
  let headers = authOf(first);
  let derivedAt = Date.now();
  return {
    server: new URL(cluster.server),
    tls,
    async authHeaders() {
      if (Date.now() - derivedAt > AUTH_REFRESH_MS) {
        headers = authOf(await deriveOptions(kc));
        derivedAt = Date.now();
      }
      return headers;
    },
  };
}

type DerivedOptions = https.RequestOptions;

async function deriveOptions(kc: KubeConfig): Promise<DerivedOptions> {
  const opts: DerivedOptions = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  return opts;
}

function authOf(opts: DerivedOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((opts.headers ?? {}) as Record<string, unknown>)) if (v !== undefined) out[k] = String(v);
  if (opts.auth) out.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
  return out;
}
