import type { ResourceQuota } from '../../kube/types';
import { AdmissionActivity, QUIET_MS } from './admission-activity';

const share = (namespace: string, used: Record<string, string>): ResourceQuota =>
  ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'paddock-tenant-quota', namespace }, spec: { hard: { pods: '10' } }, status: { hard: { pods: '10' }, used } }) as ResourceQuota;

describe('AdmissionActivity', () => {
  let now = 1_000_000;
  const activity = () => new AdmissionActivity(() => now);

  it('marks a share busy for QUIET_MS after its use went up (an admission counted), then quiet', () => {
    const a = activity();
    a.observe(share('t-a', { pods: '2' }), share('t-a', { pods: '3' }));
    expect(a.busyFor('t-a')).toBe(QUIET_MS);
    now += QUIET_MS - 1;
    expect(a.busyFor('t-a')).toBe(1);
    now += 1;
    expect(a.busyFor('t-a')).toBe(0);
    expect(a.busyFor('t-b')).toBe(0);
  });

  it('counts a resource the share had no use of yet, in any unit, as an admission', () => {
    const a = activity();
    a.observe(share('t-a', { pods: '1' }), share('t-a', { pods: '1', 'requests.cpu': '100m' }));
    expect(a.busyFor('t-a')).toBeGreaterThan(0);
    const b = activity();
    b.observe(share('t-b', { 'requests.cpu': '1' }), share('t-b', { 'requests.cpu': '1100m' }));
    expect(b.busyFor('t-b')).toBeGreaterThan(0);
  });

  it('leaves a share quiet when its use went down or did not move (a delete recounted, a spec written)', () => {
    const a = activity();
    a.observe(share('t-a', { pods: '3' }), share('t-a', { pods: '2' }));
    a.observe(share('t-a', { pods: '2' }), share('t-a', { pods: '2' }));
    a.observe(undefined, share('t-b', {}));
    expect(a.busyFor('t-a')).toBe(0);
    expect(a.busyFor('t-b')).toBe(0);
  });

  it('forgets a share that is gone', () => {
    const a = activity();
    a.observe(share('t-a', { pods: '0' }), share('t-a', { pods: '1' }));
    a.forget('t-a');
    expect(a.busyFor('t-a')).toBe(0);
  });
});
