import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { CRD_MANIFESTS } from '../../src/tenancy/schema/manifest';
import { waitFor } from './processes';

const SCHEMAS = resolve(__dirname, '..', '..', 'schemas');

/**
 * Applies Paddock's CRDs (`kubectl apply -k schemas`) and waits until kube-apiserver serves each one.
 * Polled rather than `kubectl wait`: that fails outright on a CRD whose status has no conditions yet.
 */
export async function installCrds(kubeconfig: string): Promise<void> {
  const kubectl = (args: string[]) => execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { stdio: 'pipe', encoding: 'utf8' });
  kubectl(['apply', '--server-side', '-k', SCHEMAS]);
  const established = `{.status.conditions[?(@.type=="Established")].status}`;
  await waitFor('the CRDs established', () => CRD_MANIFESTS.every((m) => kubectl(['get', `crd/${m.name}`, '-o', `jsonpath=${established}`]) === 'True'), 60_000, 100);
}
