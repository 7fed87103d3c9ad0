import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types.gen';
import { claimMarks, claimsFor, claimXs } from './PaperClaims';

const scenario = {
  flows: [{}, {}, {}, {}, {}],
  paper: {
    source: 'INTCP paper',
    claims: [
      { chart: 'delay_cdf', flow: 0, text: "Reno's one-way delay reaches about 300 ms", x: 300, y: 0.95 },
      { chart: 'delay_cdf', flow: 4, text: "80 % of INTCP's one-way delay is below 180 ms", x: 180, y: 0.8 },
      { chart: 'jitter', flow: 4, text: "INTCP's jitter is almost always below 100 ms", y: 100 },
      { chart: 'goodput', flow: 4, text: "INTCP's throughput is clearly higher" },
      { chart: 'delay', text: 'a handover at 30 s', x: 30, y: null },
    ],
  },
} as unknown as Scenario;

describe('claimsFor', () => {
  it("keeps a chart's claims in order, numbered from 1 within the chart", () => {
    expect(claimsFor(scenario, 'delay_cdf').map((c) => [c.n, c.claim.x])).toEqual([
      [1, 300],
      [2, 180],
    ]);
    expect(claimsFor(scenario, 'jitter').map((c) => c.n)).toEqual([1]);
  });
  it('leaves out a claim about a flow the scenario no longer has', () => {
    const fewer = { ...scenario, flows: [{}] } as unknown as Scenario;
    expect(claimsFor(fewer, 'delay_cdf').map((c) => c.claim.x)).toEqual([300]);
    expect(claimsFor(fewer, 'jitter')).toEqual([]);
    expect(claimsFor(fewer, 'delay').map((c) => c.claim.x)).toEqual([30]);
  });
  it('is empty without a scenario, a paper or claims', () => {
    expect(claimsFor(null, 'delay_cdf')).toEqual([]);
    expect(claimsFor({} as Scenario, 'goodput')).toEqual([]);
    expect(claimsFor({ paper: { source: 'x' } } as Scenario, 'goodput')).toEqual([]);
  });
});

describe('claimMarks', () => {
  it('maps a claim with x and y to a point in the chart units', () => {
    const marks = claimMarks(claimsFor(scenario, 'delay_cdf'), 'delay_cdf');
    expect(marks).toEqual([
      { kind: 'point', key: 'claim-1', n: 1, label: 'paper 1: 300 ms, 0.95', x: 300, y: 0.95 },
      { kind: 'point', key: 'claim-2', n: 2, label: 'paper 2: 180 ms, 0.8', x: 180, y: 0.8 },
    ]);
  });
  it('maps only y to a horizontal line and only x to a vertical one', () => {
    expect(claimMarks(claimsFor(scenario, 'jitter'), 'jitter')).toEqual([{ kind: 'hline', key: 'claim-1', n: 1, label: 'paper 1: 100 ms', y: 100 }]);
    expect(claimMarks(claimsFor(scenario, 'delay'), 'delay')).toEqual([{ kind: 'vline', key: 'claim-1', n: 1, label: 'paper 1: 30 s', x: 30 }]);
  });
  it('draws nothing for a claim without a point, and keeps the numbers of the others', () => {
    expect(claimMarks(claimsFor(scenario, 'goodput'), 'goodput')).toEqual([]);
    const mixed = claimMarks(
      [
        { n: 1, claim: { chart: 'goodput', text: 'higher' } },
        { n: 2, claim: { chart: 'goodput', text: 'about 30 Mbit/s', y: 30 } },
      ],
      'goodput',
    );
    expect(mixed.map((m) => [m.n, m.kind, m.label])).toEqual([[2, 'hline', 'paper 2: 30 Mbit/s']]);
  });
  it('ignores coordinates that are not finite numbers', () => {
    expect(claimMarks([{ n: 1, claim: { chart: 'delay', text: 't', x: NaN, y: 5 } }], 'delay').map((m) => m.kind)).toEqual(['hline']);
  });
});

describe('claimXs', () => {
  it('gives the x of points and vertical lines, not of horizontal lines', () => {
    const marks = [...claimMarks(claimsFor(scenario, 'delay_cdf'), 'delay_cdf'), ...claimMarks(claimsFor(scenario, 'jitter'), 'jitter')];
    expect(claimXs(marks)).toEqual([300, 180]);
  });
});
