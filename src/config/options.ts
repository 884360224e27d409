import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { LogLevel } from '../log/logger';
import { BINDABLE_CLUSTER_ROLES_RBAC, DEFAULT_BINDABLE_CLUSTER_ROLES } from '../tenancy/bindable';
import { isPathSegmentName } from '../tenancy/syntax';

/** Which halves of Paddock this process runs. Every replica serves the API; only the leader reconciles. */
export type Mode = 'all' | 'controller' | 'apiserver';

/** Validated, complete options: the only configuration that travels past start-up. */
export interface Options {
  mode: Mode;
  kubeconfig?: string;
  bindAddress: string;
  securePort: number;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Paddock keeps its own serving certificate in a Secret and the APIService's caBundle (no cert-manager). */
  manageServingCert: boolean;
  servingCertSecret: { namespace: string; name: string };
  servingCertService: string;
  servingCertValidityMs: number;
  apiServiceName: string;
  qps: number;
  burst: number;
  reviewQps: number;
  reviewBurst: number;
  reviewTimeoutMs: number;
  workers: number;
  resyncPeriodMs: number;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  maxRequestsInflight: number;
  maxWatchersPerUser: number;
  maxBodyBytes: number;
  /** Overall deadline of a non-watch request (504 Timeout past it). */
  requestTimeoutMs: number;
  /** Deadline for receiving a request body once the server reads it (408 Timeout past it). */
  requestBodyTimeoutMs: number;
  /** Deadline for receiving a request's headers (408, connection closed). */
  headerTimeoutMs: number;
  /** Idle keep-alive connections close after this. */
  idleTimeoutMs: number;
  watchWindow: number;
  /** --watch-window-age: how long each change is kept for resuming (beyond the last 100, kept whatever their age). */
  watchWindowAgeMs: number;
  watchBufferBytes: number;
  /**
   * The cluster roles spec.additionalRoleBindings may name. Paddock's RBAC must let it bind each of them
   * (ClusterRole paddock:bindable-cluster-roles): an installer who changes one changes the other.
   */
  bindableClusterRoles: string[];
  logLevel: LogLevel;
}

interface FlagSpec {
  env: string;
  help: string;
  default?: string;
}

