// cwnd and ssthresh over time for every flow, the congestion state as a strip under the plot,
// and for a single Reno or Hybla flow (IW 1, finite γ) the seed-001 window model as an overlay.

import { useId, useMemo, useState } from 'react';
import type { RunResult } from '../sim/results';
import { CC_STATES } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { windowModel } from './analytic';
import { ChartFrame } from './ChartFrame';
import { colorOf, flowNames, fmt, MODEL_COLOR, STATE_COLORS } from './palette';
import { TimeSeriesChart, type BaselineLines, type FnSeries, type LineSeries, type RibbonSpec } from './timeseries/TimeSeriesChart';
import type { BaselineRun } from './baselineRun';

/** Recovery entered, loss (RTO) entered, and the peak of cwnd, over a state and a cwnd column. */
export function cwndStats(t: ArrayLike<number>, cwnd: ArrayLike<number>, state: ArrayLike<number>) {
  let peak = -Infinity;
  let peakT = NaN;
  let recoveries = 0;
  let losses = 0;
  let prev = -1;
  for (let i = 0; i < t.length; i++) {
    if (cwnd[i] > peak) {
      peak = cwnd[i];
      peakT = t[i];
    }
    const s = state[i];
    if (s === 2 && prev !== 2) recoveries++;
    if (s === 3 && prev !== 3) losses++;
    prev = s;
  }
  return { peak, peakT, recoveries, losses };
}

/** The flows that trace an end-to-end window (INTCP's consumer has none). */
const windowFlows = (result: RunResult) => (result.traces?.flows ?? []).filter((f) => f.sender.cols.cwnd && f.sender.cols.state);

/** A baseline and this run whose peak windows differ this many times are drawn on a log axis. */
const AUTO_LOG_SPREAD = 10;

