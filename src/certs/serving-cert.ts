import { X509Certificate } from 'node:crypto';
import type { KubeClient } from '../kube/client';
import { KubeApiError } from '../kube/errors';
import type { Logger } from '../log/logger';
import { createCa, createServingCert, type KeyPair } from './x509';

/**
 * Paddock's own serving certificate, for clusters without cert-manager (`--manage-serving-cert`): a CA and
 * a serving certificate kept in a `kubernetes.io/tls` Secret (`tls.crt`, `tls.key`, `ca.crt` as
 * cert-manager writes them, plus `ca.key`), the CA put into the APIService's `caBundle`, both renewed
 * once less than a third of their lifetime is left. Every replica runs it: the Secret's resourceVersion
 * decides which replica's renewal wins, and the others adopt it at their next check.
 * While a renewed CA is new, `ca.crt` (and so the caBundle) holds the previous CA too, so replicas still
 * serving a certificate of the previous CA stay trusted.
 */

export interface ServingCertOptions {
  namespace: string;
  secretName: string;
  /** The Service in front of Paddock: the certificate names `<service>.<namespace>.svc` and its longer forms. */
  serviceName: string;
  apiServiceName: string;
  validityMs: number;
  caValidityMs: number;
  checkIntervalMs: number;
}

export interface ServingCertificate {
  cert: string;
  key: string;
}

interface Secret {
  metadata: { name: string; namespace: string; resourceVersion?: string; labels?: Record<string, string> };
  type?: string;
  data?: Record<string, string>;
}

const CA_COMMON_NAME = 'paddock-serving-ca';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

/** The PEM certificates in a bundle, in order. */
function splitPem(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g)?.map((c) => c.trimEnd() + '\n') ?? [];
}

