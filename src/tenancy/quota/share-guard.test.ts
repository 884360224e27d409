import { fenceObjects } from '../fences/fence';
import { shareGuard } from './share-guard';
import { QUOTA_LABEL, SHARE_NAME } from './share';

const [policy, narrowed, binding] = fenceObjects(shareGuard);
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

  it('matches creates of every namespaced resource but Events; of the guardrail kinds, only objects without Paddock\'s label', () => {
    const constraints = policy!.spec.matchConstraints as { resourceRules: Rule[]; excludeResourceRules: Rule[] };
    expect(constraints.resourceRules).toEqual([expect.objectContaining({ apiGroups: ['*'], resources: ['*'], operations: ['CREATE'] })]);
    expect(constraints.excludeResourceRules.flatMap((r) => r.resources)).toEqual(['events', 'events']);
    // The first binding leaves the guardrail kinds to the second, which selects what Paddock did not label.
    const guardrailKinds = ['tenantrestrictions', 'resourcequotas', 'limitranges', 'networkpolicies', 'rolebindings'];
    const first = binding!.spec.matchResources as { excludeResourceRules: Rule[]; objectSelector: unknown };
    expect(first.excludeResourceRules.flatMap((r) => r.resources)).toEqual(guardrailKinds);
    expect(first.objectSelector).toEqual({});
    expect(narrowed!.spec.paramRef).toEqual(binding!.spec.paramRef);
    const second = narrowed!.spec.matchResources as { resourceRules: Rule[]; namespaceSelector: unknown; objectSelector: unknown };
    expect(second.resourceRules.flatMap((r) => r.resources)).toEqual(guardrailKinds);
    expect(second.resourceRules.every((r) => r.operations.join() === 'CREATE')).toBe(true);
    expect(second.namespaceSelector).toEqual((binding!.spec.matchResources as { namespaceSelector: unknown }).namespaceSelector);
    expect(second.objectSelector).toEqual({ matchExpressions: [{ key: 'app.kubernetes.io/managed-by', operator: 'NotIn', values: ['paddock'] }] });
  });
});
