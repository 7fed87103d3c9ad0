// Acknowledged data over time for every flow whose sender traces it (a time-sequence graph,
// as tcptrace draws one), its retransmissions marked on the line, and the packets in flight in
// a panel below: a stall after a loss, a window of copies, a window that never fills all show
// here. The summary gives each flow's longest stretch without a new acknowledgement.

import { useMemo } from 'react';
import type { RunResult } from '../sim/results';
import { ChartFrame } from './ChartFrame';
import { colorOf, flowNames, fmt } from './palette';
import { longestStall, riseInstants } from './sequence';
import { TimeSeriesChart, type LineSeries, type LowerPanel, type MarkerSeries } from './timeseries/TimeSeriesChart';

const MB = 1e-6;

/** The flows whose sender traces the bytes acknowledged (TCP, CTCP, ARQ; INTCP's consumer has none). */
export const sequenceFlows = (result: RunResult) => (result.traces?.flows ?? []).filter((f) => f.sender.cols.acked_bytes);

export function SequenceChart({ result, xDomain, name }: { result: RunResult; xDomain: [number, number]; name: string }) {
  const flows = useMemo(() => sequenceFlows(result), [result]);
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);

  const series = useMemo<LineSeries[]>(
    () =>
      flows.map((f) => ({
        key: `acked-${f.id}`,
        label: `${nameOf(f.id)} acknowledged`,
        color: colorOf(f.id),
        x: f.sender.t,
        y: Array.from(f.sender.cols.acked_bytes, (v) => v * MB),
        step: true,
        width: 1.6,
        unit: 'MB',
        testid: 'series-acked',
      })),
    [flows, nameOf],
  );

  const markers = useMemo<MarkerSeries[]>(
    () =>
      flows
        .filter((f) => f.sender.cols.retransmissions)
        .map((f) => {
          const rises = riseInstants(f.sender.t, f.sender.cols.retransmissions, f.sender.cols.acked_bytes, MB);
          return { key: `rtx-${f.id}`, label: `${nameOf(f.id)} retransmissions`, color: colorOf(f.id), x: rises.x, y: rises.y, testid: 'retransmission-marks' };
        }),
    [flows, nameOf],
  );

  const lower = useMemo<LowerPanel>(
    () => ({
      yLabel: 'in flight (packets)',
      series: flows
        .filter((f) => f.sender.cols.inflight)
        .map((f) => ({ key: `inflight-${f.id}`, label: `${nameOf(f.id)} in flight`, color: colorOf(f.id), x: f.sender.t, y: f.sender.cols.inflight, step: true, width: 1, unit: 'packets', testid: 'series-inflight' })),
      height: 120,
    }),
    [flows, nameOf],
  );

  const summary = (
    <>
      {flows.map((f) => {
        const acked = f.sender.cols.acked_bytes;
        const total = acked.length ? acked[acked.length - 1] : 0;
        const stall = longestStall(f.sender.t, acked, xDomain[1]);
        const s = summaries.find((x) => x.id === f.id);
        return (
          <p key={f.id} data-testid="sequence-summary">
            Sequence: {nameOf(f.id)} had {fmt(total * MB, 4)} MB acknowledged and sent {(s?.retransmissions ?? 0).toLocaleString('en')} retransmissions
            {stall ? `; the longest stretch without a new acknowledgement was ${fmt(stall.seconds, 3)} s, from ${fmt(stall.start, 4)} to ${fmt(stall.end, 4)} s` : ''}.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame testid="chart-sequence" title="Acknowledged data and retransmissions" exportName={`${name}-sequence`} summary={summary}>
      {(width) => (
        <TimeSeriesChart title="acknowledged data" width={width} xLabel="time (s)" yLabel="acknowledged (MB)" xDomain={xDomain} series={series} markers={markers} lower={lower} />
      )}
    </ChartFrame>
  );
}
