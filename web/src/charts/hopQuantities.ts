// What the hop view draws, each in one colour everywhere it appears (the strip, the legend, the
// small multiples): a hop's two rates and its re-requests, and a node's send queue, cache and
// bytes held for downstream. The three node quantities are drawn alike (a bar under the node at
// the cursor, a row of small multiples over time), so each is described once here and the parts
// of the view map over NODE_QUANTITIES: a fourth is one more entry, not four more copies.

import type { NodeSnapshot, PathModel, PathNode, TimeColumn } from './hopModel';

export const ADVERTISED_COLOR = '#0072B2';
export const PACED_COLOR = '#D55E00';
export const RTX_COLOR = '#b3261e';
export const LINK_COLOR = '#8c959f';

export const mb = (bytes: number) => bytes / 1e6;

/** 0 for a value not known at the cursor: what a bar's height and a link's width show for it. */
export const orZero = (v: number) => (Number.isFinite(v) ? v : 0);

export type NodeSeries = 'queue' | 'cache' | 'held';

export interface NodeQuantity {
  /** Its `data-series`, its bar's test id (`hop-<series>-bar`) and its row in `RowTops`. */
  series: NodeSeries;
  /** The test id of its small multiples; not `hop-held` for held bytes, which names the text. */
  plotTestId: string;
  color: string;
  legend: string;
  /** The label left of its row of small multiples, a line per entry. */
  rowLabel: string[];
  column: (n: PathNode) => TimeColumn;
  at: (s: NodeSnapshot) => number;
  /** The largest value over the run, in the core's unit, so every node shares one scale. */
  max: (m: PathModel) => number;
  /** From the core's unit to the small multiples' (bytes to MB); none for packets. */
  toPlot?: (v: number) => number;
}

/** Left to right under a node, top to bottom in the small multiples, in the legend's order. */
export const NODE_QUANTITIES: readonly NodeQuantity[] = [
  {
    series: 'queue',
    plotTestId: 'hop-queue',
    color: '#009E73',
    legend: 'send queue',
    rowLabel: ['send queue', '(packets)'],
    column: (n) => n.queue,
    at: (s) => s.queuePkts,
    max: (m) => m.maxQueuePkts,
  },
  {
    series: 'cache',
    plotTestId: 'hop-cache',
    color: '#CC79A7',
    legend: 'cache',
    rowLabel: ['cache (MB)'],
    column: (n) => n.cache,
    at: (s) => s.cacheBytes,
    max: (m) => m.maxCacheBytes,
    toPlot: mb,
  },
  {
    series: 'held',
    plotTestId: 'hop-held-plot',
    color: '#E69F00',
    legend: 'held for downstream',
    rowLabel: ['held for', 'downstream', '(MB)'],
    column: (n) => n.held,
    at: (s) => s.heldBytes,
    max: (m) => m.maxHeldBytes,
    toPlot: mb,
  },
];

/** A node's column of `q` in the small multiples' unit. */
export function plotColumn(q: NodeQuantity, n: PathNode): TimeColumn {
  const c = q.column(n);
  return q.toPlot ? { t: c.t, v: c.v.map(q.toPlot) } : c;
}

/** The largest value of `q` over the run in the small multiples' unit. */
export const plotMax = (q: NodeQuantity, m: PathModel) => (q.toPlot ? q.toPlot(q.max(m)) : q.max(m));
