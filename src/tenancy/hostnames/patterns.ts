/**
 * Hostname patterns as tenants list them in `spec.hostnames.allowed` (SPEC §10): an exact DNS name
 * (`api.oil.example.com`) or a wildcard `*.` followed by one (`*.oil.example.com`). Lower case, no
 * trailing dot, no IP address: exactly what kube-apiserver's own validation lets Ingress hosts and
 * Gateway API hostnames be, so that a pattern compares with them as strings. Pure.
 *
 * Two matching rules exist, one per acting component, and the policies use each where it acts:
 * - Ingress (networking.k8s.io/v1 IngressRule.host): `*.a.b` matches exactly one more label —
 *   `x.a.b`, not `y.x.a.b`, not `a.b`;
 * - Gateway API (listener and route hostnames): `*.a.b` matches any number of labels under `a.b`.
 *
 * Allocation (overlap, see overlap.ts) uses the wider one, Gateway API's: the same pattern serves both.
 */

/** One DNS label as kube-apiserver validates it (RFC 1123, lower case). */
const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
/** A pattern: the Gateway API hostname syntax (its CRDs' `pattern`), which Ingress hosts share. */
export const HOSTNAME_PATTERN = `^(\\*\\.)?${LABEL}(\\.${LABEL})*$`;
const SYNTAX = new RegExp(HOSTNAME_PATTERN);
/** A dotted quad: an address, not a name (Ingress refuses one as a host; Gateway API says "not an IP"). */
export const IP_PATTERN = '^[0-9]+([.][0-9]+){3}$';
const IP = new RegExp(IP_PATTERN);

/** Why `pattern` is not a hostname pattern (undefined: it is one). */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length === 0 || pattern.length > 253) return 'must be 1 to 253 characters';
  if (pattern !== pattern.toLowerCase()) return 'must be lower case (DNS names are compared in lower case and kube-apiserver accepts no other)';
  if (pattern.endsWith('.')) return 'must not end with a dot';
  if (!SYNTAX.test(pattern)) return 'must be a DNS name or "*." followed by one';
  if (IP.test(pattern)) return 'must be a name, not an IP address';
  return undefined;
}

export const isWildcard = (pattern: string) => pattern.startsWith('*.');

/** The domain under a wildcard (`a.b` for `*.a.b`), or the name itself. */
const base = (pattern: string) => (isWildcard(pattern) ? pattern.slice(2) : pattern);

/** Whether `name` is strictly under `domain` (`x.a.b` and `y.x.a.b` are under `a.b`; `a.b` is not). */
const isUnder = (name: string, domain: string) => name.endsWith(`.${domain}`);

/**
 * Whether every host `host` (a host or a wildcard) can stand for is one that `pattern` matches, under
 * the Ingress rule (a wildcard matches one label).
 */
export function ingressWithin(host: string, pattern: string): boolean {
  if (host === pattern) return true;
  if (!isWildcard(pattern) || isWildcard(host)) return false;
  const domain = base(pattern);
  return isUnder(host, domain) && !host.slice(0, host.length - domain.length - 1).includes('.');
}

/** The same under the Gateway API rule (a wildcard matches any number of labels). */
export function gatewayWithin(host: string, pattern: string): boolean {
  return host === pattern || (isWildcard(pattern) && isUnder(base(host), base(pattern)));
}

/**
 * Whether some host matches both patterns, under the Gateway API rule (the wider: a pattern allocated
 * to a tenant serves its Ingresses and its routes alike). `x.a.b` and `*.a.b` overlap, so do `*.a.b` and
 * `*.x.a.b` (`y.x.a.b` matches both); `a.b` and `*.a.b` do not (a wildcard never matches its base).
 */
export function overlap(p: string, q: string): boolean {
  return gatewayWithin(p, q) || gatewayWithin(q, p);
}
