// The hop view's drawing: the strip (HopStrip.tsx), the legend, the small multiples
// (HopMultiples.tsx) and the cursor on them (HopPlotCursor.tsx). All of it is one SVG, so the
// export buttons carry all of it; the page scrolls it sideways when the path is long (a
// constellation route has about 20 nodes at a time, and over a long run every satellite it
// crossed). Only the columns in view are drawn (`viewport`); an export draws them all.

import { useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import type { TimeCursor } from '../timeCursor';
import { Legend, layoutLegend } from './Legend';
import { columnLayout, visibleColumns, type PathModel, type PathSnapshot } from './hopModel';
import { plotBoxes, plotWidth, rowTops } from './hopLayout';
import { Multiples } from './HopMultiples';
import { CursorRules, Scrubbers } from './HopPlotCursor';
import { ADVERTISED_COLOR, NODE_QUANTITIES, PACED_COLOR, RTX_COLOR } from './hopQuantities';
import { Strip } from './HopStrip';

interface DiagramProps {
  model: PathModel;
  snapshot: PathSnapshot;
  /** The instant the strip shows (the cursor, at the strip's rate). */
  at: number;
  cursor: TimeCursor;
  xDomain: [number, number];
  width: number;
  /** Shows a move made by hand at once (see useThrottledCursor). */
  byHand: () => void;
  /** The part of the drawing in view (px from its left edge), or null to draw every column. */
  viewport: { left: number; width: number } | null;
}

export function HopDiagram({ model, snapshot, at, cursor, xDomain, width, byHand, viewport }: DiagramProps) {
  const layout = useMemo(() => columnLayout(model.nodes.length, width), [model, width]);
  const plotW = plotWidth(layout);
  const xs = useMemo(() => scaleLinear().domain(xDomain).range([0, plotW]), [xDomain, plotW]);
  const legend = useMemo(
    () =>
      layoutLegend(
        [
          { label: 'asked rate (advertised by the downstream node)', color: ADVERTISED_COLOR },
          { label: 'paced rate (token bucket of the upstream node)', color: PACED_COLOR },
          { label: 're-requests', color: RTX_COLOR, kind: 'swatch' },
          ...NODE_QUANTITIES.map((q) => ({ label: q.legend, color: q.color, kind: 'swatch' as const })),
        ],
        Math.max(200, Math.min(width, layout.width) - layout.gutter),
      ),
    [width, layout],
  );
  const r = useMemo(() => rowTops(legend.height), [legend.height]);
  const { first, last } = visibleColumns(layout, model.nodes.length, viewport);
  // By its ends, so that a scroll within the same columns redraws nothing.
  const cols = useMemo(() => ({ first, last }), [first, last]);
  const boxes = useMemo(() => plotBoxes(model, layout, r, cols), [model, layout, r, cols]);
  const onCursor = (t: number) => {
    cursor.set(t, 'chart');
    byHand();
  };
  return (
    <svg
      className="chart-svg hop-svg"
      data-nodes={model.nodes.length}
      data-drawn-from={cols.first}
      data-drawn-to={cols.last}
      width={layout.width}
      height={r.height}
      role="img"
      aria-label="INTCP hop view: the path's nodes with each hop's rate and each node's queue, cache and bytes held for downstream over time"
    >
      <Strip model={model} snapshot={snapshot} layout={layout} at={at} cols={cols} />
      <Legend layout={legend} x={layout.gutter} y={r.legendTop} />
      <Multiples model={model} layout={layout} xs={xs} plotW={plotW} rowTops={r} cols={cols} />
      <CursorRules boxes={boxes} xs={xs} xDomain={xDomain} cursor={cursor} />
      <Scrubbers boxes={boxes} xs={xs} plotW={plotW} onCursor={onCursor} />
    </svg>
  );
}
