import { describe, expect, it } from 'vitest';
import type { FlowTraces } from '../sim/results';
import { ARRIVAL_DASH, cdfDomain, cdfSeries, quantileOf } from './DelayCdfChart';
import { colorOf } from './palette';

const empty = { t: new Float64Array(0), cols: {} };
const flow = (id: number, cdf: number[], arrival?: number[]): FlowTraces => ({
  id,
  sender: empty,
  owd: empty,
  goodput: empty,
  jitter: empty,
  owdCdfMs: Float64Array.from(cdf),
  ...(arrival ? { owdArrivalCdfMs: Float64Array.from(arrival) } : {}),
});
const nameOf = (id: number) => ['Reno', 'CTCP', 'INTCP'][id];

describe('cdfSeries', () => {
  it('draws the in-order CDF solid and the arrival CDF dashed beside it, in the flow colour', () => {
    const s = cdfSeries([flow(0, [100, 200, 300], [90, 150, 250]), flow(1, [120, 130]), flow(2, [140, 160, 400], [100, 120, 141])], nameOf);
    expect(s.map((x) => [x.key, x.label, x.dash ?? null, x.testid ?? 'series', x.noLegend ?? false])).toEqual([
      ['cdf-0', 'Reno', null, 'series', false],
      ['cdf-arrival-0', 'Reno at arrival', ARRIVAL_DASH, 'arrival', true],
      ['cdf-1', 'CTCP', null, 'series', false],
      ['cdf-2', 'INTCP', null, 'series', false],
      ['cdf-arrival-2', 'INTCP at arrival', ARRIVAL_DASH, 'arrival', true],
    ]);
    expect(s[1].color).toBe(colorOf(0));
    expect(s[4].color).toBe(colorOf(2));
    expect(Array.from(s[4].x)).toEqual([100, 120, 141]);
  });
  it('puts the quantiles at i/(n − 1)', () => {
    const [inOrder, arrival] = cdfSeries([flow(0, [1, 2, 3, 4, 5], [1, 2, 3])], nameOf);
    expect(Array.from(inOrder.y)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(Array.from(arrival.y)).toEqual([0, 0.5, 1]);
    expect(Array.from(cdfSeries([flow(0, [7])], nameOf)[0].y)).toEqual([1]);
  });
  it('names the flow on the arrival line when there is no in-order line', () => {
    const s = cdfSeries([flow(0, [], [1, 2])], nameOf);
    expect(s.map((x) => [x.label, x.noLegend])).toEqual([['Reno at arrival', false]]);
  });
});

describe('cdfDomain', () => {
  it('spans every column and the extra values (paper marks), padded by 2 %', () => {
    expect(cdfDomain([Float64Array.from([100, 200])], [300])).toEqual([96, 304]);
    expect(cdfDomain([Float64Array.from([100, 200]), Float64Array.from([50, 150])])).toEqual([47, 203]);
  });
  it('copes with no data and a single value', () => {
    expect(cdfDomain([])).toEqual([0, 1]);
    expect(cdfDomain([Float64Array.from([5, 5])])).toEqual([4, 6]);
  });
});

describe('quantileOf', () => {
  it('reads the 80th percentile of a CDF column', () => {
    expect(quantileOf(Float64Array.from([0, 10, 20, 30, 40, 50]), 0.8)).toBe(40);
    expect(quantileOf([], 0.5)).toBeNaN();
  });
});
