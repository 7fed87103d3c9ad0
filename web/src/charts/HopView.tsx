// size: the strip, its read-outs and the small multiples share one time cursor and layout;
// the held-bytes row (from main) took it to 602 lines, and a split of the rows is open work.
// The INTCP hop view: the path of one flow as a strip of nodes, producer on the left and
// consumer on the right, with small multiples over time below it. Between each pair of nodes
// sits that hop's rate (asked by the downstream node, paced by the upstream one) with its
// re-requests ticked on the time axis; under each node its send queue, its cache and what it holds
// for downstream. The page's time cursor (timeCursor.ts, shared with the globe) sets the instant
// the strip shows: each node's queue, cache and held bytes as bars, with the DATA rates in (from
// upstream) and out (to downstream) beside each other, and each hop's paced rate as the link's
// thickness. The view moves it with a slider, a drag on any small multiple, or Play.
//
// Held bytes and the rates in and out say what a midnode's cache does on a path with a slow
// downstream link (docs/intcp-caching.md): in 19 Mbit/s, out 5, the held bytes growing; then the
// reverse. The cache's occupancy alone does not: it keeps what was already sent downstream.
//
// Everything is one SVG (so the export buttons carry all of it) inside a box that scrolls
// sideways when the path is long (a constellation route has about 20 nodes). The small
// multiples depend on the run, the flow and the width only. The cursor moves up to 60 times a
// second while playing: the slider, its read-out and the cursor rules follow every move
// imperatively, and the strip (the one part that needs React) re-renders at most
// STRIP_UPDATES_PER_S times a second, or at once for a move made by hand. The pure parts are in
// hopModel.ts.

import { memo, useContext, useEffect, useId, useMemo, useRef, useState, type PointerEvent } from 'react';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { decimate } from './decimate';
import { Legend, layoutLegend } from './Legend';
import {
  columnLayout,
  heldMean,
  heldText,
  hopX,
  nodeName,
  nodeX,
  pathChoices,
  pathModel,
  peak,
  ratesText,
  snapshotAt,
  withUnit,
  type ColumnLayout,
  type PathModel,
  type PathSnapshot,
  type TimeColumn,
} from './hopModel';
import { NO_EXPORT } from './exportChart';
import { fmt } from './palette';
import { TimeCursorContext, useThrottledCursor, type TimeCursor } from '../timeCursor';
import { clamp, TimeControls } from './HopTimeControls';

const ADVERTISED_COLOR = '#0072B2';
const PACED_COLOR = '#D55E00';
const QUEUE_COLOR = '#009E73';
const CACHE_COLOR = '#CC79A7';
const HELD_COLOR = '#E69F00';
const RTX_COLOR = '#b3261e';
const LINK_COLOR = '#8c959f';

/** Vertical layout, in pixels from the top of the SVG. */
const NODE_Y = 46;
const NODE_R = 15;
const BAR_TOP = 86;
const BAR_H = 56;
const BAR_W = 16;
/** The lines of text under the bars: queue and cache, held bytes, rates in and out. */
const BAR_TEXT_Y = [13, 27, 41];
const STRIP_H = 200;
/** Small multiples: left pad for the y ticks, plot height, room for the time axis below. */
const PAD_LEFT = 34;
const PAD_RIGHT = 10;
const RATE_H = 84;
const RTX_BAND = 9;
const NODE_PLOT_H = 58;
const AXIS_H = 22;
const ROW_GAP = 14;
const MAX_LINK_W = 14;
/** Paths with more nodes than this fold their per-hop numbers away. */
const LONG_PATH_NODES = 6;
/** How often the strip and the screen-reader text follow a moving cursor. */
const STRIP_UPDATES_PER_S = 12;

const mb = (bytes: number) => bytes / 1e6;

