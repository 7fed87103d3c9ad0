// The distribution of one-way delay: the sorted delays at evenly spaced quantiles, i/(n − 1).
// Solid: at in-order delivery (what the application sees). Dashed, for TCP and INTCP: at first
// arrival, before reordering (what a packet sniffer sees, and how the INTCP paper timed INTCP).
// The paper's statements about the distribution are listed under it and marked on it.

import { useMemo } from 'react';
import type { FlowTraces, RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import type { LegendItem } from './Legend';
import { PaperClaims, claimMarks, claimXs, claimsFor } from './PaperClaims';
import { colorOf, flowNames, fmt, MODEL_COLOR } from './palette';
import { TimeSeriesChart, type LineSeries } from './timeseries/TimeSeriesChart';

/** The dash of the delays at first arrival (here and in the jitter chart). */
export const ARRIVAL_DASH = '6 3';

/** Legend entries that say what solid and dashed mean. */
export const ARRIVAL_LEGEND: LegendItem[] = [
  { label: 'in order', color: MODEL_COLOR },
  { label: 'at arrival', color: MODEL_COLOR, dash: ARRIVAL_DASH },
];

/** The delay at quantile q of a CDF column (sorted delays at quantiles i/(n − 1)). */
export function quantileOf(cdf: ArrayLike<number>, q: number): number {
  const n = cdf.length;
  if (n === 0) return NaN;
  return cdf[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))];
}

/** The fractions i/(n − 1) of a CDF column of n quantiles. */
function fractions(n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[i] = n > 1 ? i / (n - 1) : 1;
  return y;
}

/** One solid line per flow with delays (in order), and a dashed one in the same colour beside
 * it for each flow with arrival delays. */
export function cdfSeries(flows: FlowTraces[], nameOf: (id: number) => string): LineSeries[] {
  return flows.flatMap((f) => {
    const out: LineSeries[] = [];
    if (f.owdCdfMs.length) out.push({ key: `cdf-${f.id}`, label: nameOf(f.id), color: colorOf(f.id), x: f.owdCdfMs, y: fractions(f.owdCdfMs.length), width: 1.8 });
    const a = f.owdArrivalCdfMs;
    if (a?.length)
      out.push({
        key: `cdf-arrival-${f.id}`,
        label: `${nameOf(f.id)} at arrival`,
        color: colorOf(f.id),
        x: a,
        y: fractions(a.length),
        width: 1.8,
        dash: ARRIVAL_DASH,
        // The solid line names the flow; the legend's "at arrival" says what the dash means.
        noLegend: out.length > 0,
        testid: 'arrival',
      });
    return out;
  });
}

/** The x span of the columns and of the extra values, padded by 2 %. */
export function cdfDomain(cols: ArrayLike<number>[], extra: number[] = []): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of cols)
    if (c.length) {
      lo = Math.min(lo, c[0]);
      hi = Math.max(hi, c[c.length - 1]);
    }
  for (const v of extra)
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  if (!(hi >= lo)) return [0, 1];
  if (hi === lo) return [lo - 1, hi + 1];
  return [Math.max(0, lo - (hi - lo) * 0.02), hi + (hi - lo) * 0.02];
}

const describe = (c: Float64Array) =>
  `median ${fmt(quantileOf(c, 0.5), 4)} ms, 80th percentile ${fmt(quantileOf(c, 0.8), 4)} ms, 95th percentile ${fmt(quantileOf(c, 0.95), 4)} ms, maximum ${fmt(quantileOf(c, 1), 4)} ms`;

export function DelayCdfChart({ result, scenario, name }: { result: RunResult; scenario: Scenario | null; name: string }) {
  const flows = useMemo(() => (result.traces?.flows ?? []).filter((f) => f.owdCdfMs.length > 0 || (f.owdArrivalCdfMs?.length ?? 0) > 0), [result]);
  const nameOf = useMemo(() => flowNames(result.summary.flows), [result]);
  const series = useMemo(() => cdfSeries(flows, nameOf), [flows, nameOf]);
  const arrivals = series.some((s) => s.testid === 'arrival');
  const claims = useMemo(() => claimsFor(scenario, 'delay_cdf'), [scenario]);
  const marks = useMemo(() => claimMarks(claims, 'delay_cdf'), [claims]);
  // The preset's note on how the paper measured, once, where its claims are listed.
  const note = scenario?.paper?.claims?.length ? scenario.paper.note : null;

  const xDomain = useMemo<[number, number]>(
    () => cdfDomain(flows.flatMap((f) => (f.owdArrivalCdfMs ? [f.owdCdfMs, f.owdArrivalCdfMs] : [f.owdCdfMs])), claimXs(marks)),
    [flows, marks],
  );

  const summary = flows.length ? (
    <>
      {arrivals && <p>Solid lines are delays at in-order delivery (what the application sees); dashed lines, for TCP and INTCP, are delays at first arrival, before reordering (what a packet sniffer sees).</p>}
      {flows.map((f) => (
        <p key={f.id}>
          One-way delay distribution: {nameOf(f.id)}
          {f.owdCdfMs.length ? ` in order ${describe(f.owdCdfMs)}` : ''}
          {f.owdArrivalCdfMs?.length ? `; at arrival ${describe(f.owdArrivalCdfMs)}` : ''} ({f.owdCdfMs.length || (f.owdArrivalCdfMs?.length ?? 0)} quantiles).
        </p>
      ))}
    </>
  ) : (
    <p>No one-way delay samples: no data reached a receiver.</p>
  );

  return (
    <ChartFrame
      testid="chart-cdf"
      title="One-way delay CDF"
      exportName={`${name}-owd-cdf`}
      summary={summary}
      paper={<PaperClaims claims={claims} chart="delay_cdf" nameOf={nameOf} result={result} note={note} />}
    >
      {(width) => (
        <TimeSeriesChart
          title="one-way delay CDF"
          width={width}
          xLabel="one-way delay (ms)"
          yLabel="fraction of packets ≤ delay"
          xDomain={xDomain}
          series={series}
          xName="delay"
          xUnit="ms"
          paper={marks}
          legendExtra={arrivals ? ARRIVAL_LEGEND : undefined}
        />
      )}
    </ChartFrame>
  );
}
