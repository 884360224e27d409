import { gatewayWithin, ingressWithin, overlap, patternProblem } from './patterns';

describe('hostname patterns', () => {
  it.each([
    // [a, b, overlap]: some host matches both, under Gateway API's rule (a wildcard spans any number of labels)
    ['api.oil.example.com', 'api.oil.example.com', true],
    ['api.oil.example.com', 'web.oil.example.com', false],
    ['api.oil.example.com', '*.oil.example.com', true],
    ['x.api.oil.example.com', '*.oil.example.com', true],
    ['oil.example.com', '*.oil.example.com', false],
    ['*.oil.example.com', '*.oil.example.com', true],
    ['*.oil.example.com', '*.api.oil.example.com', true],
    ['*.oil.example.com', '*.gas.example.com', false],
    ['*.example.com', 'api.oil.example.com', true],
    ['*.oil.example.com', 'oil.example.com.evil.org', false],
    ['*.il.example.com', 'api.oil.example.com', false],
    ['*.com', '*.example.com', true],
  ])('%s and %s overlap: %s (either way round)', (a, b, expected) => {
    expect(overlap(a, b)).toBe(expected);
    expect(overlap(b, a)).toBe(expected);
  });

  it.each([
    // [host, pattern, under Ingress's rule, under Gateway API's]
    ['api.oil.example.com', 'api.oil.example.com', true, true],
    ['bar.foo.com', '*.foo.com', true, true],
    ['baz.bar.foo.com', '*.foo.com', false, true],
    ['foo.com', '*.foo.com', false, false],
    ['*.foo.com', '*.foo.com', true, true],
    ['*.bar.foo.com', '*.foo.com', false, true],
    ['*.foo.com', 'bar.foo.com', false, false],
    ['xfoo.com', '*.foo.com', false, false],
    ['bar.foo.com', 'foo.com', false, false],
  ])('%s within %s: Ingress %s, Gateway API %s', (host, pattern, ingress, gateway) => {
    expect(ingressWithin(host, pattern)).toBe(ingress);
    expect(gatewayWithin(host, pattern)).toBe(gateway);
  });

  it.each([
    ['api.oil.example.com', undefined],
    ['*.oil.example.com', undefined],
    ['localhost', undefined],
    ['API.oil.example.com', 'must be lower case (DNS names are compared in lower case and kube-apiserver accepts no other)'],
    ['api.oil.example.com.', 'must not end with a dot'],
    ['*', 'must be a DNS name or "*." followed by one'],
    ['a.*.example.com', 'must be a DNS name or "*." followed by one'],
    ['**.example.com', 'must be a DNS name or "*." followed by one'],
    ['-a.example.com', 'must be a DNS name or "*." followed by one'],
    ['10.0.0.1', 'must be a name, not an IP address'],
    ['', 'must be 1 to 253 characters'],
  ])('%j: %s', (pattern, problem) => {
    expect(patternProblem(pattern)).toBe(problem);
  });
});
