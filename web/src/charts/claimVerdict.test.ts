import { describe, expect, it } from 'vitest';
import { judgeClaim } from './claimVerdict';
import type { PaperClaim } from '../scenario/types.gen';
import type { FlowSummary, FlowTraces, RunResult } from '../sim/results';

const columns = (t: number[], name: string, v: number[]) => ({ t: Float64Array.from(t), cols: { [name]: Float64Array.from(v) } });

/** Two flows: a TCP one at 1 Mbit/s and an INTCP one at 3; the INTCP flow's delays spread
 * evenly from 100 to 200 ms (at arrival 90 to 190), its jitter 10 ms but for one second in four. */
function run(): RunResult {
  const cdf = Float64Array.from({ length: 101 }, (_, i) => 100 + i);
  const flow = (id: number, transport: string, goodput: number, mean: number) =>
    ({ id, transport, goodput_mbps: goodput, owd_ms: { mean, p5: 0, p95: 0 }, owd_arrival_ms: { mean: mean - 10, p5: 0, p95: 0 } }) as unknown as FlowSummary;
  const traces = (id: number): FlowTraces => ({
    id,
    sender: columns([], 'cwnd', []),
    owd: columns([], 'owd_ms', []),
    goodput: columns([0, 1, 2, 3], 'mbps', [2, 0, 0, 4]),
    jitter: columns([1, 2, 3, 4], 'jitter_ms', [10, 10, 10, 150]),
    jitterArrival: columns([1, 2, 3, 4], 'jitter_ms', [10, 10, 10, 10]),
    owdCdfMs: cdf,
    owdArrivalCdfMs: cdf.map((v) => v - 10),
  });
  return {
    summary: { flows: [flow(0, 'tcp', 1, 150), flow(1, 'intcp', 3, 150)] } as unknown as RunResult['summary'],
    traces: { flows: [traces(0), traces(1)], links: [] },
  };
}

const claim = (check: PaperClaim['check'], flow: number | null = 1): PaperClaim => ({ chart: 'delay_cdf', text: 't', flow, check });

describe('a claim judged against a run', () => {
  it('reads a delay quantile from the CDF, in order or at first arrival', () => {
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.8, at_most: 180 }), run())).toEqual({
      holds: true,
      measured: 180,
      words: 'measured 180 ms; the statement needs at most 180 ms',
    });
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.8, at_most: 175 }), run())?.holds).toBe(false);
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.8, at_most: 175, at_arrival: true }), run())?.measured).toBe(170);
  });

  it('holds an "about" within its tolerance only', () => {
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.95, about: 160, tolerance: 0.25 }), run())).toMatchObject({ holds: true, measured: 195 });
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.95, about: 150, tolerance: 0.25 }), run())?.holds).toBe(false);
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.95, about: 150, tolerance: 0.25 }), run())?.words).toBe(
      'measured 195 ms; the statement needs 150 ms ± 25 %',
    );
  });

  it('counts the share of jitter below a threshold, and compares goodput with the TCP flows only', () => {
    expect(judgeClaim(claim({ measure: 'jitter_share_below', threshold_ms: 100, at_least: 0.9 }), run())).toMatchObject({ holds: false, measured: 0.75 });
    expect(judgeClaim(claim({ measure: 'jitter_share_below', threshold_ms: 100, at_least: 0.9, at_arrival: true }), run())?.holds).toBe(true);
    expect(judgeClaim(claim({ measure: 'goodput_over_tcp', at_least: 1.2 }), run())).toMatchObject({ holds: true, measured: 3 });
    expect(judgeClaim(claim({ measure: 'owd_mean_over_propagation', at_least: 1.2 }), run())).toMatchObject({ holds: true, measured: 1.5 });
    // Over a moving path, the route's propagation averaged over its steps, not the least delay.
    const moving = { ...run(), path: { steps: { owd_ms: [50, null, 70] } } } as unknown as RunResult;
    expect(judgeClaim(claim({ measure: 'owd_mean_over_propagation', at_most: 1.1 }), moving)).toMatchObject({ holds: false, measured: 2.5 });
  });

  it("reads goodput at a time from the bin that holds it, summed over the flows when none is named", () => {
    expect(judgeClaim(claim({ measure: 'goodput_at_mbps', at_s: 1.5, at_most: 0.01 }, null), run())).toMatchObject({ holds: true, measured: 0 });
    expect(judgeClaim(claim({ measure: 'goodput_at_mbps', at_s: 3.2, at_most: 0.01 }, null), run())).toMatchObject({ holds: false, measured: 8 });
  });

  it('leaves a claim without a check, or about what the run lacks, unjudged', () => {
    expect(judgeClaim(claim(undefined), run())).toBeNull();
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.5, at_most: 1 }, 7), run())).toBeNull();
    expect(judgeClaim(claim({ measure: 'owd_quantile_ms', q: 0.5, at_most: 1 }), { summary: run().summary })).toBeNull();
  });
});
