import type { LimitRange } from '../../kube/types';
import * as drift from '../drift';
import { defaultLimitRangeSpec } from './limit-range';
import { alsoAsCached, asStored, desiredNamed, tenantWith } from '../testing/guardrails';

const diff = alsoAsCached(drift.diff);

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

describe('LimitRange guardrails', () => {
  const tenant = tenantWith({ limitRanges: [{ limits: [{ type: 'Container', max: { cpu: 2 }, min: { memory: '64Mi' } }, { type: 'Pod', max: { memory: '4Gi' } }] }] });
  const want = desiredNamed<LimitRange>(tenant, 'paddock-limits-0');

  it('sees no drift in a LimitRange that kube-apiserver filled with Container defaults', () => {
    const live = asStored(want, (o) => {
      o.spec = {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } },
          { type: 'Pod', max: { memory: '4Gi' } },
        ],
      };
    });
    expect(diff(live, want)).toEqual([]);
  });

  it('reports a changed LimitRange default', () => {
    const live = asStored(want, (o) => {
      o.spec = { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '1' } }, { type: 'Pod', max: { memory: '4Gi' } }] };
    });
    expect(diff(live, want).map((d) => d.path)).toEqual(['spec.limits[0].default[cpu]', 'spec.limits[0].defaultRequest[cpu]']);
  });
});
