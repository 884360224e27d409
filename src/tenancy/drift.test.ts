import type { ClusterRole, LimitRange, Namespace, NetworkPolicy, ResourceQuota, RoleBinding, Tenant } from '../kube/types';
import { clusterRoleBindings, clusterRoles } from './cluster-roles';
import { desiredState } from './desired';
import { guardrailSummary, Interner } from '../cache/summaries';
import { deepFreeze } from '../cache/transform';
import * as drift from './drift';
import type { ManagedObject } from './drift';
import type { Guardrail } from './guardrails';

/**
 * Every case below is also judged on the summary the cache keeps of the live object (cache/summaries.ts),
 * which must see exactly the same drift as the whole object.
 */
const GUARDRAIL_KINDS = new Set(['ResourceQuota', 'LimitRange', 'NetworkPolicy', 'RoleBinding']);
const cached = (live: ManagedObject, want: ManagedObject): ManagedObject | undefined =>
  GUARDRAIL_KINDS.has(want.kind ?? '') ? guardrailSummary(deepFreeze(structuredClone(live)), new Interner()) : undefined;
type Judge<R> = (live: ManagedObject, want: ManagedObject, options?: drift.DiffOptions) => R;
function both<R>(judge: Judge<R>): Judge<R> {
  return (live, want, options) => {
    const whole = judge(live, want, options);
    const summary = cached(live, want);
    if (summary) expect(judge(summary, want, options)).toEqual(whole);
    return whole;
  };
}
const diff = both(drift.diff);
const needsUpdate = both(drift.needsUpdate);
const requiresRecreate = both(drift.requiresRecreate);

const tenant: Tenant = {
  metadata: { name: 'oil', uid: 'uid-1', generation: 1 },
  spec: {
    owners: [
      { kind: 'User', name: 'alice' },
      { kind: 'Group', name: 'oil-devs', role: 'operator' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'operator' },
    ],
    namespaces: ['p'],
    resourceQuotas: [{ hard: { cpu: '1000m', memory: '1024Mi', pods: 10, 'requests.storage': '0.5Gi' } }],
    limitRanges: [{ limits: [{ type: 'Container', max: { cpu: 2 }, min: { memory: '64Mi' } }, { type: 'Pod', max: { memory: '4Gi' } }] }],
    networkPolicies: [{ podSelector: { matchLabels: {} }, egress: [{ ports: [{ port: 53 }], to: [] }] }],
  },
};

const state = desiredState(tenant, [{ name: 'oil-p', origin: 'Declared' }]);
if (!state.valid) throw new Error('fixture must be valid');
const guardrails = state.namespaces[0]!.guardrails;
const desired = <T extends Guardrail>(name: string) => guardrails.find((g) => g.metadata.name === name) as T;

/** What kube-apiserver hands back after storing `obj`: server fields, defaults and canonical quantities. */
function asStored<T extends ManagedObject>(obj: T, patch: (o: T) => void = () => {}): T {
  const copy = structuredClone(obj) as T & { status?: unknown };
  delete copy.apiVersion;
  delete copy.kind;
  copy.metadata = { ...copy.metadata, uid: 'server-uid', resourceVersion: '17', creationTimestamp: '2026-01-01T00:00:00Z', generation: 1 };
  patch(copy);
  return copy;
}

describe('needsUpdate on a converged cluster', () => {
  it('sees no drift in a ResourceQuota whose amounts kube-apiserver canonicalized', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      o.spec = { hard: { cpu: '1', memory: '1Gi', pods: '10', 'requests.storage': '512Mi' } };
      o.status = { hard: o.spec.hard as Record<string, string>, used: { cpu: '0' } };
    });
    expect(diff(live, desired('paddock-quota-0'))).toEqual([]);
  });

  it('sees no drift in a LimitRange that kube-apiserver filled with Container defaults', () => {
    const live = asStored(desired<LimitRange>('paddock-limits-0'), (o) => {
      o.spec = {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } },
          { type: 'Pod', max: { memory: '4Gi' } },
        ],
      };
    });
    expect(diff(live, desired('paddock-limits-0'))).toEqual([]);
  });

  it('sees no drift in a NetworkPolicy with policyTypes and port protocols defaulted', () => {
    const live = asStored(desired<NetworkPolicy>('paddock-policy-0'), (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }] };
    });
    expect(diff(live, desired('paddock-policy-0'))).toEqual([]);
  });

  it('sees no drift in the isolation policy as stored', () => {
    expect(needsUpdate(asStored(desired('paddock-isolation')), desired('paddock-isolation'))).toBe(false);
  });

  it('sees no drift in a RoleBinding whose subjects were defaulted and reordered', () => {
    const live = asStored(desired<RoleBinding>('paddock:tenant-operator'), (o) => {
      o.subjects = [
        { kind: 'ServiceAccount', name: 'deployer', namespace: 'ci', apiGroup: '' },
        { kind: 'Group', name: 'oil-devs' },
      ];
    });
    expect(diff(live, desired('paddock:tenant-operator'))).toEqual([]);
  });

  it('ignores labels, annotations and owner references others added', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      o.metadata.labels = { ...o.metadata.labels, team: 'x' };
      o.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
      o.metadata.ownerReferences = [...o.metadata.ownerReferences!, { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'c' }];
    });
    expect(needsUpdate(live, desired('paddock-quota-0'))).toBe(false);
  });

  it('sees no drift in the shipped ClusterRoles and ClusterRoleBinding as stored', () => {
    clusterRoles().forEach((r) => expect(needsUpdate(asStored(r), r)).toBe(false));
    clusterRoleBindings().forEach((b) => expect(needsUpdate(asStored(b, (o) => delete o.subjects![0]!.apiGroup), b)).toBe(false));
  });

  it('sees no drift in a namespace carrying foreign labels and annotations', () => {
    const want = state.namespaces[0]!.namespace;
    const live = asStored(want, (o: Namespace) => {
      o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': 'oil-p', team: 'x' };
      o.metadata.annotations = { ...o.metadata.annotations, 'openshift.io/sa.scc.uid-range': '1000/10000' };
      o.spec = { finalizers: ['kubernetes'] };
      o.status = { phase: 'Active' };
    });
    expect(diff(live, want)).toEqual([]);
  });
});