export function HopView({ result, scenario, xDomain, name }: { result: RunResult; scenario: Scenario | null; xDomain: [number, number]; name: string }) {
  const choices = useMemo(() => pathChoices(result.summary.flows, result.traces?.flows ?? [], scenario), [result, scenario]);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const choice = choices.find((c) => c.id === picked) ?? choices[0];
  const model = useMemo(() => {
    const tr = choice && result.traces?.flows.find((f) => f.id === choice.id);
    return tr ? pathModel(tr) : null;
  }, [choice, result]);
  const cursor = useContext(TimeCursorContext);
  const strip = useThrottledCursor(cursor, 1000 / STRIP_UPDATES_PER_S);
  const at = clamp(strip.t, xDomain);
  const [playing, setPlaying] = useState(false);
  const snapshot = useMemo(() => (model ? snapshotAt(model, at) : null), [model, at]);
  const selectId = useId();

  if (!choice || !model || !snapshot) return null;

  const controls =
    choices.length > 1 ? (
      <label htmlFor={selectId}>
        Flow{' '}
        <select id={selectId} value={choice.id} onChange={(e) => setPicked(Number(e.target.value))} data-testid="hop-flow">
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
              {c.content !== undefined ? ` (content "${c.content}")` : ''}
            </option>
          ))}
        </select>
      </label>
    ) : null;

  const summary = (
    <>
      <p>
        How INTCP moves {choice.label}: DATA flows left to right, from the producer (node {choice.producer}) to the consumer (node {choice.consumer}). On every hop the downstream
        node asks for a rate (advertised) and the upstream node paces its sending to it with a token bucket (paced). Re-requests are ticked on the hop they went over: a node that
        sees a gap asks the node before it, whose cache still holds the data.
      </p>
      {choice.content !== undefined && choice.sharing.length > 0 && (
        <p data-testid="hop-sharing">
          Content &quot;{choice.content}&quot; is also requested by {choice.sharing.map((s) => `flow ${s.id} (consumer at node ${s.consumer})`).join(', ')}: the nodes they share
          hold one cached copy for all of them, so later consumers are served from a midnode instead of the producer.
        </p>
      )}
      {/* On a long path the numbers fill a page: folded away, open by default on short ones. */}
      <details open={model.nodes.length <= LONG_PATH_NODES}>
        <summary>Numbers per hop and per node</summary>
        {model.hops.map((h, k) => (
          <p key={`hop-${k}`}>
            Hop node {h.from} → node {h.to}: paced {fmt(heldMean(h.paced, xDomain[0], xDomain[1]))} Mbit/s and asked {fmt(heldMean(h.advertised, xDomain[0], xDomain[1]))} Mbit/s on
            average, {h.totalRetransmissions.toLocaleString('en')} re-requests.
          </p>
        ))}
        {model.nodes.map((n) => (
          <p key={`node-${n.node}`}>
            {nodeName(n)}: send queue up to {withUnit(peak(n.queue), 'packets')}, cache up to {withUnit(mb(peak(n.cache)), 'MB')}, holding up to {withUnit(mb(peak(n.held)), 'MB')} for
            downstream; DATA {ratesText(n.role, { inMbps: heldMean(n.inRate, xDomain[0], xDomain[1]), outMbps: heldMean(n.outRate, xDomain[0], xDomain[1]) }, ', ')} on average.
          </p>
        ))}
      </details>
    </>
  );

  return (
    <ChartFrame testid="chart-hops" title="INTCP hop view" exportName={`${name}-hops-flow${choice.id}`} summary={summary} controls={controls} wide>
      {(width) => (
        <div className="hop-view">
          <TimeControls domain={xDomain} cursor={cursor} playing={playing} setPlaying={setPlaying} byHand={strip.now} />
          {/* Silent while playing: sixty announcements a second help nobody. */}
          <p className="visually-hidden" aria-live={playing ? 'off' : 'polite'} data-testid="hop-readout">
            {describeSnapshot(model, snapshot, at)}
          </p>
          <div className="hop-scroll" tabIndex={0} role="region" aria-label="The path, node by node (scrolls sideways when it is long)">
            <HopDiagram model={model} snapshot={snapshot} at={at} cursor={cursor} xDomain={xDomain} width={width} byHand={strip.now} />
          </div>
        </div>
      )}
    </ChartFrame>
  );
}

