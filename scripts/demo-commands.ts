// What `npm run demo` prints to try, and what each printed line promises: the one list the demo prints
// (demo.ts) and the demo-commands tests run verbatim, from the repository's root, in a shell where
// KUBECONFIG is set as the first printed line sets it.

/** The users the demo makes kubeconfigs for: admin (system:masters), alice, bob (group gas-devs), carol. */
export const DEMO_USERS = ['admin', 'alice', 'bob', 'carol'] as const;
export type DemoUser = (typeof DEMO_USERS)[number];

/** Where the demo writes a user's kubeconfig, relative to the repository's root. */
export const kubeconfigPath = (user: DemoUser): string => `.paddock/kubeconfig-${user}`;

/** The first line printed: every later command without --kubeconfig acts as admin. */
export const DEMO_SHELL_SETUP = `export KUBECONFIG=${kubeconfigPath('admin')}`;

/**
 * What a printed command does, as its comment says it:
 * - `succeeds`: exits 0, its output (stdout and stderr) matching every pattern of `shows` and none of `hides`;
 * - `watches`: runs until its output matches `shows` (then it is stopped), never matching `hides` up to then;
 * - `refused`: exits non-zero with output matching `shows` (the answer the comment announces).
 */
export type DemoOutcome =
  | { kind: 'succeeds'; shows?: readonly RegExp[]; hides?: readonly RegExp[] }
  | { kind: 'watches'; shows: RegExp; hides?: readonly RegExp[] }
  | { kind: 'refused'; shows: RegExp };

export interface DemoCommand {
  /** The shell command, printed and run exactly as written. */
  command: string;
  /** The printed comment: what happens. */
  comment?: string;
  outcome: DemoOutcome;
}

const alice = `--kubeconfig ${kubeconfigPath('alice')}`;
const bob = `--kubeconfig ${kubeconfigPath('bob')}`;
const carol = `--kubeconfig ${kubeconfigPath('carol')}`;

/**
 * The guardrail a cluster admin deletes to see Paddock put it back. One line, so that it can follow
 * whoever may delete Paddock's objects.
 */
const REPAIR: DemoCommand = {
  command: 'kubectl delete quota paddock-quota-0 -n oil-production && kubectl wait --for=create quota/paddock-quota-0 -n oil-production --timeout=30s',
  comment: 'deleted as admin; Paddock puts it back',
  outcome: { kind: 'succeeds', shows: [/resourcequota "paddock-quota-0" deleted/, /resourcequota\/paddock-quota-0 condition met/] },
};

/** Commands for every demo; `inCluster`: the demo has a node (a tenant's nodeSelector can match). */
export function demoCommands(inCluster: boolean): DemoCommand[] {
  return [
    {
      command: 'kubectl get tenants -o wide',
      comment: inCluster ? 'oil (owner alice), gas (owner group gas-devs); RESOLVEDREFS True: the node matches their nodeSelector'
        : 'oil (owner alice), gas (owner group gas-devs); RESOLVEDREFS False: no node has their nodeSelector',
      outcome: { kind: 'succeeds', shows: [/^oil\s.*User\/alice:admin/m, /^gas\s.*Group\/gas-devs:admin/m,
        inCluster ? /^oil\s.*\sTrue\s*$/m : /^oil\s.*\sFalse\s*$/m, inCluster ? /^gas\s.*\sTrue\s*$/m : /^gas\s.*\sFalse\s*$/m] },
    },
    {
      command: `kubectl get tenant gas -o jsonpath='{.status.conditions[?(@.type=="ResolvedRefs")].message}{"\\n"}'`,
      comment: inCluster ? 'every class and node selector it names exists' : 'not found: no Node has the labels of nodeSelector kubernetes.io/os=linux',
      outcome: { kind: 'succeeds', shows: [inCluster ? /^every class and node selector the tenant names exists$/m : /^not found: no Node has the labels of nodeSelector kubernetes\.io\/os=linux$/m] },
    },
    {
      command: 'kubectl get tns -o wide',
      comment: 'every tenant namespace, with quota used/hard',
      outcome: { kind: 'succeeds', shows: [/^gas-production\s+gas\s+Active\s.*\/4\s+\S+\/8Gi\s+\S+\/10\s/m, /^oil-production\s+oil\s+Active\s.*\/8\s+\S+\/16Gi\s+\S+\/20\s/m, /^oil-staging\s+oil\s+Active\s/m] },
    },
    {
      command: `kubectl ${alice} get tns`,
      comment: 'alice sees oil only',
      outcome: { kind: 'succeeds', shows: [/^oil-production\s/m, /^oil-staging\s/m], hides: [/^gas-/m] },
    },
    {
      command: `kubectl ${bob} get tns -w`,
      comment: 'bob (group gas-devs) watches gas only (Ctrl-C ends it)',
      outcome: { kind: 'watches', shows: /^gas-production\s+gas\s+Active/m, hides: [/^oil-/m] },
    },
    {
      command: `kubectl ${carol} get tns`,
      comment: 'carol owns nothing: No resources found',
      outcome: { kind: 'succeeds', shows: [/No resources found/], hides: [/^oil-|^gas-/m] },
    },
    {
      command: `kubectl ${alice} create -f examples/self-service/tenantnamespace-oil-dev.yaml`,
      comment: 'alice makes a namespace of her own',
      outcome: { kind: 'succeeds', shows: [/^tenantnamespace\.tenancy\.paddock\.dev\/oil-dev created$/m] },
    },
    {
      command: `kubectl ${alice} delete tns oil-dev`,
      comment: 'and deletes it',
      outcome: { kind: 'succeeds', shows: [/^tenantnamespace\.tenancy\.paddock\.dev "oil-dev" deleted/m] },
    },
    {
      command: 'kubectl explain tns.status.quota',
      comment: 'the served types are documented',
      outcome: { kind: 'succeeds', shows: [/^FIELD:\s+quota/m] },
    },
    {
      command: `kubectl ${alice} run web -n oil-production --image=docker.io/library/nginx:1.29 --dry-run=server -o jsonpath='{.spec.priorityClassName} {.spec.nodeSelector}{"\\n"}'`,
      comment: "oil's defaults filled in by kube-apiserver",
      outcome: { kind: 'succeeds', shows: [/^tenant-low \{"kubernetes\.io\/os":"linux"\}$/m] },
    },
    {
      command: `kubectl ${alice} run miner -n oil-production --image=quay.io/miner/xmrig:6`,
      comment: "refused by kube-apiserver: quay.io is not one of oil's registries",
      outcome: { kind: 'refused', shows: /image quay\.io\/miner\/xmrig:6 is not from an allowed registry \(tenant oil\); allowed: .*localhost/ },
    },
    REPAIR,
  ];
}

