// The hop view's small multiples over the whole run: one rate plot per hop (asked and paced, with
// the re-requests ticked below), and a row per node quantity (hopQuantities.ts) with a plot per
// node. Each row shares one y scale across the path, so a column's plots compare by eye. They
// depend on the run, the flow and the width only (memo): a moving cursor redraws none of them.

import { memo } from 'react';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import { decimate } from './decimate';
import { Frame, RowLabel } from './HopAxes';
import { hopShown, hopX, nodeShown, nodeX, type ColumnLayout, type ColumnRange, type PathModel, type TimeColumn } from './hopModel';
import { NODE_PLOT_H, RATE_H, RTX_BAND, plotLeft, type RowTops } from './hopLayout';
import { ADVERTISED_COLOR, NODE_QUANTITIES, PACED_COLOR, RTX_COLOR, plotColumn, plotMax } from './hopQuantities';

const stepLine = line<[number, number]>()
  .x((d) => d[0])
  .y((d) => d[1])
  .defined((d) => Number.isFinite(d[1]))
  .curve(curveStepAfter);

/** A held series as a step path over the plot's width, decimated to its pixel columns. */
function stepPath(c: TimeColumn, xs: ScaleLinear<number, number>, ys: (v: number) => number, plotW: number): string {
  const [a, b] = xs.domain();
  const idx = decimate(c.t, c.v, a, b, plotW);
  const pts: [number, number][] = Array.from(idx, (i) => [xs(c.t[i]), ys(c.v[i])]);
  if (pts.length) pts.push([xs(b), pts[pts.length - 1][1]]);
  return stepLine(pts) ?? '';
}

interface Scales {
  xs: ScaleLinear<number, number>;
  ys: ScaleLinear<number, number>;
  plotW: number;
}

/** One series of a small multiple; `data-points` counts its samples, not the decimated ones. */
function SeriesPath({ c, series, color, xs, ys, plotW }: Scales & { c: TimeColumn; series: string; color: string }) {
  return <path d={stepPath(c, xs, ys, plotW)} fill="none" stroke={color} strokeWidth={1.4} data-testid="hop-series" data-series={series} data-points={c.t.length} />;
}

export interface MultiplesProps {
  model: PathModel;
  layout: ColumnLayout;
  xs: ScaleLinear<number, number>;
  plotW: number;
  rowTops: RowTops;
  /** The columns drawn (hopModel.ts `visibleColumns`). */
  cols: ColumnRange;
}

export const Multiples = memo(function Multiples({ model, layout, xs, plotW, rowTops, cols }: MultiplesProps) {
  const rate = scaleLinear()
    .domain([0, Math.max(1, model.maxRateMbps)])
    .range([RATE_H, 0])
    .nice();
  const nodeYs = NODE_QUANTITIES.map((q) =>
    scaleLinear()
      .domain([0, Math.max(1, plotMax(q, model))])
      .range([NODE_PLOT_H, 0])
      .nice(),
  );
  const rtxTicks = (c: TimeColumn) => Array.from(c.t, (t) => `M${xs(t)},${RATE_H + 1}v${RTX_BAND - 2}`).join('');
  return (
    <g className="hop-multiples">
      <RowLabel y={rowTops.rate + RATE_H / 2} lines={['rate of', 'each hop', '(Mbit/s)']} />
      {NODE_QUANTITIES.map((q) => (
        <RowLabel key={q.series} y={rowTops[q.series] + NODE_PLOT_H / 2} lines={q.rowLabel} />
      ))}
      {model.hops.map(
        (h, k) =>
          hopShown(cols, k) && (
            <g key={`rate-${k}`} transform={`translate(${plotLeft(layout, hopX(layout, k))},${rowTops.rate})`} data-testid="hop-rate" data-hop={k}>
              <Frame xs={xs} ys={rate} h={RATE_H} axisY={RATE_H + RTX_BAND} title={`node ${h.from} → ${h.to}`} />
              <SeriesPath c={h.advertised} series="advertised" color={ADVERTISED_COLOR} xs={xs} ys={rate} plotW={plotW} />
              <SeriesPath c={h.paced} series="paced" color={PACED_COLOR} xs={xs} ys={rate} plotW={plotW} />
              <path
                d={rtxTicks(h.retransmissions)}
                stroke={RTX_COLOR}
                strokeWidth={1}
                data-testid="rtx-marker"
                data-points={h.retransmissions.t.length}
                data-total={h.totalRetransmissions}
              />
            </g>
          ),
      )}
      {model.nodes.map(
        (n, k) =>
          nodeShown(cols, k) && (
            <g key={`node-${n.node}`}>
              {NODE_QUANTITIES.map((q, i) => (
                <g key={q.series} transform={`translate(${plotLeft(layout, nodeX(layout, k))},${rowTops[q.series]})`} data-testid={q.plotTestId} data-node={n.node}>
                  <Frame xs={xs} ys={nodeYs[i]} h={NODE_PLOT_H} axisY={NODE_PLOT_H} title={`node ${n.node}`} />
                  <SeriesPath c={plotColumn(q, n)} series={q.series} color={q.color} xs={xs} ys={nodeYs[i]} plotW={plotW} />
                  {/* A result from before the core reported the column has it empty (hopModel.ts). */}
                  {q.column(n).v.length === 0 && (
                    <text className="hop-plot-title" x={plotW / 2} y={NODE_PLOT_H / 2} textAnchor="middle" dominantBaseline="central">
                      – (not in this result)
                    </text>
                  )}
                </g>
              ))}
            </g>
          ),
      )}
    </g>
  );
});
