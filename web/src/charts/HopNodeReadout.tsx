// The read-out under each node of the strip, at the cursor: a bar per node quantity
// (hopQuantities.ts) side by side on one baseline, and three lines of numbers (queue and cache,
// held bytes, rates in and out). Each bar's scale spans its quantity's largest value over the
// run on any node, so the bars of different nodes compare, and a bar holds still while nothing
// changes instead of rescaling under the cursor.

import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { heldText, ratesText, withUnit, type NodeSnapshot, type PathModel, type PathNode } from './hopModel';
import { BAR_GAP, BAR_H, BAR_TEXT_Y, BAR_TOP, BAR_W } from './hopLayout';
import { LINK_COLOR, NODE_QUANTITIES, mb, orZero } from './hopQuantities';
import { fmt } from './palette';

/** A bar's height for each node quantity, in NODE_QUANTITIES' order. */
export function barScales(model: PathModel): ScaleLinear<number, number>[] {
  return NODE_QUANTITIES.map((q) =>
    scaleLinear()
      .domain([0, Math.max(1, q.max(model))])
      .range([0, BAR_H])
      .clamp(true),
  );
}

/** Centred under the node at `cx`, so the middle bar sits on the node's axis. */
const barX = (cx: number, i: number) => cx + (i - (NODE_QUANTITIES.length - 1) / 2) * (BAR_W + BAR_GAP) - BAR_W / 2;

export function NodeReadout({ node, s, cx, heights }: { node: PathNode; s: NodeSnapshot; cx: number; heights: ScaleLinear<number, number>[] }) {
  const base = BAR_TOP + BAR_H;
  const lines: [text: string, testid?: string][] = [
    [`${fmt(s.queuePkts)} pkts | ${withUnit(mb(s.cacheBytes), 'MB')}`],
    [heldText(s), 'hop-held'],
    [ratesText(node.role, s), 'hop-rates'],
  ];
  return (
    <>
      <line x1={barX(cx, 0) - 4} x2={barX(cx, NODE_QUANTITIES.length - 1) + BAR_W + 4} y1={base} y2={base} stroke={LINK_COLOR} />
      {NODE_QUANTITIES.map((q, i) => {
        // data-value, for tests and tools, is the value the bar's height shows: 0 when unknown.
        const v = orZero(q.at(s));
        const h = heights[i](v);
        return <rect key={q.series} x={barX(cx, i)} y={base - h} width={BAR_W} height={h} fill={q.color} data-testid={`hop-${q.series}-bar`} data-value={v} />;
      })}
      {lines.map(([text, testid], i) => (
        <text key={i} className="hop-bar-label" x={cx} y={base + BAR_TEXT_Y[i]} textAnchor="middle" data-testid={testid}>
          {text}
        </text>
      ))}
    </>
  );
}
