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
// This file picks the flow and says in words what the drawing (HopDiagram.tsx) shows. The cursor
// moves up to 60 times a second while playing: the slider, its read-out and the cursor rules
// follow every move imperatively, and the strip (the one part that needs React) re-renders at
// most STRIP_UPDATES_PER_S times a second, or at once for a move made by hand. The pure parts
// are in hopModel.ts.

import { useContext, useEffect, useId, useMemo, useState } from 'react';
import type { RunResult } from '../sim/results';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { Fold } from '../Fold';
import { heldMean, heldText, nodeName, pathChoices, pathModel, peak, ratesText, snapshotAt, withUnit, type PathModel, type PathSnapshot, type TimeColumn } from './hopModel';
import { HopDiagram } from './HopDiagram';
import { mb } from './hopQuantities';
import { fmt } from './palette';
import { TimeCursorContext, useThrottledCursor } from '../timeCursor';
import { clamp, TimeControls } from './HopTimeControls';

/** Paths with more nodes than this fold their per-hop numbers away. */
const LONG_PATH_NODES = 6;
/** How often the strip and the screen-reader text follow a moving cursor. */
const STRIP_UPDATES_PER_S = 12;
/** The scroll position the drawing follows, in steps of this many px: a scroll within a step
 * redraws nothing, and the drawing reaches a step past the view's right edge. */
const SCROLL_STEP = 100;

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
  const [scrollStep, setScrollStep] = useState(0);
  // Exports waiting for every column to be drawn: they run once the columns are in the page.
  const [pendingExports, setPendingExports] = useState<(() => void)[]>([]);
  useEffect(() => {
    if (pendingExports.length === 0) return;
    for (const use of pendingExports) use();
    setPendingExports([]);
  }, [pendingExports]);

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

  const mean = (c: TimeColumn) => heldMean(c, xDomain[0], xDomain[1]);
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
      <Fold open={model.nodes.length <= LONG_PATH_NODES} summary="Numbers per hop and per node">
        {() => (
          <>
            {model.hops.map((h, k) => (
              <p key={`hop-${k}`}>
                Hop node {h.from} → node {h.to}: paced {fmt(mean(h.paced))} Mbit/s and asked {fmt(mean(h.advertised))} Mbit/s on average,{' '}
                {h.totalRetransmissions.toLocaleString('en')} re-requests.
              </p>
            ))}
            {model.nodes.map((n) => (
              <p key={`node-${n.node}`}>
                {nodeName(n)}: send queue up to {withUnit(peak(n.queue), 'packets')}, cache up to {withUnit(mb(peak(n.cache)), 'MB')}, holding up to{' '}
                {withUnit(mb(peak(n.held)), 'MB')} for downstream; DATA {ratesText(n.role, { inMbps: mean(n.inRate), outMbps: mean(n.outRate) }, ', ')} on average.
              </p>
            ))}
          </>
        )}
      </Fold>
    </>
  );

  return (
    <ChartFrame
      testid="chart-hops"
      title="INTCP hop view"
      exportName={`${name}-hops-flow${choice.id}`}
      summary={summary}
      controls={controls}
      wide
      wholeDrawing={(use) => setPendingExports((waiting) => [...waiting, use])}
    >
      {(width) => (
        <div className="hop-view">
          <TimeControls domain={xDomain} cursor={cursor} playing={playing} setPlaying={setPlaying} byHand={strip.now} />
          {/* Silent while playing: sixty announcements a second help nobody. */}
          <p className="visually-hidden" aria-live={playing ? 'off' : 'polite'} data-testid="hop-readout">
            {describeSnapshot(model, snapshot, at)}
          </p>
          <div
            className="hop-scroll"
            tabIndex={0}
            role="region"
            aria-label="The path, node by node (scrolls sideways when it is long)"
            onScroll={(e) => setScrollStep(Math.floor(e.currentTarget.scrollLeft / SCROLL_STEP))}
          >
            <HopDiagram
              model={model}
              snapshot={snapshot}
              at={at}
              cursor={cursor}
              xDomain={xDomain}
              width={width}
              byHand={strip.now}
              viewport={pendingExports.length > 0 ? null : { left: scrollStep * SCROLL_STEP, width: width + SCROLL_STEP }}
            />
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
