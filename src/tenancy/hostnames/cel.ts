/**
 * The hostnames of a request as the admission policies read them, and the two matching rules of
 * patterns.ts written in CEL — the restriction (restrictions/hostnames.ts) and the allocation fence
 * (fences/hostnames.ts) read them alike. Expressions read the request variables `isIngress`,
 * `isGateway`, `isListenerSet` and `isRoute` (restrictions/cel.ts).
 */

/**
 * The hosts `o` (`object` or `oldObject`) names, '' standing for "none": a rule, listener or route
 * without one serves every host. Ingress: each rule's host, each TLS host, and '' for a defaultBackend
 * (every host not matched elsewhere). Gateway and ListenerSet: each listener's hostname, and '' for an
 * HTTP, HTTPS or TLS listener without one (other protocols do not route by host). Routes: their
 * hostnames, '' when they list none (they take every hostname of the listeners they attach to).
 */
export const hostsOf = (o: string) =>
  `(variables.isIngress ? ${o}.spec.?rules.orValue([]).map(r, r.?host.orValue('')) + ${o}.spec.?tls.orValue([]).map(t, t.?hosts.orValue([])).flatten() + ` +
  `(has(${o}.spec.defaultBackend) ? [''] : []) : ` +
  `variables.isGateway || variables.isListenerSet ? ${o}.spec.?listeners.orValue([]).filter(l, has(l.hostname) || l.protocol in ['HTTP', 'HTTPS', 'TLS']).map(l, l.?hostname.orValue('')) : ` +
  `variables.isRoute ? (size(${o}.spec.?hostnames.orValue([])) == 0 ? [''] : ${o}.spec.hostnames) : [])`;

/** Whether the request names hosts at all (an Ingress, a Gateway, a ListenerSet or a route). */
export const NAMES_HOSTS = 'variables.isIngress || variables.isGateway || variables.isListenerSet || variables.isRoute';

/** `h` (a host or wildcard) within pattern `p` as an ingress controller matches: a wildcard spans one label. */
export const ingressWithin = (h: string, p: string) =>
  `(${h} == ${p} || (${p}.startsWith('*.') && !${h}.startsWith('*.') && ${h}.endsWith(${p}.substring(1)) && !${h}.substring(0, size(${h}) - size(${p}) + 1).contains('.')))`;

/** The same as Gateway API matches: a wildcard spans any number of labels. */
export const gatewayWithin = (h: string, p: string) =>
  `(${h} == ${p} || (${p}.startsWith('*.') && (${h}.startsWith('*.') ? ${h}.substring(2) : ${h}).endsWith(${p}.substring(1))))`;
