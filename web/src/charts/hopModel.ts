// The pure parts of the INTCP hop view (HopView.tsx): which flows have a path to show, the
// path's nodes and hops built from the core's per-node traces, the state of the path at one
// instant (for the strip under the time cursor), and the column layout.
//
// Results made before the core reported `held_bytes`, `in_rate_mbps` and `out_rate_mbps` (a saved
// result, an older build) lack those columns: they become empty columns here, NaN at the cursor,
// and "–" on screen, so the rest of the view still works.
//
// The core reports each node's series from that node's point of view; a hop needs two of them.
// On the hop from node A (upstream, the hop's responder) to node B (downstream, its requester):
// - the rate B asks of A is B's `advertised_rate_mbps` (piggybacked on B's INTERESTs);
// - the rate A actually sends at is A's `paced_rate_mbps` (A's token bucket);
// - the re-requests on the hop are B's (B detected the SeqHole and asked A's cache again; at the
//   consumer also end-to-end timeouts, which the view marks on the consumer's hop as well).

import type { FlowSummary, FlowTraces, HopRole } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { upperBound } from './decimate';
import { flowName, fmt } from './palette';

/** One value column over its own time column (seconds), sorted by time. */
export interface TimeColumn {
  t: Float64Array;
  v: Float64Array;
}

export interface PathNode {
  node: number;
  role: HopRole;
  /** Segments in the node's send queue. */
  queue: TimeColumn;
  /** Bytes in the node's cache (shared with the other flows of the same content name). */
  cache: TimeColumn;
  /** Bytes the node holds for downstream: its send queue and, on a midnode that reads ahead,
   * what it fetched before downstream asked (docs/intcp-caching.md). Part of `cache` on a
   * midnode, so the cache's occupancy alone overstates what is waiting to go downstream. */
  held: TimeColumn;
  /** DATA arriving from upstream over the last hop RTT, Mbit/s (0 at the producer). */
  inRate: TimeColumn;
  /** DATA sent downstream over the last 100 ms, Mbit/s (0 at the consumer). */
  outRate: TimeColumn;
}

export interface PathHop {
  /** Node ids: `from` is upstream (towards the producer), `to` downstream. */
  from: number;
  to: number;
  /** What the downstream node asks of this hop, Mbit/s. */
  advertised: TimeColumn;
  /** What the upstream node's token bucket sends at, Mbit/s. */
  paced: TimeColumn;
  /** The downstream node's re-requests so far (cumulative, as the core reports them). */
  retransmissionsSoFar: TimeColumn;
  /** When re-requests were sent and how many each time: the increments of the cumulative count. */
  retransmissions: TimeColumn;
  totalRetransmissions: number;
}

export interface PathModel {
  flowId: number;
  /** Producer first, consumer last. */
  nodes: PathNode[];
  /** hops[h] joins nodes[h] and nodes[h + 1]. */
  hops: PathHop[];
  /** The largest values over the whole run, so every hop and node shares one scale per row. */
  maxRateMbps: number;
  maxQueuePkts: number;
  maxCacheBytes: number;
  maxHeldBytes: number;
}

const EMPTY = new Float64Array(0);

/** Increments of a cumulative count: one row per time the count grew, holding how much. */
export function increments(t: ArrayLike<number>, count: ArrayLike<number>): TimeColumn {
  const ts: number[] = [];
  const vs: number[] = [];
  let prev = 0;
  const n = Math.min(t.length, count.length);
  for (let i = 0; i < n; i++) {
    const c = count[i];
    if (!Number.isFinite(c)) continue;
    if (c > prev) {
      ts.push(t[i]);
      vs.push(c - prev);
    }
    prev = Math.max(prev, c);
  }
  return { t: Float64Array.from(ts), v: Float64Array.from(vs) };
}

/** The value a column holds at time x: its last sample at or before x; NaN before the first. */
export function heldAt(c: TimeColumn, x: number): number {
  const i = Math.min(upperBound(c.t, x), c.v.length - 1);
  return i < 0 ? NaN : c.v[i];
}

/** The largest finite value of some columns (0 when none has one). */
export function maxOf(...cols: ArrayLike<number>[]): number {
  let m = 0;
  for (const c of cols) for (let i = 0; i < c.length; i++) if (c[i] > m) m = c[i];
  return m;
}