/** Every flag, its environment variable and its default; `--help` prints this table. */
export const FLAGS: Record<string, FlagSpec> = {
  mode: { env: 'PADDOCK_MODE', default: 'all', help: 'all | controller | apiserver' },
  kubeconfig: { env: 'KUBECONFIG', help: 'kubeconfig file; in-cluster config when unset and running in a pod' },
  'bind-address': { env: 'PADDOCK_BIND_ADDRESS', default: '0.0.0.0', help: 'address the HTTPS server listens on' },
  'secure-port': { env: 'PADDOCK_SECURE_PORT', default: '8443', help: 'HTTPS port of the aggregated API server' },
  'tls-cert-file': { env: 'PADDOCK_TLS_CERT_FILE', help: 'serving certificate (PEM), SAN paddock-apiserver.paddock-system.svc' },
  'tls-private-key-file': { env: 'PADDOCK_TLS_KEY_FILE', help: 'serving key (PEM)' },
  'manage-serving-cert': { env: 'PADDOCK_MANAGE_SERVING_CERT', default: 'false', help: 'generate the serving certificate and its CA, keep them in --serving-cert-secret, put the CA into the APIService caBundle, renew before expiry (instead of --tls-cert-file)' },
  'serving-cert-secret': { env: 'PADDOCK_SERVING_CERT_SECRET', default: 'paddock-system/paddock-serving-cert', help: 'namespace/name of the Secret for --manage-serving-cert' },
  'serving-cert-service': { env: 'PADDOCK_SERVING_CERT_SERVICE', default: 'paddock-apiserver', help: 'the Service the managed certificate names (<service>.<namespace>.svc)' },
  'serving-cert-validity': { env: 'PADDOCK_SERVING_CERT_VALIDITY', default: '2160h', help: 'lifetime of the managed serving certificate (its CA lives 10 times longer); renewed with a third left' },
  apiservice: { env: 'PADDOCK_APISERVICE', default: 'v1alpha1.tenancy.paddock.dev', help: 'the APIService whose caBundle --manage-serving-cert keeps' },
  qps: { env: 'PADDOCK_QPS', default: '50', help: 'client-side rate limit to kube-apiserver, requests per second' },
  burst: { env: 'PADDOCK_BURST', default: '100', help: 'client-side rate limit burst' },
  'review-qps': { env: 'PADDOCK_REVIEW_QPS', default: '200', help: 'rate limit of what the API server asks of kube-apiserver for its callers (TokenReviews, SubjectAccessReviews, self-service writes), requests per second (apart from --qps)' },
  'review-burst': { env: 'PADDOCK_REVIEW_BURST', default: '400', help: 'burst of the review rate limit' },
  'review-timeout': { env: 'PADDOCK_REVIEW_TIMEOUT', default: '10s', help: 'deadline of one such request; a review past it answers 503 with Retry-After' },
  workers: { env: 'PADDOCK_WORKERS', default: '4', help: 'concurrent reconciles' },
  'resync-period': { env: 'PADDOCK_RESYNC_PERIOD', default: '10m', help: 're-reconcile every tenant this often (spread over the period, jittered)' },
  'leader-elect': { env: 'PADDOCK_LEADER_ELECT', default: 'true', help: 'reconcile only while holding the Lease' },
  'leader-election-namespace': { env: 'PADDOCK_LEADER_ELECTION_NAMESPACE', default: 'paddock-system', help: 'namespace of the Lease paddock-controller' },
  identity: { env: 'POD_NAME', help: 'leader-election identity (default: hostname_pid)' },
  'lease-duration': { env: 'PADDOCK_LEASE_DURATION', default: '15s', help: 'leader-election lease duration' },
  'renew-deadline': { env: 'PADDOCK_RENEW_DEADLINE', default: '10s', help: 'leader-election renew deadline' },
  'retry-period': { env: 'PADDOCK_RETRY_PERIOD', default: '2s', help: 'leader-election retry period' },
  'max-requests-inflight': { env: 'PADDOCK_MAX_REQUESTS_INFLIGHT', default: '400', help: 'concurrent non-watch requests before 429' },
  'max-watchers-per-user': { env: 'PADDOCK_MAX_WATCHERS_PER_USER', default: '100', help: 'open watches per user before 429' },
  'max-body-bytes': { env: 'PADDOCK_MAX_BODY_BYTES', default: '1048576', help: 'largest request body accepted' },
  'request-timeout': { env: 'PADDOCK_REQUEST_TIMEOUT', default: '60s', help: 'deadline of every non-watch request; past it the answer is 504 Timeout and its slot is freed' },
  'request-body-timeout': { env: 'PADDOCK_REQUEST_BODY_TIMEOUT', default: '30s', help: 'deadline for receiving a request body (read only after authorization); past it 408 Timeout' },
  'header-timeout': { env: 'PADDOCK_HEADER_TIMEOUT', default: '32s', help: 'deadline for receiving request headers; past it 408 and the connection closes' },
  'idle-timeout': { env: 'PADDOCK_IDLE_TIMEOUT', default: '90s', help: 'idle keep-alive connections close after this' },
  'watch-window': { env: 'PADDOCK_WATCH_WINDOW', default: '10000', help: 'watch events kept for resuming from a resourceVersion, at most, per source' },
  'watch-window-age': { env: 'PADDOCK_WATCH_WINDOW_AGE', default: '2m', help: 'how long watch events are kept for resuming (the last 100 of each source are kept whatever their age)' },
  'watch-buffer-bytes': { env: 'PADDOCK_WATCH_BUFFER_BYTES', default: '8388608', help: 'unread bytes behind the live events after which a watch is closed as too slow (its initial events and replay do not count while it reads them)' },
  'bindable-cluster-roles': {
    env: 'PADDOCK_BINDABLE_CLUSTER_ROLES',
    default: DEFAULT_BINDABLE_CLUSTER_ROLES.join(','),
    help: `comma-separated cluster roles that a Tenant's additionalRoleBindings may bind in its namespaces (empty: none); Paddock's RBAC must hold \`bind\` on each (ClusterRole ${BINDABLE_CLUSTER_ROLES_RBAC})`,
  },
  'log-level': { env: 'PADDOCK_LOG_LEVEL', default: 'info', help: 'debug | info | warn | error' },
};

export class OptionsError extends Error {}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration of one unit: `500ms`, `15s`, `10m`, `1h`. */
export function parseDuration(flag: string, value: string): number {
  const m = DURATION.exec(value);
  if (!m) throw new OptionsError(`--${flag}: "${value}" is not a duration like 500ms, 15s, 10m`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2]]);
}

function positiveInt(flag: string, value: string, min = 1): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new OptionsError(`--${flag}: "${value}" is not an integer >= ${min}`);
  return n;
}

/** A comma-separated list of RBAC names, without blanks or repeats; empty is none. */
function roleNames(flag: string, value: string): string[] {
  const names = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  for (const name of names) if (!isPathSegmentName(name)) throw new OptionsError(`--${flag}: "${name}" is not a ClusterRole name`);
  return [...new Set(names)];
}

function namespacedName(flag: string, value: string): { namespace: string; name: string } {
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]*[a-z0-9])?)$/.exec(value);
  if (!m) throw new OptionsError(`--${flag}: "${value}" is not namespace/name`);
  return { namespace: m[1], name: m[3] };
}

export function usage(): string {
  const rows = Object.entries(FLAGS).map(([name, f]) =>
    `  --${name.padEnd(27)} ${f.help}${f.default !== undefined ? ` (default ${f.default})` : ''} [$${f.env}]`);
  return `Usage: paddock [flags]\n\nRuns Paddock's aggregated API server and/or reconciler.\n\nFlags:\n${rows.join('\n')}\n  --help                        print this help\n`;
}

