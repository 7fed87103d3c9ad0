// Where a CTCP flow's bottleneck capacity went (the core's `coding.capacity`): one horizontal
// stacked bar per CTCP flow, the link's packet slots split into innovative packets, coded
// packets that replaced lost ones (redundant but needed), non-innovative packets, packets lost
// after the link, packets still in flight at the end, other traffic and idle time. The parts add
// up to the link's capacity; queue drops and ingress losses took no link time and are given
// apart, in the text.

import { useEffect, useMemo, useRef } from 'react';
import { axisBottom } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { CapacitySummary, FlowSummary, RunSummary } from '../sim/results';
import { ChartFrame } from './ChartFrame';
import { Legend, layoutLegend, type LegendItem } from './Legend';
import { flowName, fmt } from './palette';
import { PARTS, capacityShares, describeShares, roundedPercents } from './capacity';

type CtcpFlow = FlowSummary & { coding: { capacity: CapacitySummary } };

const M = { left: 12, right: 16 };
const BAR_H = 26;
const ROW_GAP = 30;
const LABEL_H = 16;
const pct = (v: number) => `${Math.round(v * 100)}%`;

function Bars({ flows, width }: { flows: CtcpFlow[]; width: number }) {
  const axisRef = useRef<SVGGElement>(null);
  const innerW = Math.max(80, width - M.left - M.right);
  const rows = useMemo(() => flows.map((f) => ({ f, shares: capacityShares(f.coding.capacity) })), [flows]);
  const legend = useMemo(() => {
    const items: LegendItem[] = PARTS.map((p) => ({ label: p.label, color: p.color, kind: 'swatch' }));
    return layoutLegend(items, innerW);
  }, [innerW]);
  const x = useMemo(() => scaleLinear().domain([0, 1]).range([0, innerW]), [innerW]);
  const top = legend.height + 10;
  const rowH = LABEL_H + BAR_H + ROW_GAP;
  const axisY = top + rows.length * rowH - ROW_GAP + 4;
  const height = axisY + 34;

  useEffect(() => {
    if (!axisRef.current) return;
    select(axisRef.current).call(axisBottom(x).ticks(Math.min(10, Math.floor(innerW / 60))).tickFormat((d) => pct(Number(d))).tickSizeOuter(0));
  }, [x, innerW]);

  const label = `Stacked bars: where the bottleneck link's packet slots went, per CTCP flow. ${rows
    .map(({ f, shares }) => `${flowName(f)}: ${describeShares(shares)}.`)
    .join(' ')}`;
  return (
    <svg className="chart-svg" width={width} height={height} role="img" aria-label={label}>
      <title>{label}</title>
      <Legend layout={legend} x={M.left} y={4} />
      <g transform={`translate(${M.left},${top})`}>
        {rows.map(({ f, shares }, r) => {
          const y = r * rowH;
          const pcts = roundedPercents(shares.map((s) => s.share));
          let acc = 0;
          return (
            <g key={f.id} data-testid="capacity-bar" data-series={flowName(f)}>
              <text className="axis-label" x={0} y={y + LABEL_H - 4}>
                {flowName(f)}: link {f.coding.capacity.link}, {fmt(f.coding.capacity.link_pkt_slots, 4)} packet slots
              </text>
              {shares.map((s, i) => {
                const x0 = x(acc);
                acc += s.share;
                const w = Math.max(0, x(acc) - x0);
                const text = `${s.label}: ${fmt(s.slots, 4)} packet slots, ${pcts[i].toFixed(1)}%`;
                return (
                  <g key={s.key}>
                    <rect
                      x={x0}
                      y={y + LABEL_H}
                      width={w}
                      height={BAR_H}
                      fill={s.color}
                      stroke={s.key === 'idle' ? '#8c959f' : 'none'}
                      strokeWidth={s.key === 'idle' ? 0.5 : 0}
                      data-testid="capacity-segment"
                      data-key={s.key}
                      data-share={s.share}
                    >
                      <title>{text}</title>
                    </rect>
                    {w > 44 && (
                      <text className="bar-label" x={x0 + w / 2} y={y + LABEL_H + BAR_H / 2} textAnchor="middle" dominantBaseline="central" fill={s.key === 'innovative' || s.key === 'other' ? '#fff' : '#1b1f24'}>
                        {pcts[i].toFixed(1)}%
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          );
        })}
      </g>
      <g className="axis axis-x" ref={axisRef} transform={`translate(${M.left},${axisY})`} />
      <text className="axis-label" x={M.left + innerW / 2} y={height - 4} textAnchor="middle">
        share of the bottleneck's capacity (packet slots)
      </text>
    </svg>
  );
}

export function CapacityChart({ summary, name }: { summary: RunSummary; name: string }) {
  const flows = useMemo(() => summary.flows.filter((f): f is CtcpFlow => !!f.coding?.capacity), [summary]);
  if (!flows.length) return null;
  const text = (
    <>
      {flows.map((f) => {
        const c = f.coding.capacity;
        return (
          <p key={f.id} data-testid="capacity-summary">
            Capacity: {flowName(f)}'s bottleneck, link {c.link}, had {fmt(c.link_pkt_slots, 4)} packet slots over the run (busy {fmt(c.busy_fraction * 100)}% of the
            time): {describeShares(capacityShares(c))}. Apart from these, {c.queue_drop_pkts.toLocaleString('en')} packets were dropped by its full buffer and{' '}
            {c.ingress_loss_pkts.toLocaleString('en')} lost at its ingress.
          </p>
        );
      })}
    </>
  );
  return (
    <ChartFrame testid="chart-capacity" title="Bottleneck capacity: where the packet slots went" exportName={`${name}-capacity`} wide summary={text}>
      {(width) => <Bars flows={flows} width={width} />}
    </ChartFrame>
  );
}
