// Multi-flow runs: goodput per flow as bars (the paper's values as marks on them) and Jain's
// fairness index on a 1/n…1 gauge, with the paper's index beside the simulated one.

import { useEffect, useMemo, useRef, useState } from 'react';
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { RunSummary } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { Legend, layoutLegend, type LegendItem } from './Legend';
import { NO_EXPORT } from './exportChart';
import { colorOf, flowName, fmt, PAPER_COLOR } from './palette';

const M = { left: 62, right: 18 };
const PLOT_H = 190;
const GAUGE_H = 72;

function Bars({ summary, paper, paperJain, width }: { summary: RunSummary; paper: (number | null)[]; paperJain: number | null; width: number }) {
  const flows = summary.flows;
  const [hover, setHover] = useState<number | null>(null);
  const gxRef = useRef<SVGGElement>(null);
  const gyRef = useRef<SVGGElement>(null);
  const gjRef = useRef<SVGGElement>(null);
  const hasPaper = flows.some((f) => typeof paper[f.id] === 'number');

  const legend = useMemo(() => {
    const items: LegendItem[] = flows.map((f) => ({ label: flowName(f), color: colorOf(f.id), kind: 'swatch' }));
    if (hasPaper || paperJain !== null) items.push({ label: 'paper', color: PAPER_COLOR, kind: 'marker' });
    return layoutLegend(items, Math.max(100, width - M.left - M.right));
  }, [flows, hasPaper, paperJain, width]);

  const top = legend.height + 14;
  const innerW = Math.max(60, width - M.left - M.right);
  const height = top + PLOT_H + 40 + GAUGE_H;

  const xs = useMemo(
    () =>
      scaleBand<string>()
        .domain(flows.map((f) => String(f.id)))
        .range([0, innerW])
        .padding(0.3),
    [flows, innerW],
  );
  const ys = useMemo(() => {
    let hi = 0;
    for (const f of flows) hi = Math.max(hi, f.goodput_mbps, typeof paper[f.id] === 'number' ? (paper[f.id] as number) : 0);
    return scaleLinear()
      .domain([0, hi > 0 ? hi * 1.12 : 1])
      .range([PLOT_H, 0])
      .nice();
  }, [flows, paper]);
  const n = flows.length;
  const js = useMemo(() => scaleLinear().domain([0, 1]).range([0, innerW]), [innerW]);

  useEffect(() => {
    if (!gxRef.current || !gyRef.current || !gjRef.current) return;
    const names = new Map(flows.map((f) => [String(f.id), flowName(f)]));
    const maxChars = Math.max(4, Math.floor(xs.bandwidth() / 6.5) + 4);
    select(gxRef.current).call(
      axisBottom(xs)
        .tickFormat((d) => {
          const s = names.get(d) ?? d;
          return s.length > maxChars ? `${s.slice(0, maxChars - 1)}…` : s;
        })
        .tickSizeOuter(0),
    );
    select(gyRef.current).call(axisLeft(ys).ticks(5).tickSizeOuter(0));
    select(gjRef.current).call(axisBottom(js).ticks(Math.min(10, Math.floor(innerW / 60))).tickSizeOuter(0));
  }, [xs, ys, js, flows, innerW]);

  const jain = summary.fairness_jain;
  const gaugeY = top + PLOT_H + 40;
  const hovered = hover === null ? null : flows.find((f) => f.id === hover);

  return (
    <div className="ts-plot">
      <svg className="chart-svg" width={width} height={height} role="img" aria-label="Per-flow goodput and Jain's fairness index chart">
        <Legend layout={legend} x={M.left} y={4} />
        <g transform={`translate(${M.left},${top})`}>
          <g className="grid">
            {ys.ticks(5).map((t) => (
              <line key={t} x1={0} x2={innerW} y1={ys(t)} y2={ys(t)} />
            ))}
          </g>
          {flows.map((f) => {
            const x = xs(String(f.id)) ?? 0;
            const p = paper[f.id];
            return (
              <g key={f.id} onMouseEnter={() => setHover(f.id)} onMouseLeave={() => setHover(null)}>
                <rect
                  x={x}
                  width={xs.bandwidth()}
                  y={ys(f.goodput_mbps)}
                  height={Math.max(0, PLOT_H - ys(f.goodput_mbps))}
                  fill={colorOf(f.id)}
                  opacity={hover === null || hover === f.id ? 1 : 0.55}
                  data-testid="bar"
                  data-series={flowName(f)}
                  data-value={f.goodput_mbps}
                />
                <text className="bar-label" x={x + xs.bandwidth() / 2} y={ys(f.goodput_mbps) - 4} textAnchor="middle">
                  {fmt(f.goodput_mbps)}
                </text>
                {typeof p === 'number' && (
                  <g data-testid="paper-mark" data-series={flowName(f)} data-value={p}>
                    <line x1={x - 4} x2={x + xs.bandwidth() + 4} y1={ys(p)} y2={ys(p)} stroke={PAPER_COLOR} strokeWidth={2} strokeDasharray="5 2" />
                    <path d={`M${x + xs.bandwidth() + 4},${ys(p) - 5} l5,5 l-5,5 l-5,-5 Z`} style={{ fill: 'var(--chart-bg)' }} stroke={PAPER_COLOR} strokeWidth={1.6} />
                  </g>
                )}
                <rect x={x - (xs.step() - xs.bandwidth()) / 2} width={xs.step()} y={0} height={PLOT_H} fill="transparent" className={NO_EXPORT} />
              </g>
            );
          })}
          <g className="axis axis-y" ref={gyRef} />
          <g className="axis axis-x" ref={gxRef} transform={`translate(0,${PLOT_H})`} />
          <text className="axis-label" transform={`translate(${-M.left + 14},${PLOT_H / 2}) rotate(-90)`} textAnchor="middle">
            goodput (Mbit/s)
          </text>
        </g>
        <g transform={`translate(${M.left},${gaugeY})`} data-testid="jain-gauge">
          <text className="axis-label" x={0} y={0}>
            Jain's fairness index: {fmt(jain)}
            {paperJain !== null ? ` (paper ${fmt(paperJain)})` : ''}
          </text>
          <rect x={js(1 / Math.max(1, n))} width={js(1) - js(1 / Math.max(1, n))} y={22} height={12} style={{ fill: 'var(--grid)' }} />
          <text className="ref-label" x={js(1 / Math.max(1, n))} y={18} textAnchor="middle" style={{ fill: 'var(--muted)' }}>
            1/n
          </text>
          <rect x={0} width={Math.max(0, js(jain))} y={24} height={8} style={{ fill: 'var(--fg)' }} data-testid="jain-bar" data-value={jain} />
          {paperJain !== null && <path d={`M${js(paperJain)},${21} l6,7 l-6,7 l-6,-7 Z`} style={{ fill: 'var(--chart-bg)' }} stroke={PAPER_COLOR} strokeWidth={1.8} data-testid="paper-jain" />}
          <g className="axis" ref={gjRef} transform="translate(0,36)" />
        </g>
      </svg>
      {hovered && (
        <div
          className="chart-tip"
          aria-hidden="true"
          style={{ display: 'block', left: Math.min(width - 200, M.left + (xs(String(hovered.id)) ?? 0) + xs.bandwidth() + 10), top: top + 8 }}
        >
          <div className="tip-head">{flowName(hovered)}</div>
          <div>goodput: {fmt(hovered.goodput_mbps, 4)} Mbit/s</div>
          {typeof paper[hovered.id] === 'number' && <div>paper: {fmt(paper[hovered.id] as number, 4)} Mbit/s</div>}
          <div>delivered: {hovered.delivered_bytes.toLocaleString('en')} bytes</div>
          <div>retransmissions: {hovered.retransmissions}</div>
        </div>
      )}
    </div>
  );
}

