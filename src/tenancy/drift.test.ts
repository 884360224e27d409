import type { ClusterRole, Namespace, ResourceQuota } from '../kube/types';
import { clusterRoleBindings, clusterRoles } from './cluster-roles';
import { desiredState } from './desired';
import * as drift from './drift';
import { alsoAsCached, asStored, tenantWith } from './testing/guardrails';

/**
 * Every case below is also judged on what the cache keeps of the live object (the kind's summary,
 * cache/summaries.ts), which must see exactly the same drift as the whole object. The rules of each
 * guardrail kind are tested beside it (guardrails/*.test.ts); here, what holds for every kind.
 */
const diff = alsoAsCached(drift.diff);
const needsUpdate = alsoAsCached(drift.needsUpdate);

const tenant = tenantWith({ resourceQuotas: [{ hard: { cpu: '1000m', memory: '1024Mi', pods: 10, 'requests.storage': '0.5Gi' } }] });
const state = desiredState(tenant, [{ name: 'oil-p', origin: 'Declared' }]);
if (!state.valid) throw new Error('fixture must be valid');
const quota = state.namespaces[0]!.guardrails.find((g) => g.metadata.name === 'paddock-quota-0') as ResourceQuota;

describe('needsUpdate on a converged cluster', () => {
  it('ignores labels, annotations and owner references others added', () => {
    const live = asStored(quota, (o) => {
      o.metadata.labels = { ...o.metadata.labels, team: 'x' };
      o.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
      o.metadata.ownerReferences = [...o.metadata.ownerReferences!, { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'c' }];
    });
    expect(needsUpdate(live, quota)).toBe(false);
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
  it('reports a removed tenant label and a missing controller reference', () => {
    const live = asStored(quota, (o) => {
      delete o.metadata.labels!['paddock.dev/tenant'];
      o.metadata.ownerReferences = [];
    });
    expect(diff(live, quota).map((d) => d.path)).toEqual(['metadata.labels[paddock.dev/tenant]', 'metadata.ownerReferences']);
  });

  it('reports an owner reference to a Tenant of the same name but another uid', () => {
    const live = asStored(quota, (o) => {
      o.metadata.ownerReferences = [{ ...o.metadata.ownerReferences![0]!, uid: 'old-uid' }];
    });
    expect(needsUpdate(live, quota)).toBe(true);
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
    const live = asStored(quota, (o) => {
      o.spec = { hard: { cpu: '1', memory: '1Gi', pods: '10', 'requests.storage': '512Mi' } };
    });
    const textual = (a: string | number, b: string | number) => String(a) === String(b);
    expect(diff(live, quota, { quantityEqual: textual }).map((d) => d.path)).toEqual([
      'spec.hard[cpu]',
      'spec.hard[memory]',
      'spec.hard[requests.storage]',
    ]);
  });
});