function parse(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** True when less than a third of the certificate's lifetime is left (or it is not valid yet or any more). */
export function needsRenewal(cert: X509Certificate, now: Date): boolean {
  const from = new Date(cert.validFrom).getTime();
  const to = new Date(cert.validTo).getTime();
  return now.getTime() < from || now.getTime() > to - (to - from) / 3;
}

export function serviceNames(service: string, namespace: string): string[] {
  return [`${service}.${namespace}.svc`, `${service}.${namespace}.svc.cluster.local`, `${service}.${namespace}`, service];
}

/**
 * What the Secret should hold now, given what it holds: undefined when nothing needs to change.
 * Pure apart from key generation; exported for tests.
 */
export function desiredSecretData(data: Record<string, string> | undefined, opts: ServingCertOptions, now: Date): Record<string, string> | undefined {
  const names = serviceNames(opts.serviceName, opts.namespace);
  const bundle = splitPem(unb64(data?.['ca.crt']));
  let ca: KeyPair | undefined = bundle.length && data?.['ca.key'] ? { cert: bundle[0], key: unb64(data['ca.key']) } : undefined;
  let caCert = ca && parse(ca.cert);
  let previous = bundle.slice(1);
  let changed = false;
  if (!ca || !caCert || !caCert.ca || needsRenewal(caCert, now)) {
    // Keep the outgoing CA in the bundle while it is still valid.
    previous = caCert && now.getTime() < new Date(caCert.validTo).getTime() ? [ca!.cert] : [];
    ca = createCa(CA_COMMON_NAME, opts.caValidityMs, now);
    caCert = parse(ca.cert)!;
    changed = true;
  }
  previous = previous.filter((p) => {
    const c = parse(p);
    return c !== undefined && now.getTime() < new Date(c.validTo).getTime();
  });
  let leaf: KeyPair = { cert: unb64(data?.['tls.crt']), key: unb64(data?.['tls.key']) };
  const leafCert = parse(leaf.cert);
  const leafOk = !changed && leafCert !== undefined && leafCert.checkIssued(caCert) && leafCert.verify(caCert.publicKey) &&
    names.every((n) => leafCert.checkHost(n) === n) && !needsRenewal(leafCert, now);
  if (!leafOk) {
    leaf = createServingCert(ca, names[0], names, opts.validityMs, now);
    changed = true;
  }
  const desired = { 'tls.crt': b64(leaf.cert), 'tls.key': b64(leaf.key), 'ca.crt': b64([ca.cert, ...previous].join('')), 'ca.key': b64(ca.key) };
  if (!changed && Object.entries(desired).every(([k, v]) => data?.[k] === v)) return undefined;
  return desired;
}

export class ServingCertManager {
  readonly #client: KubeClient;
  readonly #opts: ServingCertOptions;
  readonly #log: Logger;
  #current: ServingCertificate | undefined;

  constructor(client: KubeClient, opts: ServingCertOptions, log: Logger) {
    this.#client = client;
    this.#opts = opts;
    this.#log = log;
  }

  /** The certificate to serve; only after {@link start} resolved. */
  current(): ServingCertificate {
    if (!this.#current) throw new Error('serving certificate not loaded yet');
    return this.#current;
  }

  /** Loads (creating or renewing as needed) the certificate, retrying until it succeeds; then keeps it current. */
  async start(signal: AbortSignal): Promise<void> {
    for (let delay = 500; !this.#current; delay = Math.min(delay * 2, 10_000)) {
      if (signal.aborted) throw new Error('stopped before the serving certificate was loaded');
      try {
        await this.check();
      } catch (err) {
        this.#log.warn('loading the serving certificate failed; retrying', { err, delayMs: delay });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    const timer = setInterval(() => {
      this.check().catch((err: unknown) => this.#log.warn('checking the serving certificate failed', { err }));
    }, this.#opts.checkIntervalMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }

  /** One pass: read the Secret, renew what is due, make sure the APIService trusts the CA, adopt the result. */
  async check(now = new Date()): Promise<void> {
    const { namespace, secretName } = this.#opts;
    const path = `/api/v1/namespaces/${namespace}/secrets/${secretName}`;
    let secret = await this.#client.get<Secret>(path).catch((err: unknown) => {
      if (err instanceof KubeApiError && err.code === 404) return undefined;
      throw err;
    });
    const desired = desiredSecretData(secret?.data, this.#opts, now);
    if (desired) {
      const body: Secret = {
        metadata: { ...(secret?.metadata ?? { name: secretName, namespace }), labels: { ...secret?.metadata.labels, 'app.kubernetes.io/managed-by': 'paddock' } },
        type: 'kubernetes.io/tls',
        data: desired,
      };
      try {
        secret = secret
          ? await this.#client.update<Secret>(path, body)
          : await this.#client.create<Secret>(`/api/v1/namespaces/${namespace}/secrets`, body);
        this.#log.info('serving certificate written', { secret: `${namespace}/${secretName}` });
      } catch (err) {
        // Another replica wrote it first: take theirs.
        if (!(err instanceof KubeApiError && (err.code === 409 || err.code === 422))) throw err;
        secret = await this.#client.get<Secret>(path);
        if (desiredSecretData(secret.data, this.#opts, now)) throw new Error('serving certificate changed concurrently; will check again');
      }
    }
    const data = secret!.data!;
    const caBundle = data['ca.crt'];
    const apiService = await this.#client.get<{ spec?: { caBundle?: string } }>(`/apis/apiregistration.k8s.io/v1/apiservices/${this.#opts.apiServiceName}`)
      .catch((err: unknown) => {
        if (err instanceof KubeApiError && err.code === 404) return undefined;
        throw err;
      });
    if (apiService && apiService.spec?.caBundle !== caBundle) {
      await this.#client.patch(`/apis/apiregistration.k8s.io/v1/apiservices/${this.#opts.apiServiceName}`, { spec: { caBundle } });
      this.#log.info('APIService caBundle set', { apiService: this.#opts.apiServiceName });
    }
    const next = { cert: unb64(data['tls.crt']), key: unb64(data['tls.key']) };
    if (this.#current?.cert !== next.cert) {
      const first = !this.#current;
      this.#current = next;
      if (!first) this.#log.info('serving certificate renewed; the server picks it up on its next reload');
    }
  }
}
