import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { CRD_MANIFESTS } from '../../src/tenancy/schema/manifest';
import { waitFor } from './processes';

const SCHEMAS = resolve(__dirname, '..', '..', 'schemas');

const ESTABLISHED = `{.status.conditions[?(@.type=="Established")].status}`;

/** Waits until kube-apiserver serves each CRD of `names` (polled: `kubectl wait` fails outright on a CRD without conditions yet). */
async function waitEstablished(kubectl: (args: string[]) => string, names: readonly string[]): Promise<void> {
  await waitFor('the CRDs established', () => names.every((name) => kubectl(['get', `crd/${name}`, '-o', `jsonpath=${ESTABLISHED}`]) === 'True'), 60_000, 100);
}

const kubectlFor = (kubeconfig: string) => (args: string[]) => execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: 'pipe', encoding: 'utf8' });

/** Applies Paddock's CRDs (`kubectl apply -k schemas`) and waits until kube-apiserver serves each one. */
export async function installCrds(kubeconfig: string): Promise<void> {
  const kubectl = kubectlFor(kubeconfig);
  kubectl(['apply', '--server-side', '-k', SCHEMAS]);
  await waitEstablished(kubectl, CRD_MANIFESTS.map((m) => m.name));
}

/**
 * Applies Gateway API's standard-channel CRDs (fetched and cached by fetch-gateway-api.sh, never
 * committed) and waits until kube-apiserver serves each one. A cluster without them is normal too:
 * the test bed installs them after Paddock has started, so that every run proves Paddock serves
 * without them and picks them up once they appear.
 */
export async function installGatewayApiCrds(kubeconfig: string): Promise<void> {
  const out = execFileSync('bash', [resolve(__dirname, 'fetch-gateway-api.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const dir = out.trim().split('\n').pop()!;
  const kubectl = kubectlFor(kubeconfig);
  kubectl(['apply', '--server-side', '-f', dir]);
  const names = readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/^gateway\.networking\.k8s\.io_(.*)\.yaml$/, '$1.gateway.networking.k8s.io'));
  await waitEstablished(kubectl, names);
}

