// Jitter over time per flow, as the INTCP paper defines it: the change of the mean one-way delay
// from one second to the next. The core gives one point per pair of consecutive seconds that both
// delivered data (at the later second); a second without deliveries breaks the line. A dashed
// line per flow marks its mean over the run (the summary's jitter).

import { useMemo } from 'react';
import type { RunResult } from '../sim/results';
import { ChartFrame } from './ChartFrame';
import { colorOf, flowName, flowNames, fmt } from './palette';
import { TimeSeriesChart, type LineSeries, type RefLine } from './TimeSeriesChart';

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

/** Dashed means only while they stay readable: one per flow up to this many flows. */
const MAX_MEAN_LINES = 4;

export function JitterChart({ result, xDomain, name }: { result: RunResult; xDomain: [number, number]; name: string }) {
  const flows = useMemo(() => result.traces?.flows ?? [], [result]);
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo<LineSeries[]>(
    () =>
      flows.map((f) => {
        const { x, y } = withGaps(f.jitter.t, f.jitter.cols.jitter_ms ?? new Float64Array(0));
        return { key: `jitter-${f.id}`, label: nameOf(f.id), color: colorOf(f.id), x, y, unit: 'ms' };
      }),
    [flows, nameOf],
  );

  const refs = useMemo<RefLine[]>(
    () =>
      summaries.length > MAX_MEAN_LINES
        ? []
        : summaries.filter((f) => f.jitter_ms > 0).map((f) => ({ key: `mean-${f.id}`, label: `mean ${flowName(f)} ${fmt(f.jitter_ms)} ms`, y: f.jitter_ms, color: colorOf(f.id), dash: '2 3' })),
    [summaries],
  );

  const summary = (
    <>
      <p>Jitter is the change of the mean one-way delay from one second to the next (the INTCP paper's definition); lower is steadier.</p>
      {summaries.map((f) => {
        const points = flows.find((t) => t.id === f.id)?.jitter.t.length ?? 0;
        return (
          <p key={f.id}>
            {flowName(f)}: mean jitter {fmt(f.jitter_ms)} ms over {points} pairs of consecutive seconds{points === 0 ? ' (too few seconds with deliveries)' : ''}.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame testid="chart-jitter" title="Jitter" exportName={`${name}-jitter`} summary={summary}>
      {(width) => <TimeSeriesChart title="jitter" width={width} xLabel="time (s)" yLabel="jitter (ms)" xDomain={xDomain} series={series} refs={refs} />}
    </ChartFrame>
  );
}