describe('needsUpdate on drift', () => {
  it('reports a changed quota amount at its field path', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      o.spec!.hard!.cpu = '2';
    });
    expect(diff(live, desired('paddock-quota-0'))).toEqual([{ path: 'spec.hard[cpu]', live: '2', desired: '1000m' }]);
  });

  it('reports a resource added to or removed from a quota', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      delete o.spec!.hard!.pods;
      o.spec!.hard!.secrets = '5';
    });
    expect(diff(live, desired('paddock-quota-0')).map((d) => d.path)).toEqual(['spec.hard[pods]', 'spec.hard[secrets]']);
  });

  it('reports a removed tenant label and a missing controller reference', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      delete o.metadata.labels!['paddock.dev/tenant'];
      o.metadata.ownerReferences = [];
    });
    expect(diff(live, desired('paddock-quota-0')).map((d) => d.path)).toEqual(['metadata.labels[paddock.dev/tenant]', 'metadata.ownerReferences']);
  });

  it('reports an owner reference to a Tenant of the same name but another uid', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      o.metadata.ownerReferences = [{ ...o.metadata.ownerReferences![0]!, uid: 'old-uid' }];
    });
    expect(needsUpdate(live, desired('paddock-quota-0'))).toBe(true);
  });

  it('reports a widened isolation policy', () => {
    const live = asStored(desired<NetworkPolicy>('paddock-isolation'), (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress'], ingress: [{}] };
    });
    expect(needsUpdate(live, desired('paddock-isolation'))).toBe(true);
  });

  it('reports a changed port protocol', () => {
    const live = asStored(desired<NetworkPolicy>('paddock-policy-0'), (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'UDP' }] }] };
    });
    expect(diff(live, desired('paddock-policy-0')).map((d) => d.path)).toEqual(['spec.egress[0].ports[0].protocol']);
  });

  it('reports a changed LimitRange default', () => {
    const live = asStored(desired<LimitRange>('paddock-limits-0'), (o) => {
      o.spec = { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '1' } }, { type: 'Pod', max: { memory: '4Gi' } }] };
    });
    expect(diff(live, desired('paddock-limits-0')).map((d) => d.path)).toEqual(['spec.limits[0].default[cpu]', 'spec.limits[0].defaultRequest[cpu]']);
  });

  it('reports a subject added to a RoleBinding', () => {
    const live = asStored(desired<RoleBinding>('paddock:tenant-admin'), (o) => {
      o.subjects = [...o.subjects!, { kind: 'User', name: 'mallory', apiGroup: 'rbac.authorization.k8s.io' }];
    });
    expect(diff(live, desired('paddock:tenant-admin')).map((d) => d.path)).toEqual(['subjects']);
    expect(requiresRecreate(live, desired('paddock:tenant-admin'))).toBe(false);
  });

  it('asks to recreate a RoleBinding whose immutable roleRef was changed', () => {
    const live = asStored(desired<RoleBinding>('paddock:tenant-admin'), (o) => {
      o.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' };
    });
    expect(requiresRecreate(live, desired('paddock:tenant-admin'))).toBe(true);
  });

  it('reports an extra rule in a shipped ClusterRole', () => {
    const role = clusterRoles()[2] as ClusterRole;
    const live = asStored(role, (o) => {
      o.rules = [...o.rules!, { apiGroups: [''], resources: ['resourcequotas'], verbs: ['update'] }];
    });
    expect(diff(live, role).map((d) => d.path)).toEqual(['rules']);
  });
});

describe('diff with an injected quantity comparison', () => {
  it('uses the comparator it is given', () => {
    const live = asStored(desired<ResourceQuota>('paddock-quota-0'), (o) => {
      o.spec = { hard: { cpu: '1', memory: '1Gi', pods: '10', 'requests.storage': '512Mi' } };
    });
    const textual = (a: string | number, b: string | number) => String(a) === String(b);
    expect(diff(live, desired('paddock-quota-0'), { quantityEqual: textual }).map((d) => d.path)).toEqual([
      'spec.hard[cpu]',
      'spec.hard[memory]',
      'spec.hard[requests.storage]',
    ]);
  });
});
