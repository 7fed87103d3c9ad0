// The distribution of one-way delay: the sorted delays at evenly spaced quantiles, i/(n − 1).

import { useMemo } from 'react';
import type { RunResult } from '../sim/results';
import { ChartFrame } from './ChartFrame';
import { colorOf, flowNames, fmt } from './palette';
import { TimeSeriesChart, type LineSeries } from './TimeSeriesChart';

/** The delay at quantile q of a CDF column (sorted delays at quantiles i/(n − 1)). */
export function quantileOf(cdf: ArrayLike<number>, q: number): number {
  const n = cdf.length;
  if (n === 0) return NaN;
  return cdf[Math.min(n - 1, Math.max(0, Math.round(q * (n - 1))))];
}

export function DelayCdfChart({ result, name }: { result: RunResult; name: string }) {
  const flows = useMemo(() => (result.traces?.flows ?? []).filter((f) => f.owdCdfMs.length > 0), [result]);
  const nameOf = useMemo(() => flowNames(result.summary.flows), [result]);

  const series = useMemo<LineSeries[]>(
    () =>
      flows.map((f) => {
        const n = f.owdCdfMs.length;
        const y = new Float64Array(n);
        for (let i = 0; i < n; i++) y[i] = n > 1 ? i / (n - 1) : 1;
        return { key: `cdf-${f.id}`, label: nameOf(f.id), color: colorOf(f.id), x: f.owdCdfMs, y, width: 1.8 };
      }),
    [flows, nameOf],
  );

  const xDomain = useMemo<[number, number]>(() => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const f of flows) {
      const c = f.owdCdfMs;
      if (c.length) {
        lo = Math.min(lo, c[0]);
        hi = Math.max(hi, c[c.length - 1]);
      }
    }
    if (!(hi >= lo)) return [0, 1];
    if (hi === lo) return [lo - 1, hi + 1];
    return [Math.max(0, lo - (hi - lo) * 0.02), hi + (hi - lo) * 0.02];
  }, [flows]);

  const summary = flows.length ? (
    <>
      {flows.map((f) => (
        <p key={f.id}>
          One-way delay distribution: {nameOf(f.id)} median {fmt(quantileOf(f.owdCdfMs, 0.5), 4)} ms, 95th percentile {fmt(quantileOf(f.owdCdfMs, 0.95), 4)} ms, maximum{' '}
          {fmt(quantileOf(f.owdCdfMs, 1), 4)} ms ({f.owdCdfMs.length} quantiles).
        </p>
      ))}
    </>
  ) : (
    <p>No one-way delay samples: no data reached a receiver.</p>
  );

  return (
    <ChartFrame testid="chart-cdf" title="One-way delay CDF" exportName={`${name}-owd-cdf`} summary={summary}>
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
        />
      )}
    </ChartFrame>
  );
}