/** The time-weighted mean of a held column over [start, end] (NaN when it has no sample there). */
export function heldMean(c: TimeColumn, start: number, end: number): number {
  let sum = 0;
  let span = 0;
  const n = Math.min(c.t.length, c.v.length);
  for (let i = 0; i < n; i++) {
    const a = Math.max(start, c.t[i]);
    const b = Math.min(end, i + 1 < n ? c.t[i + 1] : end);
    if (b > a && Number.isFinite(c.v[i])) {
      sum += c.v[i] * (b - a);
      span += b - a;
    }
  }
  return span > 0 ? sum / span : NaN;
}

/** The largest value of a column; NaN when the column is empty (missing from the result). */
export function peak(c: TimeColumn): number {
  return c.v.length === 0 ? NaN : maxOf(c.v);
}

/** A named column; empty in both time and value when the result lacks it. */
function col(c: { t: Float64Array; cols: Record<string, Float64Array> }, name: string): TimeColumn {
  const v = c.cols[name];
  return v ? { t: c.t, v } : { t: EMPTY, v: EMPTY };
}

/** The path of an INTCP flow from its per-node traces; null when the flow has none. */
export function pathModel(trace: FlowTraces): PathModel | null {
  const hops = trace.hops;
  if (!hops || hops.length === 0) return null;
  const nodes: PathNode[] = hops.map((h) => ({
    node: h.node,
    role: h.role,
    queue: col(h.series, 'queue_pkts'),
    cache: col(h.series, 'cache_bytes'),
    held: col(h.series, 'held_bytes'),
    inRate: col(h.series, 'in_rate_mbps'),
    outRate: col(h.series, 'out_rate_mbps'),
  }));
  const links: PathHop[] = [];
  for (let k = 0; k + 1 < hops.length; k++) {
    const up = hops[k];
    const down = hops[k + 1];
    const soFar = col(down.retransmissions, 'count');
    const rtx = increments(soFar.t, soFar.v);
    links.push({
      from: up.node,
      to: down.node,
      advertised: col(down.series, 'advertised_rate_mbps'),
      paced: col(up.series, 'paced_rate_mbps'),
      retransmissionsSoFar: soFar,
      retransmissions: rtx,
      totalRetransmissions: rtx.v.reduce((a, b) => a + b, 0),
    });
  }
  return {
    flowId: trace.id,
    nodes,
    hops: links,
    maxRateMbps: maxOf(...links.flatMap((l) => [l.advertised.v, l.paced.v])),
    maxQueuePkts: maxOf(...nodes.map((n) => n.queue.v)),
    maxCacheBytes: maxOf(...nodes.map((n) => n.cache.v)),
    maxHeldBytes: maxOf(...nodes.map((n) => n.held.v)),
  };
}

/** One node at one instant; NaN for a column the result lacks (or before its first sample). */
export interface NodeSnapshot {
  queuePkts: number;
  cacheBytes: number;
  heldBytes: number;
  inMbps: number;
  outMbps: number;
}

export interface PathSnapshot {
  nodes: NodeSnapshot[];
  hops: { advertisedMbps: number; pacedMbps: number; retransmissions: number }[];
}

/** The path at time x: each node's queue, cache, held bytes and rates in and out, each hop's
 * rates and re-requests so far. */
export function snapshotAt(model: PathModel, x: number): PathSnapshot {
  return {
    nodes: model.nodes.map((n) => ({
      queuePkts: heldAt(n.queue, x),
      cacheBytes: heldAt(n.cache, x),
      heldBytes: heldAt(n.held, x),
      inMbps: heldAt(n.inRate, x),
      outMbps: heldAt(n.outRate, x),
    })),
    hops: model.hops.map((h) => ({
      advertisedMbps: heldAt(h.advertised, x),
      pacedMbps: heldAt(h.paced, x),
      // Before the first re-request the count is 0, not unknown.
      retransmissions: heldAt(h.retransmissionsSoFar, x) || 0,
    })),
  };
}

/** A value with its unit, or "–" (no unit) when it is unknown. */
export function withUnit(v: number, unit: string): string {
  return Number.isFinite(v) ? `${fmt(v)} ${unit}` : '–';
}

/** "holds 8.4 MB": what a node holds for downstream at one instant. */
export function heldText(s: Pick<NodeSnapshot, 'heldBytes'>): string {
  return `holds ${withUnit(s.heldBytes / 1e6, 'MB')}`;
}

/** The DATA rates through a node at one instant, as far as its role has them: a midnode's in
 * (from upstream) and out (to downstream) side by side, the producer's out, the consumer's in.
 * "in 19.6 | out 5.45 Mbit/s"; "in – | out –" for a result without the columns. `sep` is ", " for
 * screen readers, which may read a bar aloud. */
