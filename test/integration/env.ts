import { request as httpsRequestRaw } from 'node:https';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlaneState } from '../controlplane/controlplane';
import { TEST_CONTROL_PLANE_DIR } from './global-setup';

/** The control plane the global setup started for this run. */
export function controlPlane(): ControlPlaneState {
  return JSON.parse(readFileSync(join(TEST_CONTROL_PLANE_DIR, 'state.json'), 'utf8')) as ControlPlaneState;
}

/** A name no other suite of this run uses: `<prefix>-<6 hex>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A user's kubeconfig: one of the control plane's users (admin, alice, bob, carol), or a kubeconfig file path. */
export function kubeconfigOf(user: string): string | undefined {
  return user.includes('/') ? user : controlPlane().kubeconfigs[user];
}

/**
 * A kubeconfig for a ServiceAccount of the test's own (a fresh identity no other suite's tenants name):
 * a token from the TokenRequest API, the cluster CA. Returns its path, usable wherever a user is.
 */
export async function serviceAccountUser(namespace: string, name: string): Promise<string> {
  await kubectl('admin', ['create', 'namespace', namespace]);
  await kubectl('admin', ['create', 'serviceaccount', name, '-n', namespace]);
  const token = (await kubectl('admin', ['create', 'token', name, '-n', namespace, '--duration=2h'])).stdout.trim();
  if (!token) throw new Error(`no token for ${namespace}/${name}`);
  const { server, pki, dir } = controlPlane();
  const path = join(dir, `kubeconfig-sa-${namespace}-${name}`);
  writeFileSync(path, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'sa',
    clusters: [{ name: 'local', cluster: { server, 'certificate-authority': pki.ca.cert } }],
    users: [{ name: 'sa', user: { token } }],
    contexts: [{ name: 'sa', context: { cluster: 'local', user: 'sa' } }],
  }), { mode: 0o600 });
  return path;
}

/** Runs the real kubectl as `user` (see kubeconfigOf); never throws, the exit code is in the result. */
export function kubectl(user: string, args: string[], input?: string): Promise<KubectlResult> {
  const kubeconfig = kubeconfigOf(user);
  if (!kubeconfig) throw new Error(`no kubeconfig for user ${user}`);
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { maxBuffer: 64 << 20, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/**
 * Parses kubectl's human-readable table output by the header's column positions (cells may be empty, so
 * splitting on whitespace would shift them). Returns one record per row, keyed by header.
 */
export function parseTable(output: string): Record<string, string>[] {
  const lines = output.replace(/\n+$/, '').split('\n');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index! }));
  return lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    starts.forEach((col, i) => {
      row[col.name] = line.slice(col.at, i + 1 < starts.length ? starts[i + 1].at : undefined).trim();
    });
    return row;
  });
}

/** Runs kubectl and parses its JSON output; throws with kubectl's stderr when it fails. */
export async function kubectlJson<T = any>(user: string, args: string[], input?: string): Promise<T> {
  const res = await kubectl(user, [...args, '-o', 'json'], input);
  if (res.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}

/** `kubectl apply -f -` of an object as admin; throws when it fails. */
export async function applyObject(obj: unknown, user = 'admin'): Promise<void> {
  const res = await kubectl(user, ['apply', '-f', '-'], JSON.stringify(obj));
  if (res.code !== 0) throw new Error(`kubectl apply failed: ${res.stderr}`);
}

export { sleep, waitFor } from '../controlplane/processes';

/** One entry of kube-apiserver's audit log (the fields tests read). */
export interface AuditEvent {
  verb: string;
  user: { username: string };
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; subresource?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp: string;
  stage: string;
}

/**
 * Audit events (writes only: the policy logs nothing else) received at or after `since`. kube-apiserver
 * appends to the log while it is read: only whole lines are read, the one being written is not yet.
 */
export function auditWrites(since: Date): AuditEvent[] {
  const text = readFileSync(controlPlane().auditLog, 'utf8');
  const events: AuditEvent[] = [];
  for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as AuditEvent;
    if (e.stage === 'ResponseComplete' && new Date(e.requestReceivedTimestamp) >= since) events.push(e);
  }
  return events;
}

/** The user kube-apiserver knows Paddock as: its ServiceAccount, with a token from the TokenRequest API. */
export const PADDOCK_USER = 'system:serviceaccount:paddock-system:paddock';

export interface HttpsResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTPS request trusting the cluster CA, with an optional client certificate; `servername` is
 * `localhost` so both kube-apiserver's and Paddock's serving certificates verify on 127.0.0.1.
 */
export function httpsRequest(url: string, opts: { cert?: { cert: string; key: string }; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<HttpsResponse> {
  const { pki } = controlPlane();
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequestRaw({
      host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: opts.method ?? 'GET', servername: 'localhost',
      // Node sends a DELETE body without Content-Length unless told: the server would then read it as
      // the start of the next request on the connection.
      headers: { ...opts.headers, ...(opts.body !== undefined ? { 'Content-Length': String(Buffer.byteLength(opts.body)) } : {}) },
      ca: readFileSync(pki.ca.cert), ...(opts.cert ? { cert: readFileSync(opts.cert.cert), key: readFileSync(opts.cert.key) } : {}),
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
