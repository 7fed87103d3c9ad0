// Where each part of the hop view's SVG goes. Across: hopModel.ts's columns, one per node with
// the hops between them. Down: the strip of nodes, the legend, then a row of small multiples for
// the hops' rates and one for each node quantity (hopQuantities.ts). Every part places itself
// from here, so the cursor rules and the scrubbers land on the plots they belong to.

import { hopShown, hopX, nodeShown, nodeX, type ColumnLayout, type ColumnRange, type PathModel } from './hopModel';
import { NODE_QUANTITIES, type NodeSeries } from './hopQuantities';

/** The strip, in pixels from the top of the SVG. */
export const NODE_Y = 46;
export const NODE_R = 15;
export const MAX_LINK_W = 14;
export const BAR_TOP = 86;
export const BAR_H = 56;
export const BAR_W = 16;
export const BAR_GAP = 3;
/** The lines of text under the bars: queue and cache, held bytes, rates in and out. */
export const BAR_TEXT_Y = [13, 27, 41];
const STRIP_H = 200;
/** Small multiples: left pad for the y ticks, plot height, room for the time axis below. */
const PAD_LEFT = 34;
const PAD_RIGHT = 10;
export const RATE_H = 84;
export const RTX_BAND = 9;
export const NODE_PLOT_H = 58;
const AXIS_H = 22;
const ROW_GAP = 14;
/** A small multiple's title sits above its plot (HopAxes.tsx: baseline 4 px up, 10.5 px type):
 * the rates' titles need this much below the legend to stay clear of its last row. */
export const PLOT_TITLE_H = 18;

export type RowTops = { legendTop: number; rate: number; height: number } & Record<NodeSeries, number>;

/** Where each row of small multiples starts, and the SVG's height. */
export function rowTops(legendH: number): RowTops {
  const legendTop = STRIP_H;
  const rate = legendTop + legendH + PLOT_TITLE_H;
  const queue = rate + RATE_H + RTX_BAND + AXIS_H + ROW_GAP;
  const cache = queue + NODE_PLOT_H + AXIS_H + ROW_GAP;
  const held = cache + NODE_PLOT_H + AXIS_H + ROW_GAP;
  return { legendTop, rate, queue, cache, held, height: held + NODE_PLOT_H + AXIS_H + 6 };
}

/** The width of a small multiple's plot area in one column. */
export const plotWidth = (layout: ColumnLayout) => Math.max(40, layout.column * 0.9 - PAD_LEFT - PAD_RIGHT);

/** The left edge of the plot area of the small multiple under `centre` (its y ticks sit left of it). */
export const plotLeft = (layout: ColumnLayout, centre: number) => centre - layout.column * 0.45 + PAD_LEFT;

export interface PlotBox {
  key: string;
  x: number;
  y: number;
  h: number;
}

/** The plot area of every small multiple drawn (each `plotWidth` wide): the hops' rates with
 * their re-request band, then each node's rows in order. */
export function plotBoxes(model: PathModel, layout: ColumnLayout, rows: RowTops, cols: ColumnRange): PlotBox[] {
  return [
    ...model.hops.flatMap((_, k) => (hopShown(cols, k) ? [{ key: `h${k}`, x: plotLeft(layout, hopX(layout, k)), y: rows.rate, h: RATE_H + RTX_BAND }] : [])),
    ...model.nodes.flatMap((_, k) =>
      nodeShown(cols, k) ? NODE_QUANTITIES.map((q) => ({ key: `${q.series}${k}`, x: plotLeft(layout, nodeX(layout, k)), y: rows[q.series], h: NODE_PLOT_H })) : [],
    ),
  ];
}
