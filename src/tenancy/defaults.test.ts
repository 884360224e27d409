import { defaultLimitRangeSpec, defaultNetworkPolicySpec, defaultRoleRef, defaultSubject } from './defaults';

describe('NetworkPolicy defaulting', () => {
  it('implies Ingress when policyTypes is missing', () => {
    expect(defaultNetworkPolicySpec({ podSelector: {} }).policyTypes).toEqual(['Ingress']);
  });

  it('adds Egress when there are egress rules', () => {
    expect(defaultNetworkPolicySpec({ egress: [{}] }).policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('keeps policyTypes that are set', () => {
    expect(defaultNetworkPolicySpec({ policyTypes: ['Egress'], egress: [{}] }).policyTypes).toEqual(['Egress']);
  });

  it('makes ports without a protocol TCP and keeps the others', () => {
    const spec = defaultNetworkPolicySpec({ ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }], egress: [{ ports: [{ port: 443 }] }] });
    expect(spec.ingress).toEqual([{ ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }]);
    expect(spec.egress).toEqual([{ ports: [{ port: 443, protocol: 'TCP' }] }]);
  });

  it('does not change its input', () => {
    const input = { ingress: [{ ports: [{ port: 80 }] }] };
    defaultNetworkPolicySpec(input);
    expect(input).toEqual({ ingress: [{ ports: [{ port: 80 }] }] });
  });
});

describe('LimitRange defaulting', () => {
  it('takes a Container default limit from max, and the default request from the default', () => {
    expect(defaultLimitRangeSpec({ limits: [{ type: 'Container', max: { cpu: '2' } }] }).limits[0]).toEqual({
      type: 'Container',
      max: { cpu: '2' },
      default: { cpu: '2' },
      defaultRequest: { cpu: '2' },
    });
  });

  it('takes a Container default request from min when there is no default', () => {
    expect(defaultLimitRangeSpec({ limits: [{ type: 'Container', min: { memory: '64Mi' }, default: { cpu: '1' } }] }).limits[0]).toEqual({
      type: 'Container',
      min: { memory: '64Mi' },
      default: { cpu: '1' },
      defaultRequest: { cpu: '1', memory: '64Mi' },
    });
  });

  it('leaves items that are not Container alone', () => {
    expect(defaultLimitRangeSpec({ limits: [{ type: 'Pod', max: { cpu: '2' } }] }).limits[0]).toEqual({ type: 'Pod', max: { cpu: '2' } });
  });
});

describe('RBAC defaulting', () => {
  it('puts users and groups in rbac.authorization.k8s.io', () => {
    expect(defaultSubject({ kind: 'User', name: 'alice' })).toEqual({ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' });
    expect(defaultSubject({ kind: 'Group', name: 'devs' }).apiGroup).toBe('rbac.authorization.k8s.io');
  });

  it('puts service accounts in the core group', () => {
    expect(defaultSubject({ kind: 'ServiceAccount', name: 'd', namespace: 'ci', apiGroup: '' })).toEqual({ kind: 'ServiceAccount', name: 'd', namespace: 'ci' });
  });

  it('defaults the roleRef group', () => {
    expect(defaultRoleRef({ apiGroup: '', kind: 'ClusterRole', name: 'x' })?.apiGroup).toBe('rbac.authorization.k8s.io');
  });
});