/** Commands only the in-cluster demo prints: Paddock's own pods, and tenants' pods on the node. */
export function inClusterCommands(): DemoCommand[] {
  const image = '--image=localhost/netcheck:1 --image-pull-policy=Never -- serve';
  return [
    {
      command: 'kubectl get pods,svc,pdb -n paddock-system -o wide',
      comment: '2 replicas behind the Service paddock-apiserver',
      outcome: { kind: 'succeeds', shows: [/^pod\/paddock-\S+\s+1\/1\s+Running(.|\n)*^pod\/paddock-\S+\s+1\/1\s+Running/m, /^service\/paddock-apiserver\s/m, /^poddisruptionbudget\.policy\/paddock\s/m] },
    },
    {
      command: 'kubectl get lease paddock-controller -n paddock-system',
      comment: 'the leader',
      outcome: { kind: 'succeeds', shows: [/^paddock-controller\s+paddock-\S+/m] },
    },
    {
      command: `kubectl rollout restart deployment/paddock -n paddock-system && kubectl ${alice} get tns -w`,
      comment: 'both replicas replaced, one at a time, while alice watches her namespaces (Ctrl-C ends it)',
      outcome: { kind: 'watches', shows: /^oil-production\s+oil\s+Active/m },
    },
    {
      command: 'kubectl get secret paddock-serving-cert -n paddock-system',
      comment: 'the serving certificate Paddock made',
      outcome: { kind: 'succeeds', shows: [/^paddock-serving-cert\s+kubernetes\.io\/tls\s+\d+\s/m] },
    },
    {
      command: `kubectl ${alice} run echo -n oil-production ${image}`,
      comment: 'alice runs a pod on the node',
      outcome: { kind: 'succeeds', shows: [/^pod\/echo created$/m] },
    },
    {
      command: `kubectl ${alice} run probe -n oil-staging ${image}`,
      outcome: { kind: 'succeeds', shows: [/^pod\/probe created$/m] },
    },
    {
      command: `kubectl ${alice} wait --for=condition=Ready pod/echo -n oil-production && kubectl ${alice} wait --for=condition=Ready pod/probe -n oil-staging`,
      outcome: { kind: 'succeeds', shows: [/^pod\/echo condition met$/m, /^pod\/probe condition met$/m] },
    },
    {
      command: `kubectl ${alice} exec -n oil-staging probe -- /netcheck probe tcp $(kubectl ${alice} get pod echo -n oil-production -o jsonpath='{.status.podIP}'):8080`,
      comment: 'same tenant: ok',
      outcome: { kind: 'succeeds', shows: [/^ok/m] },
    },
  ];
}

/** `  command   # comment` lines, the comments aligned (up to a width, past which a comment just follows). */
export function formatCommands(commands: readonly DemoCommand[]): string {
  const width = Math.min(60, Math.max(...commands.map((c) => c.command.length)));
  return commands.map((c) => `  ${c.comment ? `${c.command.padEnd(width)}   # ${c.comment}` : c.command}`).join('\n');
}
