import { describe, expect, it } from 'vitest';
import { compareSummaries, difference, flowTitle, formatValue, signed } from './compare';
import type { FlowSummary, RunSummary } from '../sim/results';

const flow = (id: number, over: Partial<FlowSummary> = {}): FlowSummary =>
  ({
    id,
    transport: 'tcp',
    cc: 'cubic',
    bytes: 1000,
    delivered_bytes: 1000,
    completed: true,
    completion_s: 2,
    goodput_mbps: 10,
    retransmissions: 4,
    timeouts: 0,
    owd_ms: { mean: 300, p5: 280, p95: 350 },
    jitter_ms: 1.5,
    ...over,
  }) as FlowSummary;

const run = (flows: FlowSummary[], fairness_jain = 1): RunSummary => ({ name: 'r', seed: '1', core_version: '0.1.0', scenario_hash: 'fnv1a64:0123456789abcdef', end_s: 10, events: 100, flows, fairness_jain, links: [], unrouted_pkts: 0 }) as RunSummary;

describe('difference', () => {
  it('is signed, this run minus the baseline, and relative to the baseline in percent', () => {
    expect(difference(10, 7.5)).toEqual({ abs: -2.5, pct: -25 });
    expect(difference(4, 6)).toEqual({ abs: 2, pct: 50 });
    expect(difference(-2, -1)).toEqual({ abs: 1, pct: 50 });
  });

  it('has no percentage against a zero baseline, and nothing where a value is missing', () => {
    expect(difference(0, 3)).toEqual({ abs: 3, pct: null });
    expect(difference(null, 3)).toEqual({ abs: null, pct: null });
    expect(difference(3, undefined)).toEqual({ abs: null, pct: null });
    expect(difference(NaN, 3)).toEqual({ abs: null, pct: null });
  });
});

describe('compareSummaries', () => {
  it('aligns the flows by id and takes each side from its own summary', () => {
    const base = run([flow(0, { goodput_mbps: 8 }), flow(1, { goodput_mbps: 2, label: 'Reno' })], 0.8);
    const cur = run([flow(1, { goodput_mbps: 3, label: 'Reno' }), flow(0, { goodput_mbps: 6 })], 0.9);
    const rows = compareSummaries(base, cur);
    const goodput = rows.filter((r) => r.metric === 'goodput');
    expect(goodput.map((r) => [r.flow, r.baseline, r.current])).toEqual([
      ['flow 0 cubic', 8, 6],
      ['Reno', 2, 3],
    ]);
    expect(goodput[0].diff).toEqual({ abs: -2, pct: -25 });
    const jain = rows[rows.length - 1];
    expect(jain.metric).toBe("Jain's fairness index");
    expect(jain.baseline).toBe(0.8);
    expect(jain.current).toBe(0.9);
    expect(jain.diff.abs).toBeCloseTo(0.1, 12);
  });

  it('leaves out the fairness index for flows that each ran alone', () => {
    const rows = compareSummaries(run([flow(0), flow(1)]), run([flow(0), flow(1)]), false);
    expect(rows.some((r) => r.key === 'fairness')).toBe(false);
    expect(compareSummaries(run([flow(0), flow(1)]), run([flow(0), flow(1)])).some((r) => r.key === 'fairness')).toBe(true);
  });

  it('leaves out the fairness index for single-flow runs', () => {
    const rows = compareSummaries(run([flow(0)]), run([flow(0)]));
    expect(rows.some((r) => r.metric.includes('fairness'))).toBe(false);
    expect(rows.map((r) => r.metric)).toContain('one-way delay mean');
    expect(rows.find((r) => r.metric === 'one-way delay mean')?.current).toBe(300);
  });

  it('gives a flow only one run has no value on the other side', () => {
    const rows = compareSummaries(run([flow(0)]), run([flow(0), flow(2)]));
    const extra = rows.filter((r) => r.flow === 'flow 2 cubic');
    expect(extra.length).toBeGreaterThan(0);
    for (const r of extra) {
      expect(r.baseline).toBeNull();
      expect(r.diff).toEqual({ abs: null, pct: null });
    }
  });

  it('has no completion time for an incomplete transfer', () => {
    const rows = compareSummaries(run([flow(0)]), run([flow(0, { completed: false, completion_s: null })]));
    const c = rows.find((r) => r.metric === 'completion');
    expect(c?.baseline).toBe(2);
    expect(c?.current).toBeNull();
  });
});

describe('flowTitle', () => {
  it("names a flow whose congestion control changed by both, never the baseline's by this run's", () => {
    expect(flowTitle({ id: 0, cc: 'cubic', label: null }, { id: 0, cc: 'hybla', label: null }, 0)).toBe('flow 0 cubic → hybla');
    expect(flowTitle({ id: 0, cc: 'cubic', label: null }, { id: 0, cc: 'cubic', label: null }, 0)).toBe('flow 0 cubic');
    expect(flowTitle({ id: 1, cc: 'reno', label: 'Reno' }, { id: 1, cc: 'reno', label: 'Reno' }, 1)).toBe('Reno');
    expect(flowTitle(undefined, { id: 2, cc: 'bbr', label: null }, 2)).toBe('flow 2 bbr');
  });
});

describe('signed', () => {
  it('writes a plus or a minus sign before the magnitude', () => {
    const t = (x: number) => x.toFixed(1);
    expect(signed(1.25, t)).toBe('+1.3');
    expect(signed(-0.5, t)).toBe('−0.5');
    expect(signed(0, t)).toBe('0.0');
  });
});

describe('formatValue', () => {
  it('writes a value as the summary table does', () => {
    expect(formatValue(9.87654, 3)).toBe('9.877');
    expect(formatValue(1234567, 0)).toBe('1,234,567');
    expect(formatValue(null, 3)).toBe('–');
  });
});
