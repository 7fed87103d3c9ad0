// Jitter over time per flow, as the INTCP paper defines it: the change of the mean one-way delay
// from one second to the next. The core gives one point per pair of consecutive seconds that both
// delivered data (at the later second); a second without deliveries breaks the line. Solid: the
// delays at in-order delivery; dashed (TCP and INTCP): the delays at first arrival, before
// reordering, as the paper's packet sniffers timed INTCP. A dotted line per flow marks its mean
// over the run (the summary's jitter); the paper's statements are listed under the chart.

import { useMemo } from 'react';
import type { FlowTraces, RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { ARRIVAL_DASH, ARRIVAL_LEGEND } from './DelayCdfChart';
import { PaperClaims, claimMarks, claimsFor } from './PaperClaims';
import { colorOf, flowName, flowNames, fmt } from './palette';
import { TimeSeriesChart, type LineSeries, type RefLine } from './timeseries/TimeSeriesChart';

/** The jitter points with a NaN (a gap in the line) wherever a second is missing between two. */
export function withGaps(t: ArrayLike<number>, v: ArrayLike<number>): { x: Float64Array; y: Float64Array } {
  const n = Math.min(t.length, v.length);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && t[i] - t[i - 1] > 1 + 1e-9) {
      xs.push((t[i] + t[i - 1]) / 2);
      ys.push(NaN);
    }
    xs.push(t[i]);
    ys.push(v[i]);
  }
  return { x: Float64Array.from(xs), y: Float64Array.from(ys) };
}

/** One solid line per flow (in order) and a dashed one beside it for arrival jitter. */
export function jitterSeries(flows: FlowTraces[], nameOf: (id: number) => string): LineSeries[] {
  return flows.flatMap((f) => {
    const { x, y } = withGaps(f.jitter.t, f.jitter.cols.jitter_ms ?? new Float64Array(0));
    const out: LineSeries[] = [{ key: `jitter-${f.id}`, label: nameOf(f.id), color: colorOf(f.id), x, y, unit: 'ms' }];
    const a = f.jitterArrival;
    if (a) {
      const g = withGaps(a.t, a.cols.jitter_ms ?? new Float64Array(0));
      out.push({ key: `jitter-arrival-${f.id}`, label: `${nameOf(f.id)} at arrival`, color: colorOf(f.id), x: g.x, y: g.y, unit: 'ms', dash: ARRIVAL_DASH, noLegend: true, testid: 'arrival' });
    }
    return out;
  });
}

/** The mean of the finite values of a column (NaN if none). */
function mean(v: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < v.length; i++)
    if (Number.isFinite(v[i])) {
      s += v[i];
      n++;
    }
  return n ? s / n : NaN;
}

/** Dotted means only while they stay readable: one per flow up to this many flows. */
const MAX_MEAN_LINES = 4;

export function JitterChart({ result, scenario, xDomain, name }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string }) {
  const flows = useMemo(() => result.traces?.flows ?? [], [result]);
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo(() => jitterSeries(flows, nameOf), [flows, nameOf]);
  const arrivals = flows.some((f) => f.jitterArrival);
  const claims = useMemo(() => claimsFor(scenario, 'jitter'), [scenario]);
  const marks = useMemo(() => claimMarks(claims, 'jitter'), [claims]);

  const refs = useMemo<RefLine[]>(
    () =>
      summaries.length > MAX_MEAN_LINES
        ? []
        : summaries.filter((f) => f.jitter_ms > 0).map((f) => ({ key: `mean-${f.id}`, label: `mean ${flowName(f)} ${fmt(f.jitter_ms)} ms`, y: f.jitter_ms, color: colorOf(f.id), dash: '2 3' })),
    [summaries],
  );

  const summary = (
    <>
      <p>
        Jitter is the change of the mean one-way delay from one second to the next (the INTCP paper's definition); lower is steadier.
        {arrivals ? ' Solid lines use the delays at in-order delivery; dashed lines, for TCP and INTCP, the delays at first arrival, before reordering.' : ''}
      </p>
      {summaries.map((f) => {
        const t = flows.find((x) => x.id === f.id);
        const points = t?.jitter.t.length ?? 0;
        const a = t?.jitterArrival;
        return (
          <p key={f.id}>
            {flowName(f)}: mean jitter {fmt(f.jitter_ms)} ms over {points} pairs of consecutive seconds{points === 0 ? ' (too few seconds with deliveries)' : ''}
            {a ? `; at arrival ${fmt(mean(a.cols.jitter_ms ?? []))} ms over ${a.t.length} pairs` : ''}.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame testid="chart-jitter" title="Jitter" exportName={`${name}-jitter`} summary={summary} paper={<PaperClaims claims={claims} chart="jitter" nameOf={nameOf} result={result} />}>
      {(width) => (
        <TimeSeriesChart
          title="jitter"
          width={width}
          xLabel="time (s)"
          yLabel="jitter (ms)"
          xDomain={xDomain}
          series={series}
          refs={refs}
          paper={marks}
          legendExtra={arrivals ? ARRIVAL_LEGEND : undefined}
        />
      )}
    </ChartFrame>
  );
}
