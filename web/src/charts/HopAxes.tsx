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

/** A small multiple's grid, y ticks, time axis and title. The grid lines and the axis with its
 * ticks are one path each, not an element per line: a constellation route's hop view has a plot
 * per node and quantity over every satellite the route crossed (230 nodes over the 10 minutes of
 * the Beijing-New York preset), and an element per line made 35 000 elements to lay out. */
export function Frame({ xs, ys, h, axisY, title }: { xs: ScaleLinear<number, number>; ys: ScaleLinear<number, number>; h: number; axisY: number; title: string }) {
  const [x0, x1] = xs.range();
  const yTicks = ys.ticks(3);
  const xTicks = xs.ticks(Math.max(2, Math.floor((x1 - x0) / 50)));
  const grid = yTicks.map((t) => `M${x0},${ys(t)}H${x1}`).join('');
  const axis = `M${x0},${h}H${x1}${xTicks.map((t) => `M${xs(t)},${axisY}v4`).join('')}`;
  return (
    <g className="hop-frame">
      <text className="hop-plot-title" x={x0} y={-4}>
        {title}
      </text>
      <path className="grid" d={grid} />
      <g className="axis">
        <path d={axis} />
        {yTicks.map((t) => (
          <text key={`y${t}`} x={-4} y={ys(t)} textAnchor="end" dominantBaseline="central">
            {fmt(t)}
          </text>
        ))}
        {xTicks.map((t) => (
          <text key={`x${t}`} x={xs(t)} y={axisY + 14} textAnchor="middle">
            {fmt(t)}
          </text>
        ))}
      </g>
    </g>
  );
}