/** What the strip shows at the cursor, in words, for screen readers. */
function describeSnapshot(model: PathModel, s: PathSnapshot, at: number): string {
  const nodes = model.nodes.map((n, k) => {
    const v = s.nodes[k];
    return `${nodeName(n)} queue ${withUnit(v.queuePkts, 'packets')}, cache ${withUnit(mb(v.cacheBytes), 'MB')}, ${heldText(v)}, ${ratesText(n.role, v, ', ')}`;
  });
  const hops = model.hops.map(
    (h, k) => `hop ${h.from} → ${h.to} paced ${fmt(s.hops[k].pacedMbps)} Mbit/s, asked ${fmt(s.hops[k].advertisedMbps)} Mbit/s, ${s.hops[k].retransmissions} re-requests so far`,
  );
  return `At ${fmt(at, 4)} s: ${[...nodes, ...hops].join('; ')}.`;
}

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
}

/** Where each row of small multiples starts, and the SVG's height. */
function rows(legendH: number) {
  const legendTop = STRIP_H;
  const rate = legendTop + legendH + 10;
  const queue = rate + RATE_H + RTX_BAND + AXIS_H + ROW_GAP;
  const cache = queue + NODE_PLOT_H + AXIS_H + ROW_GAP;
  const held = cache + NODE_PLOT_H + AXIS_H + ROW_GAP;
  return {
    legendTop,
    rate,
    queue,
    cache,
    held,
    height: held + NODE_PLOT_H + AXIS_H + 6,
  };
}

function HopDiagram({ model, snapshot, at, cursor, xDomain, width, byHand }: DiagramProps) {
  const layout = useMemo(() => columnLayout(model.nodes.length, width), [model, width]);
  const plotW = Math.max(40, layout.column * 0.9 - PAD_LEFT - PAD_RIGHT);
  const xs = useMemo(() => scaleLinear().domain(xDomain).range([0, plotW]), [xDomain, plotW]);
  const legend = useMemo(
    () =>
      layoutLegend(
        [
          {
            label: 'asked rate (advertised by the downstream node)',
            color: ADVERTISED_COLOR,
          },
          {
            label: 'paced rate (token bucket of the upstream node)',
            color: PACED_COLOR,
          },
          { label: 're-requests', color: RTX_COLOR, kind: 'swatch' },
          { label: 'send queue', color: QUEUE_COLOR, kind: 'swatch' },
          { label: 'cache', color: CACHE_COLOR, kind: 'swatch' },
          { label: 'held for downstream', color: HELD_COLOR, kind: 'swatch' },
        ],
        Math.max(200, Math.min(width, layout.width) - layout.gutter),
      ),
    [width, layout],
  );
  const r = useMemo(() => rows(legend.height), [legend.height]);
  const left = (centre: number) => centre - layout.column * 0.45 + PAD_LEFT;
  const rulesRef = useRef<SVGGElement>(null);
  // The rules follow every move of the cursor; React draws them once, at x = 0 of each plot.
  useEffect(() => {
    const g = rulesRef.current;
    if (!g) return;
    const place = (t: number) => g.setAttribute('transform', `translate(${xs(clamp(t, xDomain))},0)`);
    place(cursor.get());
    return cursor.subscribe(place);
  }, [cursor, xs, xDomain]);
  const onCursor = (t: number) => {
    cursor.set(t, 'chart');
    byHand();
  };
  return (
    <svg
      className="chart-svg hop-svg"
      width={layout.width}
      height={r.height}
      role="img"
      aria-label="INTCP hop view: the path's nodes with each hop's rate and each node's queue, cache and bytes held for downstream over time"
    >
      <Strip model={model} snapshot={snapshot} layout={layout} at={at} />
      <Legend layout={legend} x={layout.gutter} y={r.legendTop} />
      <Multiples model={model} layout={layout} xs={xs} plotW={plotW} rowTops={r} />
      {/* Exported with the rest: the strip shows this instant, the rules say which it is. */}
      <g ref={rulesRef} className="hop-cursor-rules" pointerEvents="none" data-testid="hop-cursor-rules">
        {model.hops.map((_, k) => (
          <line key={`h${k}`} className="hover-rule" x1={left(hopX(layout, k))} x2={left(hopX(layout, k))} y1={r.rate} y2={r.rate + RATE_H + RTX_BAND} />
        ))}
        {model.nodes.map((_, k) =>
          [r.queue, r.cache, r.held].map((top) => (
            <line key={`n${k}-${top}`} className="hover-rule" x1={left(nodeX(layout, k))} x2={left(nodeX(layout, k))} y1={top} y2={top + NODE_PLOT_H} />
          )),
        )}
      </g>
      <Scrubbers model={model} layout={layout} xs={xs} plotW={plotW} rowTops={r} onCursor={onCursor} />
    </svg>
  );
}