/**
 * Flags win over environment variables, which win over defaults. Throws {@link OptionsError} naming the
 * flag for any invalid value; returns undefined when `--help` was asked for.
 */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): Options | undefined {
  const spec: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const name of Object.keys(FLAGS)) spec[name] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: spec, allowPositionals: false, strict: true }).values;
  } catch (err) {
    throw new OptionsError((err as Error).message);
  }
  if (values.help) return undefined;
  const get = (name: string): string | undefined => {
    const v = values[name];
    if (typeof v === 'string') return v;
    return env[FLAGS[name].env] ?? FLAGS[name].default;
  };
  const bool = (name: string): boolean => {
    const v = get(name);
    if (v !== 'true' && v !== 'false') throw new OptionsError(`--${name}: "${v}" is not true or false`);
    return v === 'true';
  };
  const mode = get('mode') as Mode;
  if (!['all', 'controller', 'apiserver'].includes(mode)) throw new OptionsError(`--mode: "${mode}" is not all, controller or apiserver`);
  const logLevel = get('log-level') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new OptionsError(`--log-level: "${logLevel}" is not debug, info, warn or error`);
  const options: Options = {
    mode,
    kubeconfig: get('kubeconfig') || undefined,
    bindAddress: get('bind-address')!,
    securePort: positiveInt('secure-port', get('secure-port')!, 0),
    tlsCertFile: get('tls-cert-file'),
    tlsKeyFile: get('tls-private-key-file'),
    manageServingCert: bool('manage-serving-cert'),
    servingCertSecret: namespacedName('serving-cert-secret', get('serving-cert-secret')!),
    servingCertService: get('serving-cert-service')!,
    servingCertValidityMs: parseDuration('serving-cert-validity', get('serving-cert-validity')!),
    apiServiceName: get('apiservice')!,
    qps: positiveInt('qps', get('qps')!),
    burst: positiveInt('burst', get('burst')!),
    reviewQps: positiveInt('review-qps', get('review-qps')!),
    reviewBurst: positiveInt('review-burst', get('review-burst')!),
    reviewTimeoutMs: parseDuration('review-timeout', get('review-timeout')!),
    workers: positiveInt('workers', get('workers')!),
    resyncPeriodMs: parseDuration('resync-period', get('resync-period')!),
    leaderElect: bool('leader-elect'),
    leaderElectionNamespace: get('leader-election-namespace')!,
    identity: get('identity') ?? `${hostname()}_${process.pid}`,
    leaseDurationMs: parseDuration('lease-duration', get('lease-duration')!),
    renewDeadlineMs: parseDuration('renew-deadline', get('renew-deadline')!),
    retryPeriodMs: parseDuration('retry-period', get('retry-period')!),
    maxRequestsInflight: positiveInt('max-requests-inflight', get('max-requests-inflight')!),
    maxWatchersPerUser: positiveInt('max-watchers-per-user', get('max-watchers-per-user')!),
    maxBodyBytes: positiveInt('max-body-bytes', get('max-body-bytes')!),
    requestTimeoutMs: parseDuration('request-timeout', get('request-timeout')!),
    requestBodyTimeoutMs: parseDuration('request-body-timeout', get('request-body-timeout')!),
    headerTimeoutMs: parseDuration('header-timeout', get('header-timeout')!),
    idleTimeoutMs: parseDuration('idle-timeout', get('idle-timeout')!),
    watchWindow: positiveInt('watch-window', get('watch-window')!, 100),
    watchWindowAgeMs: parseDuration('watch-window-age', get('watch-window-age')!),
    watchBufferBytes: positiveInt('watch-buffer-bytes', get('watch-buffer-bytes')!, 4096),
    bindableClusterRoles: roleNames('bindable-cluster-roles', get('bindable-cluster-roles')!),
    logLevel,
  };
  if (options.mode !== 'controller' && !options.manageServingCert && (!options.tlsCertFile || !options.tlsKeyFile)) {
    throw new OptionsError('--tls-cert-file and --tls-private-key-file (or --manage-serving-cert) are required to serve the API (mode all or apiserver)');
  }
  for (const [flag, ms] of [['request-timeout', options.requestTimeoutMs], ['request-body-timeout', options.requestBodyTimeoutMs],
    ['header-timeout', options.headerTimeoutMs], ['idle-timeout', options.idleTimeoutMs]] as const) {
    if (ms < 100) throw new OptionsError(`--${flag} must be at least 100ms`);
  }
  // A period under a second would resync back to back (resync-slices.ts: one tick per period at most a second).
  if (options.resyncPeriodMs < 1000) throw new OptionsError('--resync-period must be at least 1s');
  if (options.headerTimeoutMs > options.requestTimeoutMs) throw new OptionsError('--header-timeout must not be longer than --request-timeout');
  if (!(options.renewDeadlineMs < options.leaseDurationMs)) throw new OptionsError('--renew-deadline must be shorter than --lease-duration');
  return options;
}
