// Round-trip time samples (at the sender) and one-way delay (at the receiver) over time.

import { useMemo } from 'react';
import type { FlowTraces, RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { PaperClaims, claimMarks, claimsFor } from './PaperClaims';
import { colorOf, flowNames, fmt } from './palette';
import { TimeSeriesChart, type BaselineLines, type LineSeries } from './timeseries/TimeSeriesChart';
import type { BaselineRun } from './baselineRun';

function minMedianMax(v: ArrayLike<number>) {
  const xs = Array.from(v).filter(Number.isFinite).sort((a, b) => a - b);
  if (!xs.length) return null;
  return { min: xs[0], median: xs[Math.floor((xs.length - 1) / 2)], max: xs[xs.length - 1] };
}

/** The RTT samples a flow traces, or its smoothed RTT (INTCP's consumer traces only that). */
function rttColumn(f: FlowTraces): { label: string; values: Float64Array } | null {
  if (f.sender.cols.rtt_ms) return { label: 'RTT', values: f.sender.cols.rtt_ms };
  if (f.sender.cols.srtt_ms) return { label: 'smoothed RTT', values: f.sender.cols.srtt_ms };
  return null;
}

/** Each flow's RTT line (when it traces one) and its one-way delay. */
function delaySeries(flows: FlowTraces[], nameOf: (id: number) => string): LineSeries[] {
  return flows.flatMap((f) => {
    const rtt = rttColumn(f);
    return [
      ...(rtt ? [{ key: `rtt-${f.id}`, label: `${nameOf(f.id)} ${rtt.label}`, color: colorOf(f.id), x: f.sender.t, y: rtt.values, width: 1.8, unit: 'ms' }] : []),
      { key: `owd-${f.id}`, label: `${nameOf(f.id)} one-way delay`, color: colorOf(f.id), x: f.owd.t, y: f.owd.cols.owd_ms, width: 1, opacity: 0.5, unit: 'ms' },
    ];
  });
}

export function DelayChart({ result, scenario, xDomain, name, baseline }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string; baseline?: BaselineRun | null }) {
  const flows = useMemo(() => result.traces?.flows ?? [], [result]);
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo<LineSeries[]>(() => delaySeries(flows, nameOf), [flows, nameOf]);
  const base = useMemo<BaselineLines | undefined>(
    () => (baseline ? { label: baseline.label, series: delaySeries(baseline.result.traces?.flows ?? [], flowNames(baseline.result.summary.flows)) } : undefined),
    [baseline],
  );

  const claims = useMemo(() => claimsFor(scenario, 'delay'), [scenario]);
  const marks = useMemo(() => claimMarks(claims, 'delay'), [claims]);

  const rtts = useMemo(() => flows.map((f) => ({ id: f.id, rtt: minMedianMax(rttColumn(f)?.values ?? new Float64Array()) })), [flows]);

  const summary = (
    <>
      {summaries.map((f) => {
        const r = rtts.find((x) => x.id === f.id)?.rtt;
        return (
          <p key={f.id}>
            Delay: {nameOf(f.id)}
            {r ? ` RTT samples from ${fmt(r.min, 4)} to ${fmt(r.max, 4)} ms (median ${fmt(r.median, 4)} ms);` : ''} one-way delay mean {fmt(f.owd_ms.mean, 4)} ms, 5th percentile{' '}
            {fmt(f.owd_ms.p5, 4)} ms, 95th percentile {fmt(f.owd_ms.p95, 4)} ms
            {f.owd_arrival_ms
              ? ` (at first arrival, before reordering: mean ${fmt(f.owd_arrival_ms.mean, 4)} ms, 5th percentile ${fmt(f.owd_arrival_ms.p5, 4)} ms, 95th percentile ${fmt(f.owd_arrival_ms.p95, 4)} ms)`
              : ''}
            , jitter {fmt(f.jitter_ms)} ms.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame
      testid="chart-delay"
      title="Round-trip time and one-way delay"
      exportName={`${name}-delay`}
      summary={summary}
      paper={<PaperClaims claims={claims} chart="delay" nameOf={nameOf} result={result} />}
    >
      {(width) => <TimeSeriesChart title="delay" width={width} xLabel="time (s)" yLabel="delay (ms)" xDomain={xDomain} series={series} paper={marks} baseline={base} />}
    </ChartFrame>
  );
}
