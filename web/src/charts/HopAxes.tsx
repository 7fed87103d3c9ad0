// The hop view's axes: each small multiple's grid, ticks and title, and the labels left of each
// row. React renders the ticks d3 picks, as in the other charts.

import type { ScaleLinear } from 'd3-scale';
import { fmt } from './palette';

/** A row's label in the gutter, its lines centred on `y`. */
export function RowLabel({ y, lines }: { y: number; lines: string[] }) {
  return (
    <text className="hop-row-label" x={6} y={y - ((lines.length - 1) * 13) / 2}>
      {lines.map((l, i) => (
        <tspan key={i} x={6} dy={i ? 13 : 0} dominantBaseline="central">
          {l}
        </tspan>
      ))}
    </text>
  );
}

/** A small multiple's grid, y ticks, time axis and title. */
export function Frame({ xs, ys, h, axisY, title }: { xs: ScaleLinear<number, number>; ys: ScaleLinear<number, number>; h: number; axisY: number; title: string }) {
  const [x0, x1] = xs.range();
  const yTicks = ys.ticks(3);
  const xTicks = xs.ticks(Math.max(2, Math.floor((x1 - x0) / 50)));
  return (
    <g className="hop-frame">
      <text className="hop-plot-title" x={x0} y={-4}>
        {title}
      </text>
      <g className="grid">
        {yTicks.map((t) => (
          <line key={t} x1={x0} x2={x1} y1={ys(t)} y2={ys(t)} />
        ))}
      </g>
      <g className="axis">
        {yTicks.map((t) => (
          <text key={t} x={-4} y={ys(t)} textAnchor="end" dominantBaseline="central">
            {fmt(t)}
          </text>
        ))}
        <line x1={x0} x2={x1} y1={h} y2={h} />
        {xTicks.map((t) => (
          <g key={t} transform={`translate(${xs(t)},${axisY})`}>
            <line y2={4} />
            <text y={14} textAnchor="middle">
              {fmt(t)}
            </text>
          </g>
        ))}
      </g>
    </g>
  );
}
