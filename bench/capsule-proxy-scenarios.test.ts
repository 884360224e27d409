import { ceilingsText, ownerListRatios } from './capsule-proxy-scenarios';
import { AGGREGATED_FLOOR_TARGET, type ListResult } from './list';

/** A list result whose targets took these p50 / p99 ms. */
function result(latencies: Record<string, [number, number]>): ListResult {
  return { targets: Object.entries(latencies).map(([target, [p50, p99]]) => ({ target, latency: { p50, p99 } })) } as never;
}

const measured = {
  'capsule-proxy namespaces, Table': [120, 360],
  'capsule-proxy namespaces, JSON': [100, 300],
  'Paddock via kube-apiserver, Table': [2.4, 36],
  'Paddock via kube-apiserver, JSON': [2, 30],
  'kube-apiserver /version (floor of any request through it)': [1.2, 15],
} satisfies Record<string, [number, number]>;

describe('ownerListRatios', () => {
  it('reads capsule-proxy against Paddock and against both floors of the same rounds', () => {
    const r = ownerListRatios(result({ ...measured, [AGGREGATED_FLOOR_TARGET]: [2, 24] }));
    expect(r).toEqual({
      ratioP50: 50, ratioP99: 10, ratioJsonP50: 50, ratioJsonP99: 10, ceilingP50: 100, ceilingP99: 24,
      aggregatedCeilingP50: 60, aggregatedCeilingP99: 15, overAggregatedFloorP50: 1.2, overAggregatedFloorP99: 1.5,
    });
  });

  it('leaves the aggregated ceiling out of a run that did not measure its floor', () => {
    expect(Object.keys(ownerListRatios(result(measured)))).not.toContain('aggregatedCeilingP50');
  });

  it('says both ceilings in words, and only the one a run measured', () => {
    expect(ceilingsText(ownerListRatios(result({ ...measured, [AGGREGATED_FLOOR_TARGET]: [2, 24] })))).toBe(
      "the ceiling, capsule-proxy ÷ kube-apiserver's /version: p50 100×, p99 24×; capsule-proxy ÷ the aggregated floor (a server behind kube-apiserver's aggregator " +
      "answering Paddock's bytes from memory): p50 60×, p99 15×, and Paddock through kube-apiserver ÷ that floor: p50 1.2×, p99 1.5×");
    expect(ceilingsText(ownerListRatios(result(measured)))).toBe("the ceiling, capsule-proxy ÷ kube-apiserver's /version: p50 100×, p99 24×");
  });
});