export function ratesText(role: HopRole, s: Pick<NodeSnapshot, 'inMbps' | 'outMbps'>, sep = ' | '): string {
  const parts: [string, number][] = [];
  if (role !== 'producer') parts.push(['in', s.inMbps]);
  if (role !== 'consumer') parts.push(['out', s.outMbps]);
  // One unit at the end reads better than one per number; "–" needs none.
  const unit = parts.some(([, v]) => Number.isFinite(v)) ? ' Mbit/s' : '';
  return parts.map(([name, v]) => `${name} ${fmt(v)}`).join(sep) + unit;
}

/** An INTCP flow the hop view can show, for the flow selector. */
export interface PathChoice {
  id: number;
  /** "flow 1 intcp, consumer at node 4". */
  label: string;
  producer: number;
  consumer: number;
  /** The multicast content name, when the scenario gives one. */
  content?: string;
  /** The other flows that request the same content, with their consumers. */
  sharing: { id: number; consumer: number }[];
}

/** The flows with per-node traces, in flow order; flows of one content name name each other. */
export function pathChoices(flows: Pick<FlowSummary, 'id' | 'cc' | 'label'>[], traces: FlowTraces[], scenario: Scenario | null): PathChoice[] {
  const out: PathChoice[] = [];
  for (const tr of traces) {
    const hops = tr.hops;
    if (!hops || hops.length < 2) continue;
    const f = flows.find((x) => x.id === tr.id) ?? { id: tr.id, cc: 'intcp' };
    const spec = scenario?.flows[tr.id];
    const content = spec && spec.transport === 'intcp' && typeof spec.name === 'string' ? spec.name : undefined;
    const consumer = hops[hops.length - 1].node;
    out.push({ id: tr.id, label: `${flowName(f)}, consumer at node ${consumer}`, producer: hops[0].node, consumer, content, sharing: [] });
  }
  for (const c of out) if (c.content !== undefined) c.sharing = out.filter((o) => o.id !== c.id && o.content === c.content).map((o) => ({ id: o.id, consumer: o.consumer }));
  return out;
}

export interface ColumnLayout {
  /** Left margin for the row labels. */
  gutter: number;
  /** Width of one node's column; hop columns are as wide and sit between node columns. */
  column: number;
  /** Width of the whole drawing: wider than `available` when the path needs a scroll. */
  width: number;
}

/** Columns across the width; never narrower than `minColumn`, so a long path scrolls instead. */
export function columnLayout(nodes: number, available: number, o: { gutter?: number; minColumn?: number; maxColumn?: number } = {}): ColumnLayout {
  const gutter = o.gutter ?? 92;
  const minColumn = o.minColumn ?? 150;
  const maxColumn = o.maxColumn ?? 360;
  const n = Math.max(1, nodes);
  const column = Math.max(minColumn, Math.min(maxColumn, Math.floor((available - gutter) / n)));
  return { gutter, column, width: gutter + column * n };
}

/** The nodes whose columns are drawn: first..last, inclusive. */
export interface ColumnRange {
  first: number;
  last: number;
}

/** The columns a viewport of the drawing (`left`, `width` in px) shows, with `overscan` more on
 * either side; every column when there is no viewport. A constellation route's view has a
 * column for every satellite the route crossed (230 over the 10 minutes of the Beijing-New York
 * preset, 35 000 px and 20 000 elements), of which a screen shows a handful. */
export function visibleColumns(layout: ColumnLayout, nodes: number, viewport: { left: number; width: number } | null, overscan = 1): ColumnRange {
  if (!viewport) return { first: 0, last: nodes - 1 };
  const at = (x: number) => Math.floor((x - layout.gutter) / layout.column);
  const clampNode = (k: number) => Math.min(nodes - 1, Math.max(0, k));
  return { first: clampNode(at(viewport.left) - overscan), last: clampNode(at(viewport.left + viewport.width) + overscan) };
}

/** Whether node k's column is drawn. */
export const nodeShown = (r: ColumnRange, k: number) => k >= r.first && k <= r.last;
/** Whether hop k is drawn: it straddles nodes k and k + 1, and shows with either. */
export const hopShown = (r: ColumnRange, k: number) => k + 1 >= r.first && k <= r.last;

/** Centre x of node k, and of hop k (between nodes k and k + 1). */
export const nodeX = (l: ColumnLayout, k: number) => l.gutter + l.column * (k + 0.5);
export const hopX = (l: ColumnLayout, k: number) => l.gutter + l.column * (k + 1);

/** "node 3 (midnode)". */
export function nodeName(n: Pick<PathNode, 'node' | 'role'>): string {
  return `node ${n.node} (${n.role})`;
}
