// The strip at the top of the hop view: the path at the cursor, DATA flowing left to right. A
// hop is an arrow as thick as its paced rate (one scale for the whole run, so thickness compares
// across hops and over time), labelled with that rate, the rate asked of it and its re-requests
// so far; a node is a dot with its role above and its read-out below (HopNodeReadout.tsx). The
// one part of the view that React re-renders as the cursor moves (see HopView.tsx).

import { scaleLinear } from 'd3-scale';
import { RowLabel } from './HopAxes';
import { hopShown, hopX, nodeShown, nodeX, type ColumnLayout, type ColumnRange, type PathModel, type PathSnapshot } from './hopModel';
import { BAR_H, BAR_TEXT_Y, BAR_TOP, MAX_LINK_W, NODE_R, NODE_Y } from './hopLayout';
import { barScales, NodeReadout } from './HopNodeReadout';
import { ADVERTISED_COLOR, LINK_COLOR, PACED_COLOR, RTX_COLOR, orZero } from './hopQuantities';
import { fmt } from './palette';

export function Strip({ model, snapshot, layout, at, cols }: { model: PathModel; snapshot: PathSnapshot; layout: ColumnLayout; at: number; cols: ColumnRange }) {
  const linkW = scaleLinear()
    .domain([0, Math.max(1e-9, model.maxRateMbps)])
    .range([1, MAX_LINK_W])
    .clamp(true);
  const heights = barScales(model);
  return (
    <g className="hop-strip">
      <text className="hop-row-label" x={6} y={NODE_Y - 7} dominantBaseline="central">
        path at
      </text>
      <text className="hop-row-label" x={6} y={NODE_Y + 7} dominantBaseline="central">
        t = {fmt(at, 4)} s
      </text>
      <RowLabel y={BAR_TOP + BAR_H / 2} lines={['queue,', 'cache,', 'held']} />
      <text className="hop-row-label" x={6} y={BAR_TOP + BAR_H + BAR_TEXT_Y[2]} dominantBaseline="central">
        DATA rates
      </text>
      {model.hops.map((h, k) => {
        if (!hopShown(cols, k)) return null;
        const s = snapshot.hops[k];
        const x0 = nodeX(layout, k) + NODE_R + 2;
        const x1 = nodeX(layout, k + 1) - NODE_R - 6;
        const cx = hopX(layout, k);
        const paced = orZero(s.pacedMbps);
        return (
          <g key={k} data-testid="hop-link" data-hop={k} data-from={h.from} data-to={h.to} data-rate={paced}>
            <line x1={x0} x2={x1} y1={NODE_Y} y2={NODE_Y} stroke={LINK_COLOR} strokeWidth={linkW(paced)} strokeLinecap="butt" />
            <path d={`M${x1},${NODE_Y - 5}L${x1 + 6},${NODE_Y}L${x1},${NODE_Y + 5}Z`} fill={LINK_COLOR} />
            <text className="hop-link-label hop-paced" x={cx} y={NODE_Y - MAX_LINK_W / 2 - 6} textAnchor="middle" fill={PACED_COLOR}>
              {fmt(paced)} Mbit/s
            </text>
            <text className="hop-link-label hop-advertised" x={cx} y={NODE_Y + MAX_LINK_W / 2 + 12} textAnchor="middle" fill={ADVERTISED_COLOR}>
              asked {fmt(s.advertisedMbps)}
            </text>
            <text className="hop-link-label hop-rtx" x={cx} y={NODE_Y + MAX_LINK_W / 2 + 26} textAnchor="middle" fill={RTX_COLOR} data-testid="hop-link-rtx">
              {s.retransmissions > 0 ? `${s.retransmissions.toLocaleString('en')} re-requests` : ''}
            </text>
          </g>
        );
      })}
      {model.nodes.map((n, k) => {
        if (!nodeShown(cols, k)) return null;
        const cx = nodeX(layout, k);
        return (
          <g key={n.node} data-testid="hop-node" data-node={n.node} data-role={n.role}>
            <text className="hop-role" x={cx} y={NODE_Y - NODE_R - 10} textAnchor="middle">
              {n.role}
            </text>
            <circle cx={cx} cy={NODE_Y} r={NODE_R} className={`hop-node-dot hop-${n.role}`} />
            <text className="hop-node-id" x={cx} y={NODE_Y} textAnchor="middle" dominantBaseline="central">
              {n.node}
            </text>
            <NodeReadout node={n} s={snapshot.nodes[k]} cx={cx} heights={heights} />
          </g>
        );
      })}
    </g>
  );
}