/** The nodes, the links between them and the bars under them, at the cursor. */
function Strip({ model, snapshot, layout, at }: { model: PathModel; snapshot: PathSnapshot; layout: ColumnLayout; at: number }) {
  const linkW = scaleLinear()
    .domain([0, Math.max(1e-9, model.maxRateMbps)])
    .range([1, MAX_LINK_W])
    .clamp(true);
  const queueH = scaleLinear()
    .domain([0, Math.max(1, model.maxQueuePkts)])
    .range([0, BAR_H])
    .clamp(true);
  const cacheH = scaleLinear()
    .domain([0, Math.max(1, model.maxCacheBytes)])
    .range([0, BAR_H])
    .clamp(true);
  const heldH = scaleLinear()
    .domain([0, Math.max(1, model.maxHeldBytes)])
    .range([0, BAR_H])
    .clamp(true);
  const barBase = BAR_TOP + BAR_H;
  /** A bar's height; none for a value the result lacks. */
  const bar = (h: (v: number) => number, v: number) => (Number.isFinite(v) ? h(v) : 0);
  return (
    <g className="hop-strip">
      <text className="hop-row-label" x={6} y={NODE_Y - 7} dominantBaseline="central">
        path at
      </text>
      <text className="hop-row-label" x={6} y={NODE_Y + 7} dominantBaseline="central">
        t = {fmt(at, 4)} s
      </text>
      <RowLabel y={BAR_TOP + BAR_H / 2} lines={['queue,', 'cache,', 'held']} />
      <text className="hop-row-label" x={6} y={barBase + BAR_TEXT_Y[2]} dominantBaseline="central">
        DATA rates
      </text>
      {model.hops.map((h, k) => {
        const s = snapshot.hops[k];
        const x0 = nodeX(layout, k) + NODE_R + 2;
        const x1 = nodeX(layout, k + 1) - NODE_R - 6;
        const cx = hopX(layout, k);
        const paced = Number.isFinite(s.pacedMbps) ? s.pacedMbps : 0;
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
        const s = snapshot.nodes[k];
        const cx = nodeX(layout, k);
        const queueX = cx - 1.5 * BAR_W - 3;
        return (
          <g key={n.node} data-testid="hop-node" data-node={n.node} data-role={n.role}>
            <text className="hop-role" x={cx} y={NODE_Y - NODE_R - 10} textAnchor="middle">
              {n.role}
            </text>
            <circle cx={cx} cy={NODE_Y} r={NODE_R} className={`hop-node-dot hop-${n.role}`} />
            <text className="hop-node-id" x={cx} y={NODE_Y} textAnchor="middle" dominantBaseline="central">
              {n.node}
            </text>
            <line x1={queueX - 4} x2={cx + 1.5 * BAR_W + 7} y1={barBase} y2={barBase} stroke="#8c959f" />
            <rect
              x={queueX}
              y={barBase - bar(queueH, s.queuePkts)}
              width={BAR_W}
              height={bar(queueH, s.queuePkts)}
              fill={QUEUE_COLOR}
              data-testid="hop-queue-bar"
              data-value={barValue(s.queuePkts)}
            />
            <rect
              x={cx - BAR_W / 2}
              y={barBase - bar(cacheH, s.cacheBytes)}
              width={BAR_W}
              height={bar(cacheH, s.cacheBytes)}
              fill={CACHE_COLOR}
              data-testid="hop-cache-bar"
              data-value={barValue(s.cacheBytes)}
            />
            <rect
              x={cx + BAR_W / 2 + 3}
              y={barBase - bar(heldH, s.heldBytes)}
              width={BAR_W}
              height={bar(heldH, s.heldBytes)}
              fill={HELD_COLOR}
              data-testid="hop-held-bar"
              data-value={barValue(s.heldBytes)}
            />
            <text className="hop-bar-label" x={cx} y={barBase + BAR_TEXT_Y[0]} textAnchor="middle">
              {fmt(s.queuePkts)} pkts | {withUnit(mb(s.cacheBytes), 'MB')}
            </text>
            <text className="hop-bar-label" x={cx} y={barBase + BAR_TEXT_Y[1]} textAnchor="middle" data-testid="hop-held">
              {heldText(s)}
            </text>
            <text className="hop-bar-label" x={cx} y={barBase + BAR_TEXT_Y[2]} textAnchor="middle" data-testid="hop-rates">
              {ratesText(n.role, s)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** A bar's value for tests and tools: 0, as its height, for a value not known at the cursor. */
const barValue = (v: number) => (Number.isFinite(v) ? v : 0);

interface MultiplesProps {
  model: PathModel;
  layout: ColumnLayout;
  xs: ScaleLinear<number, number>;
  plotW: number;
  rowTops: ReturnType<typeof rows>;
}

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

/** The small multiples: one rate plot per hop; one queue, one cache and one held plot per node. */
const Multiples = memo(function Multiples({ model, layout, xs, plotW, rowTops }: MultiplesProps) {
  const rate = scaleLinear()
    .domain([0, Math.max(1, model.maxRateMbps)])
    .range([RATE_H, 0])
    .nice();
  const queue = scaleLinear()
    .domain([0, Math.max(1, model.maxQueuePkts)])
    .range([NODE_PLOT_H, 0])
    .nice();
  const cache = scaleLinear()
    .domain([0, Math.max(1, mb(model.maxCacheBytes))])
    .range([NODE_PLOT_H, 0])
    .nice();
  const held = scaleLinear()
    .domain([0, Math.max(1, mb(model.maxHeldBytes))])
    .range([NODE_PLOT_H, 0])
    .nice();
  const left = (centre: number) => centre - layout.column * 0.45 + PAD_LEFT;
  const rtxTicks = (c: TimeColumn) => Array.from(c.t, (t) => `M${xs(t)},${RATE_H + 1}v${RTX_BAND - 2}`).join('');
  return (
    <g className="hop-multiples">
      <RowLabel y={rowTops.rate + RATE_H / 2} lines={['rate of', 'each hop', '(Mbit/s)']} />
      <RowLabel y={rowTops.queue + NODE_PLOT_H / 2} lines={['send queue', '(packets)']} />
      <RowLabel y={rowTops.cache + NODE_PLOT_H / 2} lines={['cache (MB)']} />
      <RowLabel y={rowTops.held + NODE_PLOT_H / 2} lines={['held for', 'downstream', '(MB)']} />
      {model.hops.map((h, k) => (
        <g key={`rate-${k}`} transform={`translate(${left(hopX(layout, k))},${rowTops.rate})`} data-testid="hop-rate" data-hop={k}>
          <Frame xs={xs} ys={rate} h={RATE_H} axisY={RATE_H + RTX_BAND} title={`node ${h.from} → ${h.to}`} />
          <path
            d={stepPath(h.advertised, xs, rate, plotW)}
            fill="none"
            stroke={ADVERTISED_COLOR}
            strokeWidth={1.4}
            data-testid="hop-series"
            data-series="advertised"
            data-points={h.advertised.t.length}
          />
          <path
            d={stepPath(h.paced, xs, rate, plotW)}
            fill="none"
            stroke={PACED_COLOR}
            strokeWidth={1.4}
            data-testid="hop-series"
            data-series="paced"
            data-points={h.paced.t.length}
          />
          <path
            d={rtxTicks(h.retransmissions)}
            stroke={RTX_COLOR}
            strokeWidth={1}
            data-testid="rtx-marker"
            data-points={h.retransmissions.t.length}
            data-total={h.totalRetransmissions}
          />
        </g>
      ))}
      {model.nodes.map((n, k) => (
        <g key={`node-${n.node}`}>
          <g transform={`translate(${left(nodeX(layout, k))},${rowTops.queue})`} data-testid="hop-queue" data-node={n.node}>
            <Frame xs={xs} ys={queue} h={NODE_PLOT_H} axisY={NODE_PLOT_H} title={`node ${n.node}`} />
            <path
              d={stepPath(n.queue, xs, queue, plotW)}
              fill="none"
              stroke={QUEUE_COLOR}
              strokeWidth={1.4}
              data-testid="hop-series"
              data-series="queue"
              data-points={n.queue.t.length}
            />
          </g>
          <g transform={`translate(${left(nodeX(layout, k))},${rowTops.cache})`} data-testid="hop-cache" data-node={n.node}>
            <Frame xs={xs} ys={cache} h={NODE_PLOT_H} axisY={NODE_PLOT_H} title={`node ${n.node}`} />
            <path
              d={stepPath({ t: n.cache.t, v: n.cache.v.map(mb) }, xs, cache, plotW)}
              fill="none"
              stroke={CACHE_COLOR}
              strokeWidth={1.4}
              data-testid="hop-series"
              data-series="cache"
              data-points={n.cache.t.length}
            />
          </g>
          <g transform={`translate(${left(nodeX(layout, k))},${rowTops.held})`} data-testid="hop-held-plot" data-node={n.node}>
            <Frame xs={xs} ys={held} h={NODE_PLOT_H} axisY={NODE_PLOT_H} title={`node ${n.node}`} />
            <path
              d={stepPath({ t: n.held.t, v: n.held.v.map(mb) }, xs, held, plotW)}
              fill="none"
              stroke={HELD_COLOR}
              strokeWidth={1.4}
              data-testid="hop-series"
              data-series="held"
              data-points={n.held.t.length}
            />
            {n.held.v.length === 0 && (
              <text className="hop-plot-title" x={plotW / 2} y={NODE_PLOT_H / 2} textAnchor="middle" dominantBaseline="central">
                – (not in this result)
              </text>
            )}
          </g>
        </g>
      ))}
    </g>
  );
});

function RowLabel({ y, lines }: { y: number; lines: string[] }) {
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

/** A small multiple's grid, y ticks, time axis and title; React renders the ticks d3 picks. */
function Frame({ xs, ys, h, axisY, title }: { xs: ScaleLinear<number, number>; ys: ScaleLinear<number, number>; h: number; axisY: number; title: string }) {
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

/** Transparent rects over every small multiple: press or drag to move the cursor there. */
function Scrubbers({ model, layout, xs, plotW, rowTops, onCursor }: MultiplesProps & { onCursor: (t: number) => void }) {
  const left = (centre: number) => centre - layout.column * 0.45 + PAD_LEFT;
  const move = (e: PointerEvent<SVGRectElement>) => {
    if (e.type === 'pointermove' && !e.buttons) return;
    const box = e.currentTarget.getBoundingClientRect();
    const [a, b] = xs.domain();
    onCursor(Math.min(b, Math.max(a, xs.invert(((e.clientX - box.left) / box.width) * plotW))));
  };
  const rect = (key: string, x: number, y: number, h: number) => (
    <rect
      key={key}
      className="overlay"
      x={x}
      y={y}
      width={plotW}
      height={h}
      fill="transparent"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        move(e);
      }}
      onPointerMove={move}
    />
  );
  return (
    <g className={NO_EXPORT}>
      {model.hops.map((_, k) => rect(`h${k}`, left(hopX(layout, k)), rowTops.rate, RATE_H + RTX_BAND))}
      {model.nodes.map((_, k) => [
        rect(`q${k}`, left(nodeX(layout, k)), rowTops.queue, NODE_PLOT_H),
        rect(`c${k}`, left(nodeX(layout, k)), rowTops.cache, NODE_PLOT_H),
        rect(`d${k}`, left(nodeX(layout, k)), rowTops.held, NODE_PLOT_H),
      ])}
    </g>
  );
}
