import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate and its private key, as PEM files on disk. */
export interface CertFiles {
  cert: string;
  key: string;
}

/** A client identity of the local control plane: CN is the user name, each O a group. */
export interface ClientIdentity {
  user: string;
  groups: string[];
}

/** Users of the local control plane (SPEC §8). */
export const USERS: Record<string, ClientIdentity> = {
  admin: { user: 'admin', groups: ['system:masters'] },
  alice: { user: 'alice', groups: [] },
  bob: { user: 'bob', groups: ['gas-devs'] },
  carol: { user: 'carol', groups: [] },
};

/** The CN kube-apiserver's aggregator presents to extension servers, and the only allowed name. */
export const FRONT_PROXY_CLIENT = 'front-proxy-client';
/** The DNS name kube-aggregator verifies on Paddock's serving certificate. */
export const PADDOCK_SERVICE_DNS = 'paddock-apiserver.paddock-system.svc';

/** All the PKI of one local control plane. */
export interface Pki {
  dir: string;
  ca: CertFiles;
  frontProxyCa: CertFiles;
  frontProxyClient: CertFiles;
  apiserverServing: CertFiles;
  paddockServing: CertFiles;
  controllerManager: CertFiles;
  /** kube-apiserver's client certificate towards kubelets (logs, exec, port-forward). */
  kubeletClient: CertFiles;
  serviceAccount: { publicKey: string; privateKey: string };
  users: Record<string, CertFiles>;
}

const DAYS = '3650';

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** EC P-256 keys: quick to generate, accepted by every component. */
function newKey(dir: string, name: string): string {
  const key = join(dir, `${name}.key`);
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', key], dir);
  return key;
}

function selfSignedCa(dir: string, name: string, cn: string): CertFiles {
  const key = newKey(dir, name);
  const cert = join(dir, `${name}.crt`);
  openssl(['req', '-x509', '-new', '-key', key, '-out', cert, '-days', DAYS, '-subj', `/CN=${cn}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  return { cert, key };
}

function subject(cn: string, groups: string[]): string {
  const escape = (s: string) => s.replace(/([/=+,])/g, '\\$1');
  return groups.map((g) => `/O=${escape(g)}`).join('') + `/CN=${escape(cn)}`;
}

/** Issues a leaf certificate signed by `ca`: a client cert, or a serving cert when `sans` is given. */
function issue(dir: string, ca: CertFiles, name: string, cn: string, groups: string[], sans?: string[]): CertFiles {
  const key = newKey(dir, name);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.crt`);
  const ext = join(dir, `${name}.ext`);
  openssl(['req', '-new', '-key', key, '-out', csr, '-subj', subject(cn, groups)], dir);
  const lines = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment'];
  if (sans) {
    lines.push('extendedKeyUsage=serverAuth');
    lines.push('subjectAltName=' + sans.map((s) => (/^[\d.]+$/.test(s) ? `IP:${s}` : `DNS:${s}`)).join(','));
  } else {
    lines.push('extendedKeyUsage=clientAuth');
  }
  writeFileSync(ext, lines.join('\n') + '\n');
  openssl(['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert,
    '-days', DAYS, '-extfile', ext], dir);
  return { cert, key };
}

/** Issues a client certificate for `identity` from the cluster CA of an existing PKI. */
export function issueClientCert(pki: Pki, name: string, identity: ClientIdentity): CertFiles {
  return issue(pki.dir, pki.ca, name, identity.user, identity.groups);
}

/**
 * Generates the PKI of a local control plane in `dir`: the cluster CA and the front-proxy CA are distinct
 * (kube-apiserver trusts X-Remote-* headers only from certificates of the latter).
 */
export function generatePki(dir: string): Pki {
  mkdirSync(dir, { recursive: true });
  const ca = selfSignedCa(dir, 'ca', 'paddock-local-ca');
  const frontProxyCa = selfSignedCa(dir, 'front-proxy-ca', 'paddock-local-front-proxy-ca');
  const users: Record<string, CertFiles> = {};
  for (const [name, identity] of Object.entries(USERS)) users[name] = issue(dir, ca, `user-${name}`, identity.user, identity.groups);
  const saPrivate = newKey(dir, 'service-account');
  const saPublic = join(dir, 'service-account.pub');
  openssl(['pkey', '-in', saPrivate, '-pubout', '-out', saPublic], dir);
  return {
    dir,
    ca,
    frontProxyCa,
    frontProxyClient: issue(dir, frontProxyCa, 'front-proxy-client', FRONT_PROXY_CLIENT, []),
    apiserverServing: issue(dir, ca, 'kube-apiserver', 'kube-apiserver', [],
      ['localhost', '127.0.0.1', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', '10.0.0.1']),
    paddockServing: issue(dir, ca, 'paddock-serving', PADDOCK_SERVICE_DNS, [],
      [PADDOCK_SERVICE_DNS, 'paddock-apiserver.paddock-system.svc.cluster.local', 'localhost', '127.0.0.1']),
    controllerManager: issue(dir, ca, 'kube-controller-manager', 'system:kube-controller-manager', ['system:masters']),
    kubeletClient: issue(dir, ca, 'kube-apiserver-kubelet-client', 'kube-apiserver-kubelet-client', ['system:masters']),
    serviceAccount: { publicKey: saPublic, privateKey: saPrivate },
    users,
  };
}

/** Base64 of a PEM file, as kubeconfigs and APIService caBundles embed it. */
export function b64(file: string): string {
  return readFileSync(file).toString('base64');
}
