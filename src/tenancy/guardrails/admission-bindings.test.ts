import { DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME } from '../admission-policies';
import { defaultsBindings, restrictionsBindings } from './admission-bindings';
import { tenantWith } from '../testing/guardrails';

describe('admission policy bindings', () => {
  const names = (t: ReturnType<typeof tenantWith>) => [...restrictionsBindings.desired(t), ...defaultsBindings.desired(t)].map((b) => [b.kind, b.metadata.name, b.spec.policyName]);

  it('binds nothing to a tenant that restricts nothing', () => {
    expect(names(tenantWith())).toEqual([]);
  });

  it('binds the restrictions policy to a tenant that restricts, and the defaults policy only when it has defaults', () => {
    expect(names(tenantWith({ containerRegistries: { allowed: ['registry.example'] } }))).toEqual([
      ['ValidatingAdmissionPolicyBinding', 'paddock-restrictions-oil', RESTRICTIONS_POLICY_NAME],
    ]);
    expect(names(tenantWith({ storageClasses: { allowed: ['standard'], default: 'standard' } }))).toEqual([
      ['ValidatingAdmissionPolicyBinding', 'paddock-restrictions-oil', RESTRICTIONS_POLICY_NAME],
      ['MutatingAdmissionPolicyBinding', 'paddock-defaults-oil', DEFAULTS_POLICY_NAME],
    ]);
  });
});
