// The moving path of a constellation run, one value per routing step (the core's
// `path.steps`): above, the path's one-way propagation delay (links only: no queueing, no
// retransmissions); below, its hop count. Each value holds until the next step. The route's
// handovers and route changes are marked under the plots, and under Starlink's scheduler each
// slot boundary is a thin dashed rule, so a step in the delay can be read against the boundary
// that caused it (the marks come with the shared time cursor, timeCursor.ts).

import { useMemo } from 'react';
import type { PathTimeline, RunResult } from '../sim/results';
import { ChartFrame } from './ChartFrame';
import { fmt } from './palette';
import { TimeSeriesChart, type LineSeries, type LowerPanel } from './timeseries/TimeSeriesChart';

const DELAY_COLOR = '#0f766e';
const HOPS_COLOR = '#4a4a4a';

/** The path's columns as the chart draws them: null delays (no path) become gaps. */
export function pathColumns(path: PathTimeline): { t: Float64Array; owd: Float64Array; hops: Float64Array } {
  const s = path.steps;
  const n = s.t_s.length;
  const t = Float64Array.from(s.t_s);
  const owd = new Float64Array(n);
  const hops = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = s.owd_ms[i];
    owd[i] = d ?? NaN;
    // A step without a path has no hops to speak of.
    hops[i] = d === null || d === undefined ? NaN : s.hops[i];
  }
  return { t, owd, hops };
}

/** The handovers by cause (a scheduled terminal's have one) and the route changes. */
export function pathEventCounts(path: PathTimeline): { handovers: number; atSlot: number; lostMidSlot: number; routeChanges: number } {
  let handovers = 0;
  let atSlot = 0;
  let lostMidSlot = 0;
  let routeChanges = 0;
  for (const e of path.events) {
    if (e.kind === 'route_change') routeChanges++;
    else {
      handovers++;
      if (e.cause === 'slot_boundary') atSlot++;
      else if (e.cause === 'lost_mid_slot') lostMidSlot++;
    }
  }
  return { handovers, atSlot, lostMidSlot, routeChanges };
}

function range(v: Float64Array): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const x of v)
    if (Number.isFinite(x)) {
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
  return min <= max ? { min, max } : null;
}

export function PathChart({ result, xDomain, name }: { result: RunResult; xDomain: [number, number]; name: string }) {
  const path = result.path;
  const cols = useMemo(() => (path ? pathColumns(path) : null), [path]);
  const end = xDomain[1];
  const series = useMemo<LineSeries[]>(
    () => (cols ? [{ key: 'path-owd', label: 'path propagation delay (one way)', color: DELAY_COLOR, x: cols.t, y: cols.owd, step: true, extendTo: end, width: 1.8, unit: 'ms' }] : []),
    [cols, end],
  );
  const lower = useMemo<LowerPanel | undefined>(
    () => (cols ? { yLabel: 'hops', height: 90, series: [{ key: 'path-hops', label: 'hops', color: HOPS_COLOR, x: cols.t, y: cols.hops, step: true, extendTo: end, unit: 'hops' }] } : undefined),
    [cols, end],
  );
  if (!path || !cols) return null;

  const owd = range(cols.owd);
  const hops = range(cols.hops);
  const c = pathEventCounts(path);
  const slots = path.slot_boundaries_s ?? [];
  const gaps = cols.owd.filter((x) => Number.isNaN(x)).length;
  const summary = (
    <>
      <p>
        The path from {path.src} to {path.dst}, recomputed every {fmt(path.step_s)} s ({cols.t.length.toLocaleString('en')} steps):{' '}
        {owd && hops
          ? `propagation delay from ${fmt(owd.min, 4)} to ${fmt(owd.max, 4)} ms one way, ${hops.min === hops.max ? `${hops.min} hops throughout` : `${hops.min} to ${hops.max} hops`}`
          : 'no path at any step'}
        {gaps > 0 && owd ? `; no path in ${gaps} step${gaps > 1 ? 's' : ''} (gaps in the lines)` : ''}. The delay is the links' alone: the flows' delays add queueing and retransmissions.
      </p>
      <p>
        {c.handovers} handover{c.handovers === 1 ? '' : 's'}
        {c.atSlot + c.lostMidSlot > 0 ? ` (${c.atSlot} at slot boundaries, ${c.lostMidSlot} with the satellite lost mid-slot)` : ''} and {c.routeChanges} route change
        {c.routeChanges === 1 ? '' : 's'}, {path.routes.length} route{path.routes.length === 1 ? '' : 's'} over {path.nodes_used} satellites and stations.
        {slots.length > 0 ? ` The scheduler's slot boundaries (dashed) fall at ${slots.slice(0, 6).map((t) => `${fmt(t, 4)}`).join(', ')}${slots.length > 6 ? ', …' : ''} s.` : ''}
      </p>
      {path.grid_report && <p data-testid="grid-report">The element sets' grid, as inferred: {path.grid_report}</p>}
    </>
  );
  return (
    <ChartFrame testid="chart-path" title="Path: propagation delay and hops" exportName={`${name}-path`} summary={summary}>
      {(width) => <TimeSeriesChart title="path" width={width} xLabel="time (s)" yLabel="delay (ms)" xDomain={xDomain} series={series} lower={lower} yZero={false} />}
    </ChartFrame>
  );
}
