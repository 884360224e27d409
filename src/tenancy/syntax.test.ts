import { isDns1123Label, isDns1123Subdomain, isLabelValue, isPathSegmentName, isQualifiedName } from './syntax';

describe('kube name syntax', () => {
  it('accepts namespace names and refuses what kube-apiserver refuses', () => {
    expect(isDns1123Label('oil-production')).toBe(true);
    expect(isDns1123Label('a'.repeat(63))).toBe(true);
    expect(isDns1123Label('a'.repeat(64))).toBe(false);
    expect(isDns1123Label('Oil')).toBe(false);
    expect(isDns1123Label('-oil')).toBe(false);
    expect(isDns1123Label('oil.dev')).toBe(false);
  });

  it('accepts dotted subdomains', () => {
    expect(isDns1123Subdomain('example.com')).toBe(true);
    expect(isDns1123Subdomain('deployer')).toBe(true);
    expect(isDns1123Subdomain('example..com')).toBe(false);
    expect(isDns1123Subdomain('x'.repeat(254))).toBe(false);
  });

  it('checks label keys with and without a prefix', () => {
    expect(isQualifiedName('team')).toBe(true);
    expect(isQualifiedName('example.com/team')).toBe(true);
    expect(isQualifiedName('app.kubernetes.io/managed-by')).toBe(true);
    expect(isQualifiedName('Example.com/team')).toBe(false);
    expect(isQualifiedName('a/b/c')).toBe(false);
    expect(isQualifiedName('/team')).toBe(false);
    expect(isQualifiedName('example.com/')).toBe(false);
    expect(isQualifiedName('team!')).toBe(false);
    expect(isQualifiedName('t'.repeat(64))).toBe(false);
  });

  it('checks label values', () => {
    expect(isLabelValue('')).toBe(true);
    expect(isLabelValue('linux')).toBe(true);
    expect(isLabelValue('v1.2_3-x')).toBe(true);
    expect(isLabelValue('has space')).toBe(false);
    expect(isLabelValue('a,b')).toBe(false);
    expect(isLabelValue('v'.repeat(64))).toBe(false);
  });

  it('checks RBAC names as kube-apiserver does: any path segment', () => {
    for (const ok of ['view', 'system:aggregate-to-view', 'paddock:tenant-admin', 'Role With Spaces', '...']) expect(isPathSegmentName(ok)).toBe(true);
    for (const bad of ['', '.', '..', 'a/b', '100%']) expect(isPathSegmentName(bad)).toBe(false);
  });
});