export function FairnessChart({ summary, scenario, name }: { summary: RunSummary; scenario: Scenario | null; name: string }) {
  const paper = useMemo(() => scenario?.paper?.goodput_mbps ?? [], [scenario]);
  const paperJain = typeof scenario?.paper?.fairness_jain === 'number' ? scenario.paper.fairness_jain : null;
  const total = summary.flows.reduce((a, f) => a + f.goodput_mbps, 0);
  const text = (
    <>
      <p>
        Fairness: Jain's index {fmt(summary.fairness_jain)} over {summary.flows.length} flows (1 is a fair share, 1/{summary.flows.length} one flow takes all)
        {paperJain !== null ? `; the paper gives ${fmt(paperJain)}` : ''}. Total goodput {fmt(total)} Mbit/s.
      </p>
      <p>
        {summary.flows
          .map((f) => `${flowName(f)}: ${fmt(f.goodput_mbps)} Mbit/s${typeof paper[f.id] === 'number' ? ` (paper ${fmt(paper[f.id] as number)})` : ''}`)
          .join('; ')}
        .
      </p>
    </>
  );
  return (
    <ChartFrame testid="chart-fairness" title="Per-flow goodput and fairness" exportName={`${name}-fairness`} summary={text}>
      {(width) => <Bars summary={summary} paper={paper} paperJain={paperJain} width={width} />}
    </ChartFrame>
  );
}
