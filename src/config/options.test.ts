import { OptionsError, parseDuration, parseOptions, usage } from './options';

const tls = ['--tls-cert-file=/tls/tls.crt', '--tls-private-key-file=/tls/tls.key'];

describe('parseOptions', () => {
  it('applies the documented defaults', () => {
    const o = parseOptions(tls, {})!;
    expect(o).toMatchObject({ mode: 'all', securePort: 8443, qps: 50, burst: 100, workers: 4, leaderElect: true,
      leaderElectionNamespace: 'paddock-system', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000,
      resyncPeriodMs: 600_000, logLevel: 'info' });
  });

  it('gives the API server\'s TokenReviews and SubjectAccessReviews their own rate limit and timeout', () => {
    expect(parseOptions(tls, {})).toMatchObject({ reviewQps: 200, reviewBurst: 400, reviewTimeoutMs: 10_000 });
    expect(parseOptions([...tls, '--review-qps=20', '--review-burst=30', '--review-timeout=2s'], {}))
      .toMatchObject({ qps: 50, burst: 100, reviewQps: 20, reviewBurst: 30, reviewTimeoutMs: 2000 });
    expect(() => parseOptions([...tls, '--review-qps=0'], {})).toThrow(/--review-qps/);
  });

  it('lets a flag win over its environment variable', () => {
    expect(parseOptions([...tls, '--qps=7'], { PADDOCK_QPS: '9' })!.qps).toBe(7);
    expect(parseOptions(tls, { PADDOCK_QPS: '9' })!.qps).toBe(9);
  });

  it('returns undefined for --help', () => {
    expect(parseOptions(['--help'], {})).toBeUndefined();
    expect(usage()).toContain('--secure-port');
  });

  it.each([
    [['--mode=both'], /--mode/],
    [['--qps=0'], /--qps/],
    [['--workers=two'], /--workers/],
    [['--resync-period=10'], /--resync-period/],
    [['--resync-period=0s'], /--resync-period must be at least 1s/],
    [['--resync-period=999ms'], /--resync-period must be at least 1s/],
    [['--leader-elect=maybe'], /--leader-elect/],
    [['--no-such-flag'], /no-such-flag/],
    [['--lease-duration=5s', '--renew-deadline=10s'], /--renew-deadline/],
  ])('refuses %j, naming the flag', (argv, message) => {
    expect(() => parseOptions([...tls, ...argv], {})).toThrow(OptionsError);
    expect(() => parseOptions([...tls, ...argv], {})).toThrow(message);
  });

  it('lets additionalRoleBindings bind view unless told otherwise', () => {
    expect(parseOptions(tls, {})!.bindableClusterRoles).toEqual(['view']);
    expect(parseOptions([...tls, '--bindable-cluster-roles=view, edit,view,system:aggregate-to-view'], {})!.bindableClusterRoles).toEqual(['view', 'edit', 'system:aggregate-to-view']);
    expect(parseOptions(tls, { PADDOCK_BINDABLE_CLUSTER_ROLES: 'edit' })!.bindableClusterRoles).toEqual(['edit']);
    expect(parseOptions([...tls, '--bindable-cluster-roles='], {})!.bindableClusterRoles).toEqual([]);
    expect(() => parseOptions([...tls, '--bindable-cluster-roles=view,a/b'], {})).toThrow('--bindable-cluster-roles: "a/b" is not a ClusterRole name');
    expect(usage()).toContain('--bindable-cluster-roles');
  });

  it('requires a serving certificate unless it only reconciles', () => {
    expect(() => parseOptions([], {})).toThrow(/--tls-cert-file/);
    expect(parseOptions(['--mode=controller'], {})!.mode).toBe('controller');
  });
});

describe('parseDuration', () => {
  it.each([['500ms', 500], ['15s', 15_000], ['1.5m', 90_000], ['1h', 3_600_000]])('reads %s', (text, ms) => {
    expect(parseDuration('x', text)).toBe(ms);
  });
});

describe('HTTP deadlines', () => {
  const base = ['--tls-cert-file=c', '--tls-private-key-file=k'];
  it('defaults to kube-apiserver\'s: 60s request, 32s headers, 90s idle; 30s for a body', () => {
    expect(parseOptions(base, {})).toMatchObject({ requestTimeoutMs: 60_000, requestBodyTimeoutMs: 30_000, headerTimeoutMs: 32_000, idleTimeoutMs: 90_000 });
  });
  it('reads them from flags and refuses nonsense', () => {
    expect(parseOptions([...base, '--request-timeout=5s', '--request-body-timeout=2s', '--header-timeout=1s', '--idle-timeout=3s'], {}))
      .toMatchObject({ requestTimeoutMs: 5000, requestBodyTimeoutMs: 2000, headerTimeoutMs: 1000, idleTimeoutMs: 3000 });
    expect(() => parseOptions([...base, '--request-timeout=10ms'], {})).toThrow('--request-timeout must be at least 100ms');
    expect(() => parseOptions([...base, '--request-timeout=1s', '--header-timeout=2s'], {})).toThrow('--header-timeout must not be longer');
    expect(usage()).toContain('--request-body-timeout');
  });
});