export function CwndChart({ result, scenario, xDomain, name, baseline }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string; baseline?: BaselineRun | null }) {
  // INTCP's consumer has no end-to-end window: only flows that trace one are drawn here.
  const flows = useMemo(() => windowFlows(result), [result]);
  const summaries = result.summary.flows;
  const model = useMemo(() => (summaries.length === 1 ? windowModel(scenario) : null), [scenario, summaries.length]);
  const [showModel, setShowModel] = useState(true);
  // Null until the reader chooses: then log when a baseline and this run differ tenfold.
  const [logChoice, setLogY] = useState<boolean | null>(null);
  const logId = useId();

  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo<LineSeries[]>(
    () =>
      flows.flatMap((f) => {
        const n = nameOf(f.id);
        const c = colorOf(f.id);
        return [
          { key: `cwnd-${f.id}`, label: `${n} cwnd`, color: c, x: f.sender.t, y: f.sender.cols.cwnd, step: true, width: 1.6, unit: 'packets' },
          { key: `ssthresh-${f.id}`, label: `${n} ssthresh`, color: c, x: f.sender.t, y: f.sender.cols.ssthresh, step: true, width: 1, dash: '5 3', unit: 'packets', testid: 'series-ssthresh' },
        ];
      }),
    [flows, nameOf],
  );
  // The baseline's cwnd only: its ssthresh too would be a third dash pattern per flow.
  const base = useMemo<BaselineLines | undefined>(() => {
    if (!baseline) return undefined;
    const names = flowNames(baseline.result.summary.flows);
    const series = windowFlows(baseline.result).map((f): LineSeries => ({ key: `cwnd-${f.id}`, label: `${names(f.id)} cwnd`, color: colorOf(f.id), x: f.sender.t, y: f.sender.cols.cwnd, step: true, width: 1.6, unit: 'packets' }));
    return { label: baseline.label, series };
  }, [baseline]);

  // A baseline and this run whose windows differ tenfold (Hybla's 65 535 packets against CUBIC's
  // 111) would flatten one of them on a linear axis: a log axis keeps both readable.
  const spread = useMemo(() => {
    if (!base) return 1;
    const peak = (ss: LineSeries[]) => Math.max(1, ...ss.flatMap((s) => Array.from(s.y).filter((v): v is number => typeof v === 'number' && Number.isFinite(v))));
    const mine = peak(series.filter((s) => s.key.startsWith('cwnd-')));
    const theirs = peak(base.series);
    return Math.max(mine / theirs, theirs / mine);
  }, [series, base]);
  const logY = logChoice ?? spread >= AUTO_LOG_SPREAD;

  const fns = useMemo<FnSeries[]>(
    () => (model && showModel ? [{ key: 'model', label: model.label, color: MODEL_COLOR, fn: model.at, dash: '7 4', unit: 'packets' }] : []),
    [model, showModel],
  );

  const ribbons = useMemo<RibbonSpec>(
    () => ({
      rows: flows.map((f) => {
        const s = summaries.find((x) => x.id === f.id);
        return {
          key: `state-${f.id}`,
          label: flows.length === 1 ? 'state' : s?.label ? s.label.slice(0, 9) : `flow ${f.id}`,
          name: nameOf(f.id),
          x: f.sender.t,
          v: f.sender.cols.state,
          end: xDomain[1],
        };
      }),
      names: CC_STATES,
      colors: STATE_COLORS,
      // loss > recovery > slow start > congestion avoidance
      priority: [1, 0, 2, 3],
    }),
    [flows, summaries, nameOf, xDomain],
  );

  const stats = useMemo(() => flows.map((f) => ({ id: f.id, ...cwndStats(f.sender.t, f.sender.cols.cwnd, f.sender.cols.state) })), [flows]);

  const summary = (
    <>
      {stats.map((s) => {
        const coding = summaries.find((x) => x.id === s.id)?.coding;
        return (
          <p key={s.id}>
            cwnd: {nameOf(s.id)} peaks at {fmt(s.peak)} packets at {fmt(s.peakT)} s; {s.recoveries} recovery episode{s.recoveries === 1 ? '' : 's'}, {s.losses} timeout
            {s.losses === 1 ? '' : 's'} (loss state)
            {coding ? `; network coded, ${fmt(coding.coded_overhead, 4)} packets sent per source packet delivered` : ''}.
          </p>
        );
      })}
      {model && (
        <p>
          {model.label} (the ISTN paper, t = 0 at {fmt(model.t0S)} s, RTT {fmt(model.rttS * 1000, 4)} ms): {fmt(model.at(model.tGammaS))} packets when it leaves slow start at {fmt(model.tGammaS, 4)} s and{' '}
          {fmt(model.at(xDomain[1]))} packets at {fmt(xDomain[1])} s.
        </p>
      )}
    </>
  );

  return (
    <ChartFrame
      testid="chart-cwnd"
      title="Congestion window"
      exportName={`${name}-cwnd`}
      wide
      summary={summary}
      controls={
        <>
          {model && (
            <label>
              <input type="checkbox" checked={showModel} onChange={(e) => setShowModel(e.target.checked)} data-testid="toggle-model" />
              Show the window model
            </label>
          )}
          <label htmlFor={logId}>
            <input id={logId} type="checkbox" checked={logY} onChange={(e) => setLogY(e.target.checked)} data-testid="cwnd-log" />
            log y
          </label>
          {logChoice === null && logY && (
            <span className="chart-note" data-testid="cwnd-log-note">
              log scale: the baseline's window and this run's differ {Math.round(spread)}-fold
            </span>
          )}
        </>
      }
    >
      {(width) => (
        <TimeSeriesChart
          title="congestion window"
          width={width}
          plotHeight={260}
          xLabel="time (s)"
          yLabel="window (packets)"
          xDomain={xDomain}
          series={series}
          fns={fns}
          ribbons={ribbons}
          yLog={logY}
          baseline={base}
        />
      )}
    </ChartFrame>
  );
}
