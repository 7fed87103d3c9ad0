// Goodput over time per flow (bins of trace.goodput_interval_s), with the paper's goodput per
// flow as reference lines where the preset carries it.

import { useMemo } from 'react';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { PaperClaims, claimMarks, claimsFor } from './PaperClaims';
import { colorOf, flowName, flowNames, fmt } from './palette';
import { TimeSeriesChart, type BaselineLines, type LineSeries, type RefLine } from './timeseries/TimeSeriesChart';
import type { BaselineRun } from './baselineRun';

/** Each flow's binned goodput as a step line. */
function goodputSeries(result: RunResult, scenario: Scenario | null, nameOf: (id: number) => string): LineSeries[] {
  return (result.traces?.flows ?? []).map((f) => {
    const t = f.goodput.t;
    const bin = scenario?.trace?.goodput_interval_s ?? (t.length > 1 ? t[1] - t[0] : 1);
    return {
      key: `goodput-${f.id}`,
      label: nameOf(f.id),
      color: colorOf(f.id),
      x: t,
      y: f.goodput.cols.mbps,
      step: true,
      extendTo: t.length ? t[t.length - 1] + bin : undefined,
      unit: 'Mbit/s',
    };
  });
}

const baselineNames = (b: BaselineRun) => flowNames(b.result.summary.flows);

export function GoodputChart({ result, scenario, xDomain, name, baseline }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string; baseline?: BaselineRun | null }) {
  const flows = useMemo(() => result.traces?.flows ?? [], [result]);
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo<LineSeries[]>(() => goodputSeries(result, scenario, nameOf), [result, nameOf, scenario]);
  const base = useMemo<BaselineLines | undefined>(
    () => (baseline ? { label: baseline.label, series: goodputSeries(baseline.result, baseline.scenario, baselineNames(baseline)) } : undefined),
    [baseline],
  );

  const paper = useMemo(() => scenario?.paper?.goodput_mbps ?? [], [scenario]);
  const refs = useMemo<RefLine[]>(
    () =>
      summaries.flatMap((f) => {
        const v = paper[f.id];
        return typeof v === 'number' ? [{ key: `paper-${f.id}`, label: `paper: ${flowName(f)} ${fmt(v)} Mbit/s`, y: v, color: colorOf(f.id), dash: '2 3' }] : [];
      }),
    [summaries, paper],
  );

  const claims = useMemo(() => claimsFor(scenario, 'goodput'), [scenario]);
  const marks = useMemo(() => claimMarks(claims, 'goodput'), [claims]);

  const peaks = useMemo(
    () =>
      flows.map((f) => {
        let peak = -Infinity;
        let at = NaN;
        const y = f.goodput.cols.mbps;
        for (let i = 0; i < y.length; i++) if (y[i] > peak) {
          peak = y[i];
          at = f.goodput.t[i];
        }
        return { id: f.id, peak, at };
      }),
    [flows],
  );

  const summary = (
    <>
      {summaries.map((f) => {
        const p = peaks.find((q) => q.id === f.id);
        return (
          <p key={f.id}>
            Goodput: {flowName(f)} averages {fmt(f.goodput_mbps)} Mbit/s over the run
            {p && Number.isFinite(p.peak) ? `, peak bin ${fmt(p.peak)} Mbit/s at ${fmt(p.at)} s` : ''}
            {typeof paper[f.id] === 'number' ? `; the paper gives ${fmt(paper[f.id] as number)} Mbit/s` : ''}.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame testid="chart-goodput" title="Goodput" exportName={`${name}-goodput`} summary={summary} paper={<PaperClaims claims={claims} chart="goodput" nameOf={nameOf} result={result} />}>
      {(width) => <TimeSeriesChart title="goodput" width={width} xLabel="time (s)" yLabel="goodput (Mbit/s)" xDomain={xDomain} series={series} refs={refs} paper={marks} baseline={base} />}
    </ChartFrame>
  );
}
