import { describe, expect, it } from 'vitest';
import { defaultXPath, mathisMbps, metricStats, missingPoints, seriesBy, shortPath, SWEEP_METRICS, valueLabel } from './sweep';
import type { SweepRow } from './client';
import type { SweepPointStats } from './protocol';
import type { RunSummary } from './results';

function row(cc: string, p: number, run: number, goodput: number): SweepRow {
  const summary = {
    name: 's', seed: String(run + 1), core_version: '0.1.0', scenario_hash: 'fnv1a64:0123456789abcdef', end_s: 10,
    events: 1, fairness_jain: 1, links: [], unrouted_pkts: 0,
    flows: [{ id: 0, transport: 'tcp', cc, bytes: 1000, delivered_bytes: 1000, completed: true, completion_s: 1.5,
      goodput_mbps: goodput, retransmissions: 0, timeouts: 0, owd_ms: { mean: 1, p5: 1, p95: 1 }, jitter_ms: 0 }],
  } satisfies RunSummary;
  return { job: { point: [['flows[0].cc', cc], ['topology.links[1].loss.p', p]], run, seed: String(run + 1) }, summary };
}

/** The core's statistics of one flow at one grid point, as `sweep_stats` writes them: goodput's
 * and completion time's (whose runs may be fewer), the other metrics left out. */
function pointStats(cc: string, p: number, goodput: { runs: number; mean: number; std: number; ci95: number | null }, completionRuns = goodput.runs): SweepPointStats {
  return {
    point: [['flows[0].cc', cc], ['topology.links[1].loss.p', p]],
    flow: 0,
    cc,
    metrics: [
      { key: 'goodput_mbps', ...goodput },
      { key: 'completion_s', runs: completionRuns, mean: completionRuns ? 1.5 : null, std: completionRuns ? 0 : null, ci95: null },
    ],
  };
}

describe('sweep aggregation', () => {
  const rows = [row('reno', 0, 0, 8), row('reno', 0, 1, 10), row('reno', 0.1, 0, 1), row('reno', 0.1, 1, 3), row('cubic', 0, 0, 9), row('cubic', 0, 1, 9)];
  const stats = [
    pointStats('reno', 0, { runs: 2, mean: 9, std: Math.SQRT2, ci95: 12.7 }),
    pointStats('reno', 0.1, { runs: 2, mean: 2, std: Math.SQRT2, ci95: 12.7 }, 0),
    pointStats('cubic', 0, { runs: 2, mean: 9, std: 0, ci95: 0 }),
  ];

  it("picks the metric's statistics from the core's, NaN where it has none", () => {
    const goodput = metricStats(stats);
    expect(goodput).toHaveLength(3);
    expect(goodput[0]).toEqual({ point: { 'flows[0].cc': 'reno', 'topology.links[1].loss.p': 0 }, flow: 0, cc: 'reno', runs: 2, mean: 9, std: Math.SQRT2, ci95: 12.7 });
    const completion = metricStats(stats, SWEEP_METRICS.find((m) => m.key === 'completion_s'));
    expect(completion[0]).toMatchObject({ runs: 2, mean: 1.5, std: 0 });
    expect(Number.isNaN(completion[0].ci95)).toBe(true);
    expect(completion[1].runs).toBe(0);
    expect([completion[1].mean, completion[1].std].every(Number.isNaN)).toBe(true);
    // A metric the core did not send at all: no runs.
    const coding = metricStats(stats, SWEEP_METRICS.find((m) => m.key === 'coding_overhead'));
    expect(coding[2].runs).toBe(0);
    expect(Number.isNaN(coding[2].mean)).toBe(true);
  });

  it('puts the loss probability on the x axis and makes one series per variant', () => {
    const x = defaultXPath(rows)!;
    expect(x).toBe('topology.links[1].loss.p');
    const series = seriesBy(metricStats(stats), x);
    expect(series.map((s) => s.label)).toEqual(['cc reno', 'cc cubic']);
    expect(series[0].points.map((p) => p.x)).toEqual([0, 0.1]);
  });

  it("reads each of the core's metrics where its pointer says, a count left out as zero", () => {
    const { summary } = row('reno', 0, 0, 8);
    const flow = { ...summary.flows[0], owd_ms: { mean: 4, p5: 1, p95: 7 } };
    const values = Object.fromEntries(SWEEP_METRICS.map((m) => [m.key, m.get(flow, { ...summary, unrouted_pkts: undefined })]));
    expect(values).toMatchObject({ goodput_mbps: 8, completion_s: 1.5, owd_ms_mean: 4, owd_ms_p95: 7, unrouted_pkts: 0, fairness_jain: 1 });
    // Not reported by this flow: no arrival delay, no coding.
    expect([values.owd_arrival_ms_mean, values.coding_overhead]).toEqual([undefined, undefined]);
    expect(SWEEP_METRICS[0].key).toBe('goodput_mbps');
  });

  it('shortens paths for labels', () => {
    expect(shortPath('topology.links[1].loss.p')).toBe('loss.p');
    expect(shortPath('flows[0].cc')).toBe('cc');
  });

  it('labels a swept flow object by its transport and algorithm', () => {
    const s = pointStats('x', 0, { runs: 1, mean: 1, std: 0, ci95: null });
    s.point = [['flows[0]', { transport: 'ctcp', variant: 'v2', bytes: 1 }], ['topology.links[1].loss.p', 0]];
    const series = seriesBy(metricStats([s]), 'topology.links[1].loss.p');
    expect(series[0].label).toBe('ctcp v2');
    expect(valueLabel({ transport: 'tcp', cc: 'reno' })).toBe('tcp reno');
    expect(valueLabel(0.5)).toBe('0.5');
  });

  it('Mathis model matches docs/models.md §2 (MSS 1460, RTT 600 ms)', () => {
    expect(mathisMbps(1460, 0.6, 1e-4)).toBeCloseTo(2.38, 2);
    expect(mathisMbps(1460, 0.6, 1e-3)).toBeCloseTo(0.754, 2);
    expect(mathisMbps(1460, 0.6, 0)).toBe(Infinity);
  });
});

describe('missing points', () => {
  it('name each series with the x values where no run reported the metric', () => {
    const point = (x: number, runs: number) => ({ x, mean: runs ? 1 : NaN, std: 0, ci95: NaN, runs });
    const series = [
      { label: 'cc reno', cc: 'reno', points: [point(0.01, 2), point(0.2, 0), point(0.3, 0)] },
      { label: 'cc cubic', cc: 'cubic', points: [point(0.01, 2), point(0.2, 1)] },
    ];
    expect(missingPoints(series)).toEqual([{ label: 'cc reno', xs: [0.2, 0.3] }]);
  });
});
