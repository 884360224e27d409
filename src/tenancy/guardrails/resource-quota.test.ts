import type { ResourceQuota } from '../../kube/types';
import * as drift from '../drift';
import { alsoAsCached, asStored, desiredNamed, tenantWith } from '../testing/guardrails';

const diff = alsoAsCached(drift.diff);

describe('ResourceQuota guardrails', () => {
  const tenant = tenantWith({ resourceQuotas: [{ hard: { cpu: '1000m', memory: '1024Mi', pods: 10, 'requests.storage': '0.5Gi' } }] });
  const want = desiredNamed<ResourceQuota>(tenant, 'paddock-quota-0');

  it('writes quota amounts as strings, as kube-apiserver returns them', () => {
    const t = tenantWith({ resourceQuotas: [{ hard: { cpu: 8, memory: '16Gi' } }, { hard: { pods: 10 }, scopes: ['BestEffort'] }] });
    expect(desiredNamed<ResourceQuota>(t, 'paddock-quota-0').spec).toEqual({ hard: { cpu: '8', memory: '16Gi' } });
    expect(desiredNamed<ResourceQuota>(t, 'paddock-quota-1').spec).toEqual({ hard: { pods: '10' }, scopes: ['BestEffort'] });
  });

  it('sees no drift in a ResourceQuota whose amounts kube-apiserver canonicalized', () => {
    const live = asStored(want, (o) => {
      o.spec = { hard: { cpu: '1', memory: '1Gi', pods: '10', 'requests.storage': '512Mi' } };
      o.status = { hard: o.spec.hard as Record<string, string>, used: { cpu: '0' } };
    });
    expect(diff(live, want)).toEqual([]);
  });

  it('reports a changed quota amount at its field path', () => {
    const live = asStored(want, (o) => {
      o.spec!.hard!.cpu = '2';
    });
    expect(diff(live, want)).toEqual([{ path: 'spec.hard[cpu]', live: '2', desired: '1000m' }]);
  });

  it('reports a resource added to or removed from a quota', () => {
    const live = asStored(want, (o) => {
      delete o.spec!.hard!.pods;
      o.spec!.hard!.secrets = '5';
    });
    expect(diff(live, want).map((d) => d.path)).toEqual(['spec.hard[pods]', 'spec.hard[secrets]']);
  });
});
