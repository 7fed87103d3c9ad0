// Network coding of the CTCP flows (docs/ctcp.md): above, the decoder's rank of the current
// block over time, a sawtooth that climbs to the block size and drops at each decode event
// (the "decode events" of the CTCP paper's Fig. 4), with the decode events marked; below, the
// sender's loss estimate next to the true packet error rate of the bottleneck. The text gives
// the coded overhead, the non-innovative receptions and the decode latency.

import { useMemo } from 'react';
import type { FlowSummary, RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { colorOf, flowNames, fmt } from './palette';
import { TimeSeriesChart, type LineSeries, type LowerPanel, type MarkerSeries, type RefLine } from './timeseries/TimeSeriesChart';
import { chainLinks } from '../scenario/topology';

const PER_COLOR = '#b3261e';
/** The core's default block size (CtcpFlow.block_pkts). */
const DEFAULT_BLOCK = 32;

/** The true PER of the bottleneck (the data-direction link with the lowest rate) when its loss
 * is Bernoulli; null otherwise. */
export function bottleneckPer(scenario: Scenario | null): { link: number; p: number } | null {
  const links = chainLinks(scenario);
  if (!links.length) return null;
  let best = 0;
  for (let i = 1; i < links.length; i++) if (links[i].rate_mbps < links[best].rate_mbps) best = i;
  const loss = links[best].loss;
  return loss && loss.model === 'bernoulli' && Number.isFinite(loss.p) ? { link: best, p: loss.p } : null;
}

/** The block size of flow `id`: from the scenario, else the largest rank seen (at least the default). */
function blockSize(scenario: Scenario | null, id: number, rank: ArrayLike<number>): number {
  const f = scenario?.flows[id];
  if (f && f.transport === 'ctcp') return f.block_pkts ?? DEFAULT_BLOCK;
  let max = 0;
  for (let i = 0; i < rank.length; i++) if (rank[i] > max) max = rank[i];
  return Math.max(DEFAULT_BLOCK, max);
}

/** Time-weighted mean of a step column from its first point to `end`. */
export function stepMean(t: ArrayLike<number>, v: ArrayLike<number>, end: number): number {
  let area = 0;
  let span = 0;
  for (let i = 0; i < t.length; i++) {
    const next = i + 1 < t.length ? t[i + 1] : end;
    const dt = next - t[i];
    if (dt > 0 && Number.isFinite(v[i])) {
      area += v[i] * dt;
      span += dt;
    }
  }
  return span > 0 ? area / span : NaN;
}

const pct = (v: number) => `${fmt(v * 100)}%`;

export function CodingChart({ result, scenario, xDomain, name }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string }) {
  const summaries = result.summary.flows;
  const nameOf = useMemo(() => flowNames(summaries), [summaries]);
  const coded = useMemo(() => (result.traces?.flows ?? []).filter((f) => f.coding), [result]);
  const per = useMemo(() => bottleneckPer(scenario), [scenario]);

  const series = useMemo<LineSeries[]>(
    () =>
      coded.map((f) => ({
        key: `rank-${f.id}`,
        label: `${nameOf(f.id)} decoder rank`,
        color: colorOf(f.id),
        x: f.coding!.rank.t,
        y: f.coding!.rank.cols.rank,
        step: true,
        width: 1.2,
        unit: 'packets',
        testid: 'series-rank',
      })),
    [coded, nameOf],
  );

  const markers = useMemo<MarkerSeries[]>(
    () =>
      coded.map((f) => ({
        key: `decodes-${f.id}`,
        label: `${nameOf(f.id)} decode events`,
        color: colorOf(f.id),
        x: f.coding!.decodes.t,
        y: blockSize(scenario, f.id, f.coding!.rank.cols.rank),
        testid: 'decode-events',
      })),
    [coded, nameOf, scenario],
  );

  const lower = useMemo<LowerPanel>(() => {
    const s: LineSeries[] = coded
      .filter((f) => f.sender.cols.loss_estimate)
      .map((f) => ({
        key: `loss-${f.id}`,
        label: `${nameOf(f.id)} loss estimate`,
        color: colorOf(f.id),
        x: f.sender.t,
        y: f.sender.cols.loss_estimate.map((v) => v * 100),
        step: true,
        width: 1.6,
        unit: '%',
        testid: 'series-loss-estimate',
      }));
    const refs: RefLine[] = per ? [{ key: 'per', label: `true PER ${pct(per.p)} (link ${per.link + 1})`, y: per.p * 100, color: PER_COLOR, dash: '6 3' }] : [];
    return { yLabel: 'loss (%)', series: s, refs, height: 150 };
  }, [coded, nameOf, per]);

  const meanLoss = useMemo(
    () => new Map(coded.map((f) => [f.id, f.sender.cols.loss_estimate ? stepMean(f.sender.t, f.sender.cols.loss_estimate, xDomain[1]) : NaN])),
    [coded, xDomain],
  );

  const ctcp = summaries.filter((f): f is FlowSummary & { coding: NonNullable<FlowSummary['coding']> } => !!f.coding);
  const summary = (
    <>
      {ctcp.map((f) => {
        const c = f.coding;
        const lat = c.decode_latency_ms;
        const mean = meanLoss.get(f.id);
        return (
          <p key={f.id} data-testid="coding-summary">
            Coding: {nameOf(f.id)} sent {c.packets_sent.toLocaleString('en')} packets ({c.coded_packets.toLocaleString('en')} of them extra coded packets) for{' '}
            {c.source_packets_delivered.toLocaleString('en')} source packets delivered: a coded overhead of {fmt(c.coded_overhead, 4)} packets sent per source packet
            delivered. {c.non_innovative.toLocaleString('en')} receptions were non-innovative; {c.blocks_decoded.toLocaleString('en')} blocks decoded, decode latency mean{' '}
            {fmt(lat.mean, 4)} ms, 5th percentile {fmt(lat.p5, 4)} ms, 95th percentile {fmt(lat.p95, 4)} ms. Loss estimate {pct(c.loss_estimate)} at the end
            {mean !== undefined && Number.isFinite(mean) ? `, ${pct(mean)} averaged over time` : ''}
            {per ? `; the true PER of the bottleneck is ${pct(per.p)}` : ''}.
          </p>
        );
      })}
    </>
  );

  return (
    <ChartFrame testid="chart-coding" title="Network coding: decoder rank and loss estimate" exportName={`${name}-coding`} wide summary={summary}>
      {(width) => (
        <TimeSeriesChart
          title="network coding"
          width={width}
          plotHeight={220}
          xLabel="time (s)"
          yLabel="rank of current block (packets)"
          xDomain={xDomain}
          series={series}
          markers={markers}
          lower={lower}
        />
      )}
    </ChartFrame>
  );
}
