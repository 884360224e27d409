import { fenceObjects } from '../fences/fence';
import { shareGuard } from './share-guard';
import { QUOTA_LABEL, SHARE_NAME } from './share';

const [policy, binding] = fenceObjects(shareGuard);
type Rule = { apiGroups: string[]; resources: string[]; operations: string[] };

describe('the share guard', () => {
  it('takes the namespace share as its parameter and denies when it is missing', () => {
    expect(policy!.spec.paramKind).toEqual({ apiVersion: 'v1', kind: 'ResourceQuota' });
    expect(binding!.spec.paramRef).toEqual({ name: SHARE_NAME, parameterNotFoundAction: 'Deny' });
    expect(binding!.spec.validationActions).toEqual(['Deny']);
    expect(policy!.spec.failurePolicy).toBe('Fail');
  });

  it('selects only the namespaces Paddock labels for a tenant with spec.quota', () => {
    expect((binding!.spec.matchResources as { namespaceSelector: unknown }).namespaceSelector).toEqual({
      matchExpressions: [
        { key: 'paddock.dev/tenant', operator: 'Exists' },
        { key: QUOTA_LABEL, operator: 'In', values: ['true'] },
      ],
    });
  });

  it('matches creates of every namespaced resource but what only Paddock writes before the share, and Events', () => {
    const constraints = policy!.spec.matchConstraints as { resourceRules: Rule[]; excludeResourceRules: Rule[] };
    expect(constraints.resourceRules).toEqual([expect.objectContaining({ apiGroups: ['*'], resources: ['*'], operations: ['CREATE'] })]);
    const excluded = constraints.excludeResourceRules.flatMap((r) => r.resources);
    expect(excluded.sort()).toEqual(['events', 'events', 'limitranges', 'resourcequotas', 'tenantrestrictions']);
    // What owners can create is never excluded.
    for (const r of ['pods', 'services', 'persistentvolumeclaims', 'rolebindings', 'networkpolicies', 'configmaps', 'secrets']) expect(excluded).not.toContain(r);
  });
});
