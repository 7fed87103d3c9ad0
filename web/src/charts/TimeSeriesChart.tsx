// The shared base of the time-series charts (and the delay CDF): lines over a numeric x axis
// with axes and units, a legend, a hover read-out with a vertical rule, and zoom/pan on x with
// d3-zoom (wheel and drag, plus buttons for the keyboard). React renders the SVG; the axes, the
// zoom behaviour and the hover read-out go through refs and effects, so moving the pointer never
// re-renders anything. Lines are decimated for display (decimate.ts) once per zoom and width.

import { memo, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog, type ScaleContinuousNumeric, type ScaleLinear } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import { curveLinear, curveStepAfter, line } from 'd3-shape';
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { decimate, lowerBound, upperBound } from './decimate';
import { Legend, layoutLegend, type LegendItem } from './Legend';
import { NO_EXPORT } from './exportChart';
import { fmt, PAPER_COLOR } from './palette';
import type { ClaimMark } from './PaperClaims';
import { ChartTimeContext, type TimeMark } from '../timeCursor';

/** A data line: column x (sorted ascending) against column y. NaN in y is a gap. */
export interface LineSeries {
  key: string;
  label: string;
  color: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** Hold each value until the next point (cwnd, queues, binned goodput). */
  step?: boolean;
  dash?: string;
  width?: number;
  /** For step lines: where the last value ends (the end of the last bin). */
  extendTo?: number;
  /** Left out of the legend (e.g. when a sibling line already names the flow). */
  noLegend?: boolean;
  /** The unit after values in the read-out. */
  unit?: string;
  opacity?: number;
  /** The path's data-testid: "series" (the default) for the main lines, another for companions. */
  testid?: string;
}

/** A line given by a formula, sampled at the current zoom (analytic overlays). */
export interface FnSeries {
  key: string;
  label: string;
  color: string;
  fn: (x: number) => number;
  dash?: string;
  unit?: string;
}

/** A horizontal reference (paper values, buffer sizes). */
export interface RefLine {
  key: string;
  label: string;
  y: number;
  color: string;
  dash?: string;
}

/** A categorical state along x, drawn as a strip under the plot (the congestion state). */
export interface Ribbon {
  key: string;
  /** Short row label, drawn in the left margin. */
  label: string;
  /** Full name for the read-out. */
  name: string;
  x: ArrayLike<number>;
  v: ArrayLike<number>;
  end: number;
}

export interface RibbonSpec {
  rows: Ribbon[];
  names: readonly string[];
  colors: readonly string[];
  /** Higher wins when several states share a pixel column (recovery over avoidance). */
  priority: readonly number[];
}

/** Instants marked with a small hollow diamond at height y (events such as CTCP's decodes);
 * at the current zoom at most one is drawn per two pixel columns. */
export interface MarkerSeries {
  key: string;
  label: string;
  color: string;
  /** Sorted ascending. */
  x: ArrayLike<number>;
  /** One height for every marker, or one per marker. */
  y: number | ArrayLike<number>;
  testid?: string;
}

/** A second plot under the main one with its own y axis, sharing x, zoom, legend and read-out. */
export interface LowerPanel {
  yLabel: string;
  series: LineSeries[];
  refs?: RefLine[];
  /** Plot height in pixels (default 140). */
  height?: number;
  yZero?: boolean;
}

export interface TimeSeriesProps {
  title: string;
  width: number;
  plotHeight?: number;
  xLabel: string;
  yLabel: string;
  xDomain: [number, number];
  series: LineSeries[];
  fns?: FnSeries[];
  refs?: RefLine[];
  ribbons?: RibbonSpec;
  /** Start the y axis at 0 when all values are positive (default true). */
  yZero?: boolean;
  /** Logarithmic y axis (values <= 0 are not drawn). */
  yLog?: boolean;
  /** Name of x in the read-out, e.g. "t". */
  xName?: string;
  xUnit?: string;
  zoomable?: boolean;
  markers?: MarkerSeries[];
  lower?: LowerPanel;
  /** x is simulation time, so the shared time cursor and the route's events are drawn (when a
   * ChartTimeContext is given). Default: when xName is "t". */
  timeAxis?: boolean;
  /** The paper's statements drawn on the plot (PaperClaims' claimMarks), in the paper colour. */
  paper?: ClaimMark[];
  /** Legend entries that belong to no one series (e.g. what a dash means), after the series. */
  legendExtra?: LegendItem[];
}

const MARGIN = { left: 62, right: 18 };
const RIBBON_H = 10;
const RIBBON_GAP = 3;
const MAX_ZOOM = 100_000;
const LOWER_GAP = 16;
const NO_MARKERS: MarkerSeries[] = [];
const NO_SERIES: LineSeries[] = [];
const NO_REFS: RefLine[] = [];
const NO_PAPER: ClaimMark[] = [];
const NO_ITEMS: LegendItem[] = [];
const PAPER_DASH = '4 3';
const MARK_COLORS: Record<TimeMark['kind'], string> = { handover: '#c2410c', route_change: '#6d28d9' };
const MARK_KINDS: TimeMark['kind'][] = ['handover', 'route_change'];

type Pt = [number, number];

/** Runs of equal state: start x and state of each (a trace of 100k points has a few hundred). */
export function stateRuns(x: ArrayLike<number>, v: ArrayLike<number>): { x: Float64Array; s: Int8Array } {
  const n = Math.min(x.length, v.length);
  const xs: number[] = [];
  const ss: number[] = [];
  let prev = NaN;
  for (let i = 0; i < n; i++) {
    const s = v[i];
    if (s !== prev && !(s !== s && prev !== prev)) {
      xs.push(x[i]);
      ss.push(s >= 0 ? s : -1);
      prev = s;
    }
  }
  return { x: Float64Array.from(xs), s: Int8Array.from(ss) };
}

function ribbonRects(runs: { x: Float64Array; s: Int8Array }, end: number, xs: ScaleLinear<number, number>, widthPx: number, priority: readonly number[]) {
  // Per pixel column the highest-priority state present; then runs of equal columns as rects.
  const cols = Math.max(1, Math.ceil(widthPx));
  const cell = new Int8Array(cols).fill(-1);
  const [a, b] = xs.domain();
  const n = runs.x.length;
  const lo = Math.max(0, upperBound(runs.x, a));
  const hi = upperBound(runs.x, b);
  const rank = (s: number) => (s >= 0 && s < priority.length ? priority[s] : -1);
  for (let i = lo; i <= hi; i++) {
    const s = runs.s[i];
    if (s < 0) continue;
    const x0 = xs(runs.x[i]);
    const x1 = xs(i + 1 < n ? runs.x[i + 1] : end);
    const c0 = Math.max(0, Math.floor(x0));
    const c1 = Math.min(cols - 1, Math.max(c0, Math.ceil(x1) - 1));
    const r = rank(s);
    for (let c = c0; c <= c1; c++) if (cell[c] < 0 || r > rank(cell[c])) cell[c] = s;
  }
  // One path per state: a run of equal columns is one rectangle of the state's path.
  const d: string[] = [];
  for (let c = 0; c < cols; ) {
    const s = cell[c];
    let e = c + 1;
    while (e < cols && cell[e] === s) e++;
    if (s >= 0) d[s] = (d[s] ?? '') + `M${c},0h${e - c}v${RIBBON_H}h${c - e}Z`;
    c = e;
  }
  return d;
}

/** The value a series shows at x: the held value for steps, the nearest point otherwise. */
function valueAt(s: LineSeries, x: number): { i: number; y: number } | null {
  const n = Math.min(s.x.length, s.y.length);
  if (n === 0) return null;
  let i: number;
  if (s.step) {
    i = upperBound(s.x, x);
    if (i < 0) return null;
    if (i === n - 1 && x > (s.extendTo ?? s.x[n - 1])) return null;
  } else {
    const j = lowerBound(s.x, x);
    if (j >= n) i = n - 1;
    else if (j === 0) i = 0;
    else i = x - s.x[j - 1] <= s.x[j] - x ? j - 1 : j;
  }
  return { i, y: s.y[i] };
}

/** A y scale over the decimated points in view of `series` and the `extra` values. */
function yScale(
  series: LineSeries[],
  decimated: Uint32Array[],
  extra: number[],
  o: { va: number; vb: number; yZero: boolean; yLog: boolean; h: number },
): ScaleContinuousNumeric<number, number> {
  let lo = Infinity;
  let hi = -Infinity;
  const take = (v: number) => {
    if (Number.isFinite(v) && (!o.yLog || v > 0)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  };
  series.forEach((s, k) => {
    for (const i of decimated[k]) {
      const xi = s.x[i];
      if (xi <= o.vb && (xi >= o.va || s.step)) take(s.y[i]);
    }
  });
  for (const v of extra) take(v);
  if (o.yLog) {
    if (!(hi >= lo)) {
      lo = 1;
      hi = 10;
    }
    return scaleLog()
      .domain([lo / 1.3, Math.max(hi * 1.3, lo * 10)])
      .range([o.h, 0])
      .nice() as ScaleContinuousNumeric<number, number>;
  }
  if (!(hi >= lo)) {
    lo = 0;
    hi = 1;
  }
  if (o.yZero && lo >= 0) lo = 0;
  if (hi === lo) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  return scaleLinear()
    .domain([lo, hi + pad])
    .range([o.h, 0])
    .nice() as ScaleContinuousNumeric<number, number>;
}

/** The SVG path of each series' decimated points. */
function linePaths(series: LineSeries[], decimated: Uint32Array[], xs: ScaleLinear<number, number>, ys: ScaleContinuousNumeric<number, number>): string[] {
  const gen = line<Pt>()
    .x((d) => d[0])
    .y((d) => d[1])
    .defined((d) => Number.isFinite(d[1]));
  return series.map((s, k) => {
    const idx = decimated[k];
    const pts: Pt[] = new Array(idx.length);
    for (let j = 0; j < idx.length; j++) pts[j] = [xs(s.x[idx[j]]), ys(s.y[idx[j]])];
    const n = Math.min(s.x.length, s.y.length);
    if (s.step && s.extendTo !== undefined && idx.length && idx[idx.length - 1] === n - 1) pts.push([xs(s.extendTo), ys(s.y[n - 1])]);
    return gen.curve(s.step ? curveStepAfter : curveLinear)(pts) ?? '';
  });
}

function TimeSeriesChartImpl(props: TimeSeriesProps) {
  const { title, width, xLabel, yLabel, xDomain, series, fns = [], refs = [], ribbons, yZero = true, yLog = false, xName = 't', xUnit = 's', zoomable = true, lower } = props;
  const markers = props.markers ?? NO_MARKERS;
  const paper = props.paper ?? NO_PAPER;
  const legendExtra = props.legendExtra ?? NO_ITEMS;
  const chartTime = useContext(ChartTimeContext);
  const time = (props.timeAxis ?? xName === 't') ? chartTime : null;
  const lowerSeries = lower?.series ?? NO_SERIES;
  const lowerRefs = lower?.refs ?? NO_REFS;
  const lowerYZero = lower?.yZero ?? true;
  const plotH = props.plotHeight ?? 220;
  const lowerH = lower ? (lower.height ?? 140) : 0;
  /** Top of the lower panel, and the height of both panels with the gap. */
  const lowerTop = plotH + LOWER_GAP;
  const panelsH = lower ? lowerTop + lowerH : plotH;
  const clipId = `clip-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const overlayRef = useRef<SVGRectElement>(null);
  const gxRef = useRef<SVGGElement>(null);
  const gyRef = useRef<SVGGElement>(null);
  const gy2Ref = useRef<SVGGElement>(null);
  const hoverRef = useRef<SVGGElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const zoomRef = useRef<ZoomBehavior<SVGRectElement, unknown> | null>(null);
  const cursorRef = useRef<SVGGElement>(null);

  const legend = useMemo(() => {
    const items: LegendItem[] = [];
    const seen = new Set<string>();
    for (const s of series)
      if (!s.noLegend && !seen.has(s.label)) {
        seen.add(s.label);
        items.push({ label: s.label, color: s.color, dash: s.dash, opacity: s.opacity });
      }
    items.push(...legendExtra);
    for (const m of markers) items.push({ label: m.label, color: m.color, kind: 'marker' });
    if (paper.length) items.push(paper.some((m) => m.kind === 'point') ? { label: 'paper', color: PAPER_COLOR, kind: 'marker' } : { label: 'paper', color: PAPER_COLOR, dash: PAPER_DASH });
    for (const f of fns) items.push({ label: f.label, color: f.color, dash: f.dash });
    for (const r of refs) items.push({ label: r.label, color: r.color, dash: r.dash ?? '6 3' });
    for (const s of lowerSeries)
      if (!s.noLegend && !seen.has(s.label)) {
        seen.add(s.label);
        items.push({ label: s.label, color: s.color, dash: s.dash, opacity: s.opacity });
      }
    for (const r of lowerRefs) items.push({ label: r.label, color: r.color, dash: r.dash ?? '6 3' });
    if (ribbons?.rows.length) ribbons.names.forEach((n, i) => items.push({ label: n, color: ribbons.colors[i], kind: 'swatch' }));
    for (const kind of MARK_KINDS)
      if (time?.marks.some((m) => m.kind === kind)) items.push({ label: kind === 'handover' ? 'handover' : 'route change', color: MARK_COLORS[kind], kind: 'marker' });
    return layoutLegend(items, Math.max(100, width - MARGIN.left - MARGIN.right));
  }, [series, fns, refs, ribbons, width, markers, lowerSeries, lowerRefs, time, paper, legendExtra]);

  const ribbonRows = ribbons?.rows.length ?? 0;
  const ribbonsH = ribbonRows ? 6 + ribbonRows * (RIBBON_H + RIBBON_GAP) : 0;
  const top = legend.height + 12;
  const bottom = ribbonsH + 44;
  const innerW = Math.max(50, width - MARGIN.left - MARGIN.right);
  const height = top + panelsH + bottom;

  const xBase = useMemo(() => scaleLinear().domain(xDomain).range([0, innerW]), [xDomain, innerW]);
  const xs = useMemo(() => transform.rescaleX(xBase), [transform, xBase]);
  const [va, vb] = xs.domain();

  // Decimated screen points per series: recomputed on zoom and resize only.
  const decimated = useMemo(
    () => series.map((s) => decimate(s.x, s.y, va, vb, innerW)),
    [series, va, vb, innerW],
  );
  const decimatedLower = useMemo(() => lowerSeries.map((s) => decimate(s.x, s.y, va, vb, innerW)), [lowerSeries, va, vb, innerW]);

  const sampledFns = useMemo(() => {
    const steps = Math.max(2, Math.ceil(innerW));
    return fns.map((f) => {
      const pts: [number, number][] = [];
      for (let k = 0; k <= steps; k++) {
        const x = va + ((vb - va) * k) / steps;
        pts.push([x, f.fn(x)]);
      }
      return pts;
    });
  }, [fns, va, vb, innerW]);

  const ys = useMemo(() => {
    const extra: number[] = [];
    for (const pts of sampledFns) for (const [, y] of pts) extra.push(y);
    for (const r of refs) extra.push(r.y);
    for (const p of paper) if (p.kind !== 'vline') extra.push(p.y);
    for (const m of markers) {
      if (typeof m.y === 'number') extra.push(m.y);
      else for (let i = Math.max(0, lowerBound(m.x, va)); i < m.x.length && m.x[i] <= vb; i++) extra.push(m.y[i]);
    }
    return yScale(series, decimated, extra, { va, vb, yZero, yLog, h: plotH });
  }, [series, decimated, sampledFns, refs, markers, paper, yZero, yLog, plotH, va, vb]);
  const ys2 = useMemo(
    () => yScale(lowerSeries, decimatedLower, lowerRefs.map((r) => r.y), { va, vb, yZero: lowerYZero, yLog: false, h: Math.max(1, lowerH) }),
    [lowerSeries, decimatedLower, lowerRefs, lowerYZero, lowerH, va, vb],
  );

  const paths = useMemo(() => linePaths(series, decimated, xs, ys), [series, decimated, xs, ys]);
  const lowerPaths = useMemo(() => linePaths(lowerSeries, decimatedLower, xs, ys2), [lowerSeries, decimatedLower, xs, ys2]);

  // Markers: the first of each two-pixel column in view, as one path per marker series.
  const markerPaths = useMemo(
    () =>
      markers.map((m) => {
        let d = '';
        let count = 0;
        let lastCol = -Infinity;
        const r = 4;
        for (let i = Math.max(0, lowerBound(m.x, va)); i < m.x.length && m.x[i] <= vb; i++) {
          const px = xs(m.x[i]);
          const col = Math.floor(px / 2);
          if (col === lastCol) continue;
          const y = typeof m.y === 'number' ? m.y : m.y[i];
          if (!Number.isFinite(y)) continue;
          lastCol = col;
          const py = ys(y);
          d += `M${px.toFixed(1)},${(py - r).toFixed(1)}l${r},${r}l${-r},${r}l${-r},${-r}Z`;
          count++;
        }
        return { d, count };
      }),
    [markers, xs, ys, va, vb],
  );

  // Route events on the time axis: a small triangle under the plot per event in view, one path
  // per kind.
  const markPaths = useMemo(() => {
    if (!time) return [];
    return MARK_KINDS.map((kind) => {
      let d = '';
      let count = 0;
      for (const m of time.marks) {
        if (m.kind !== kind || m.t < va || m.t > vb) continue;
        const px = xs(m.t);
        d += `M${px.toFixed(1)},${panelsH}l4,7h-8Z`;
        count++;
      }
      return { kind, d, count };
    });
  }, [time, xs, va, vb, panelsH]);

  // The shared time cursor: moved imperatively on every change, never through React state.
  useEffect(() => {
    const g = cursorRef.current;
    if (!time || !g) return;
    const place = (t: number) => {
      const px = xs(t);
      const inside = px >= 0 && px <= innerW;
      g.setAttribute('visibility', inside ? 'visible' : 'hidden');
      g.setAttribute('transform', `translate(${inside ? px : 0},0)`);
      g.dataset.t = String(t);
    };
    place(time.cursor.get());
    return time.cursor.subscribe(place);
  }, [time, xs, innerW]);

  // A click on the plot puts the cursor there; dragging the cursor's handle moves it.
  useEffect(() => {
    const el = overlayRef.current;
    const handle = cursorRef.current?.querySelector<SVGRectElement>('.time-cursor-handle');
    if (!time || !el || !handle) return;
    const [lo, hi] = xBase.domain();
    const toTime = (event: PointerEvent | MouseEvent) => Math.min(hi, Math.max(lo, xs.invert(pointer(event, el)[0])));
    const sel = select(el);
    // d3-zoom swallows the click that ends a pan, so only a click without a drag lands here.
    sel.on('click.cursor', (event: MouseEvent) => time.cursor.set(toTime(event), 'chart'));
    const down = (event: PointerEvent) => {
      handle.setPointerCapture(event.pointerId);
      event.preventDefault();
    };
    const move = (event: PointerEvent) => {
      if (handle.hasPointerCapture(event.pointerId)) time.cursor.set(toTime(event), 'chart');
    };
    handle.addEventListener('pointerdown', down);
    handle.addEventListener('pointermove', move);
    return () => {
      sel.on('click.cursor', null);
      handle.removeEventListener('pointerdown', down);
      handle.removeEventListener('pointermove', move);
    };
  }, [time, xs, xBase]);

  const fnPaths = useMemo(() => {
    const gen = line<Pt>()
      .x((d) => xs(d[0]))
      .y((d) => Math.max(-1e4, Math.min(1e5, ys(d[1]))))
      .defined((d) => Number.isFinite(d[1]));
    return sampledFns.map((pts) => gen(pts) ?? '');
  }, [sampledFns, xs, ys]);

  const ribbonRuns = useMemo(() => (ribbons ? ribbons.rows.map((r) => stateRuns(r.x, r.v)) : []), [ribbons]);
  const ribbonData = useMemo(
    () => (ribbons ? ribbons.rows.map((r, k) => ribbonRects(ribbonRuns[k], r.end, xs, innerW, ribbons.priority)) : []),
    [ribbons, ribbonRuns, xs, innerW],
  );

  // Axes.
  useEffect(() => {
    if (!gxRef.current || !gyRef.current) return;
    select(gxRef.current).call(axisBottom(xs).ticks(Math.max(2, Math.floor(innerW / 80))).tickSizeOuter(0));
    const big = Math.max(Math.abs(ys.domain()[0]), Math.abs(ys.domain()[1])) >= 1e5;
    const n = Math.max(2, Math.floor(plotH / 40));
    select(gyRef.current).call(
      axisLeft(ys)
        .ticks(n)
        .tickFormat(ys.tickFormat(n, big || yLog ? '~s' : undefined))
        .tickSizeOuter(0),
    );
    if (gy2Ref.current && lowerH > 0) {
      const n2 = Math.max(2, Math.floor(lowerH / 40));
      select(gy2Ref.current).call(axisLeft(ys2).ticks(n2).tickFormat(ys2.tickFormat(n2)).tickSizeOuter(0));
    }
  }, [xs, ys, ys2, innerW, plotH, lowerH, yLog]);

  // Zoom and pan on x: wheel, drag and double-click; the buttons below drive the same behaviour.
  useEffect(() => {
    const el = overlayRef.current;
    if (!el || !zoomable) return;
    const z = zoom<SVGRectElement, unknown>()
      .scaleExtent([1, MAX_ZOOM])
      .extent([
        [0, 0],
        [innerW, panelsH],
      ])
      .translateExtent([
        [0, -Infinity],
        [innerW, Infinity],
      ])
      // Scrolling down over an unzoomed chart scrolls the page instead of being swallowed.
      .filter((event: Event) => {
        if (event.type === 'wheel') {
          const k = (el as unknown as { __zoom?: ZoomTransform }).__zoom?.k ?? 1;
          return !(k <= 1 && (event as WheelEvent).deltaY > 0) && !(event as WheelEvent).ctrlKey;
        }
        return !(event as MouseEvent).ctrlKey && !(event as MouseEvent).button;
      })
      .on('zoom', (e: { transform: ZoomTransform }) => {
        // Only x is rescaled (rescaleX), so y never zooms. At most one render per frame: wheel
        // and drag events can come faster than frames.
        pending = e.transform;
        if (frame === 0)
          frame = requestAnimationFrame(() => {
            frame = 0;
            if (pending) setTransform(pending);
          });
      });
    let pending: ZoomTransform | null = null;
    let frame = 0;
    zoomRef.current = z;
    const sel = select(el);
    sel.call(z);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      sel.on('.zoom', null);
    };
  }, [innerW, panelsH, zoomable]);

  // Hover read-out: a vertical rule, a dot per line, and a box with the values.
  useEffect(() => {
    const el = overlayRef.current;
    const g = hoverRef.current;
    const tip = tipRef.current;
    if (!el || !g || !tip) return;
    const hide = () => {
      g.setAttribute('visibility', 'hidden');
      tip.style.display = 'none';
    };
    const move = (event: PointerEvent) => {
      const [mx] = pointer(event, el);
      const x = xs.invert(mx);
      g.setAttribute('visibility', 'visible');
      const rule = g.querySelector('line');
      rule?.setAttribute('x1', String(mx));
      rule?.setAttribute('x2', String(mx));
      const dots = g.querySelectorAll('circle');
      tip.replaceChildren();
      const head = document.createElement('div');
      head.className = 'tip-head';
      head.textContent = `${xName} = ${fmt(x, 4)} ${xUnit}`;
      tip.appendChild(head);
      const row = (color: string, label: string, value: string, swatch = false) => {
        const r = document.createElement('div');
        const sw = document.createElement('span');
        sw.className = swatch ? 'tip-swatch box' : 'tip-swatch';
        sw.style.background = color;
        r.appendChild(sw);
        r.appendChild(document.createTextNode(`${label}: ${value}`));
        tip.appendChild(r);
      };
      const readOut = (list: LineSeries[], first: number, y: (v: number) => number) =>
        list.forEach((s, k) => {
          const v = valueAt(s, x);
          const dot = dots[first + k];
          if (!v || !Number.isFinite(v.y)) {
            dot?.setAttribute('visibility', 'hidden');
            if (v && Number.isNaN(v.y)) row(s.color, s.label, '–');
            return;
          }
          dot?.setAttribute('visibility', 'visible');
          dot?.setAttribute('cx', String(s.step ? mx : xs(s.x[v.i])));
          dot?.setAttribute('cy', String(y(v.y)));
          row(s.color, s.label, `${fmt(v.y, 4)}${s.unit ? ` ${s.unit}` : ''}`);
        });
      readOut(series, 0, ys);
      readOut(lowerSeries, series.length, (v) => lowerTop + ys2(v));
      for (const f of fns) {
        const y = f.fn(x);
        if (Number.isFinite(y)) row(f.color, f.label, `${fmt(y, 4)}${f.unit ? ` ${f.unit}` : ''}`);
      }
      if (ribbons)
        for (const r of ribbons.rows) {
          const i = upperBound(r.x, x);
          const s = i >= 0 ? r.v[i] : NaN;
          if (s >= 0) row(ribbons.colors[s] ?? '#999', `${r.name} state`, ribbons.names[s] ?? String(s), true);
        }
      tip.style.display = 'block';
      const box = tip.getBoundingClientRect();
      const left = MARGIN.left + mx + 14 + box.width > width ? MARGIN.left + mx - 14 - box.width : MARGIN.left + mx + 14;
      tip.style.left = `${Math.max(0, left)}px`;
      tip.style.top = `${top + 4}px`;
    };
    const sel = select(el);
    sel.on('pointermove.hover', move).on('pointerleave.hover', hide);
    return () => {
      sel.on('.hover', null);
    };
  }, [xs, ys, ys2, series, lowerSeries, lowerTop, fns, ribbons, xName, xUnit, width, top]);

  const zoomBy = (k: number) => {
    const el = overlayRef.current;
    if (el && zoomRef.current) zoomRef.current.scaleBy(select(el), k);
  };
  const panBy = (fraction: number) => {
    const el = overlayRef.current;
    if (el && zoomRef.current) zoomRef.current.translateBy(select(el), (-fraction * innerW) / transform.k, 0);
  };
  const reset = () => {
    const el = overlayRef.current;
    if (el && zoomRef.current) zoomRef.current.transform(select(el), zoomIdentity);
  };

  const yTicks = ys.ticks(Math.max(2, Math.floor(plotH / 40))).filter((t) => !yLog || Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
  const yTicks2 = lower ? ys2.ticks(Math.max(2, Math.floor(lowerH / 40))) : [];
  const zoomed = transform.k > 1.0001;

  return (
    <div className="ts-chart">
      <div className="ts-plot">
        <svg className="chart-svg" width={width} height={height} role="img" aria-label={`${title} chart`}>
          <defs>
            <clipPath id={clipId}>
              <rect x={0} y={-2} width={innerW} height={plotH + 4} />
            </clipPath>
            {lower && (
              <clipPath id={`${clipId}-lower`}>
                <rect x={0} y={-2} width={innerW} height={lowerH + 4} />
              </clipPath>
            )}
          </defs>
          <Legend layout={legend} x={MARGIN.left} y={4} />
          <g transform={`translate(${MARGIN.left},${top})`}>
            <g className="grid">
              {yTicks.map((t) => (
                <line key={t} x1={0} x2={innerW} y1={ys(t)} y2={ys(t)} />
              ))}
            </g>
            <g clipPath={`url(#${clipId})`}>
              {refs.map((r) => (
                <g key={r.key}>
                  <line className="ref-line" x1={0} x2={innerW} y1={ys(r.y)} y2={ys(r.y)} stroke={r.color} strokeDasharray={r.dash ?? '6 3'} />
                  <text className="ref-label" x={innerW - 4} y={ys(r.y) - 4} textAnchor="end" fill={r.color}>
                    {r.label}
                  </text>
                </g>
              ))}
              {series.map((s, k) => (
                <SeriesPath key={s.key} series={s} d={paths[k]} />
              ))}
              {fns.map((f, k) => (
                <path key={f.key} d={fnPaths[k]} fill="none" stroke={f.color} strokeWidth={1.8} strokeDasharray={f.dash ?? '7 4'} data-testid="overlay" data-series={f.label} />
              ))}
              {paper.map((m) => (
                <PaperMark key={m.key} mark={m} xs={xs} ys={ys} innerW={innerW} plotH={plotH} />
              ))}
              {markers.map((m, k) => (
                <path
                  key={m.key}
                  d={markerPaths[k].d}
                  fill="#fff"
                  stroke={m.color}
                  strokeWidth={1.3}
                  data-testid={m.testid ?? 'markers'}
                  data-series={m.label}
                  data-points={m.x.length}
                  data-drawn={markerPaths[k].count}
                />
              ))}
            </g>
            {lower && (
              <g className="lower-panel" transform={`translate(0,${lowerTop})`}>
                <g className="grid">
                  {yTicks2.map((t) => (
                    <line key={t} x1={0} x2={innerW} y1={ys2(t)} y2={ys2(t)} />
                  ))}
                </g>
                <g clipPath={`url(#${clipId}-lower)`}>
                  {lowerSeries.map((s, k) => (
                    <SeriesPath key={s.key} series={s} d={lowerPaths[k]} />
                  ))}
                  {/* References over the lines: a dense line would hide them. */}
                  {lowerRefs.map((r) => (
                    <g key={r.key}>
                      <line className="ref-line" x1={0} x2={innerW} y1={ys2(r.y)} y2={ys2(r.y)} stroke={r.color} strokeDasharray={r.dash ?? '6 3'} />
                      <text className="ref-label" x={innerW - 4} y={ys2(r.y) - 4} textAnchor="end" fill={r.color}>
                        {r.label}
                      </text>
                    </g>
                  ))}
                </g>
                <g className="axis axis-y" ref={gy2Ref} />
                <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${lowerH / 2}) rotate(-90)`} textAnchor="middle">
                  {lower.yLabel}
                </text>
              </g>
            )}
            <g className="axis axis-y" ref={gyRef} />
            <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${plotH / 2}) rotate(-90)`} textAnchor="middle">
              {yLabel}
            </text>
            {ribbons && (
              <g className="ribbons" transform={`translate(0,${panelsH + 6})`}>
                {ribbons.rows.map((r, k) => (
                  <g key={r.key} transform={`translate(0,${k * (RIBBON_H + RIBBON_GAP)})`} data-testid="state-ribbon" data-series={r.name}>
                    <text className="ribbon-label" x={-6} y={RIBBON_H / 2} textAnchor="end" dominantBaseline="central">
                      {r.label}
                    </text>
                    {ribbons.colors.map((color, s) => (ribbonData[k][s] ? <path key={s} d={ribbonData[k][s]} fill={color} /> : null))}
                  </g>
                ))}
              </g>
            )}
            <g className="axis axis-x" ref={gxRef} transform={`translate(0,${panelsH + ribbonsH})`} />
            <text className="axis-label" x={innerW / 2} y={panelsH + ribbonsH + 36} textAnchor="middle">
              {xLabel}
            </text>
            <g ref={hoverRef} className={NO_EXPORT} visibility="hidden" pointerEvents="none">
              <line className="hover-rule" x1={0} x2={0} y1={0} y2={panelsH} />
              {[...series, ...lowerSeries].map((s) => (
                <circle key={s.key} r={3.5} fill={s.color} stroke="#fff" strokeWidth={1} />
              ))}
            </g>
            <rect ref={overlayRef} className={`overlay ${NO_EXPORT}`} width={innerW} height={panelsH} fill="transparent" />
            {time && (
              <>
                {markPaths.map((m) =>
                  m.d ? <path key={m.kind} d={m.d} fill={MARK_COLORS[m.kind]} data-testid="time-marks" data-kind={m.kind} data-drawn={m.count} pointerEvents="none" /> : null,
                )}
                <g ref={cursorRef} className={`time-cursor ${NO_EXPORT}`} data-testid="time-cursor" visibility="hidden">
                  <line x1={0} x2={0} y1={0} y2={panelsH} pointerEvents="none" />
                  <rect className="time-cursor-handle" x={-5} y={0} width={10} height={panelsH} fill="transparent" aria-label="Time cursor: drag to move" />
                </g>
              </>
            )}
          </g>
        </svg>
        <div ref={tipRef} className="chart-tip" aria-hidden="true" />
      </div>
      {zoomable && (
        <div className="zoom-tools" role="group" aria-label={`Zoom the ${title} chart in time`}>
          <button type="button" className="small" onClick={() => zoomBy(2)} aria-label={`Zoom in on the ${title} chart`}>
            Zoom in
          </button>
          <button type="button" className="small" onClick={() => zoomBy(0.5)} disabled={!zoomed} aria-label={`Zoom out of the ${title} chart`}>
            Zoom out
          </button>
          <button type="button" className="small" onClick={() => panBy(-0.25)} disabled={!zoomed} aria-label={`Pan the ${title} chart earlier`}>
            ◀ Earlier
          </button>
          <button type="button" className="small" onClick={() => panBy(0.25)} disabled={!zoomed} aria-label={`Pan the ${title} chart later`}>
            Later ▶
          </button>
          <button type="button" className="small" onClick={reset} disabled={!zoomed} aria-label={`Reset the zoom of the ${title} chart`}>
            Reset
          </button>
          <span className="zoom-range">
            {xName} {fmt(va, 4)} – {fmt(vb, 4)} {xUnit}
            {zoomed ? ` (×${fmt(transform.k, 3)})` : ''}
          </span>
        </div>
      )}
    </div>
  );
}

/** Re-renders only when its props change (hover never changes them). */
export const TimeSeriesChart = memo(TimeSeriesChartImpl);

/** A claim of the paper on the plot: a diamond with its number, or a labelled line. */
function PaperMark({ mark: m, xs, ys, innerW, plotH }: { mark: ClaimMark; xs: ScaleLinear<number, number>; ys: ScaleContinuousNumeric<number, number>; innerW: number; plotH: number }) {
  const common = { 'data-testid': 'paper-claim-mark', 'data-kind': m.kind, 'data-n': m.n, 'data-x': m.kind === 'hline' ? undefined : m.x, 'data-y': m.kind === 'vline' ? undefined : m.y };
  if (m.kind === 'hline') {
    const y = ys(m.y);
    return (
      <g {...common}>
        <line className="ref-line" x1={0} x2={innerW} y1={y} y2={y} stroke={PAPER_COLOR} strokeDasharray={PAPER_DASH} />
        <text className="ref-label" x={4} y={y - 4} fill={PAPER_COLOR}>
          {m.label}
        </text>
      </g>
    );
  }
  if (m.kind === 'vline') {
    const x = xs(m.x);
    return (
      <g {...common}>
        <line className="ref-line" x1={x} x2={x} y1={0} y2={plotH} stroke={PAPER_COLOR} strokeDasharray={PAPER_DASH} />
        <text className="ref-label" x={x + 4} y={12} fill={PAPER_COLOR}>
          {m.label}
        </text>
      </g>
    );
  }
  const x = xs(m.x);
  const y = ys(m.y);
  const r = 6;
  // The label goes left of a point in the right third, so it stays inside the plot.
  const left = x > (innerW * 2) / 3;
  return (
    <g {...common}>
      <path d={`M${x},${y - r}l${r},${r}l${-r},${r}l${-r},${-r}Z`} fill="#fff" stroke={PAPER_COLOR} strokeWidth={2} />
      <text className="ref-label" x={left ? x - r - 3 : x + r + 3} y={y + 4} textAnchor={left ? 'end' : 'start'} fill={PAPER_COLOR}>
        {m.label}
      </text>
    </g>
  );
}

/** One line series as an SVG path; `data-points` is the raw point count, not the decimated one. */
function SeriesPath({ series: s, d }: { series: LineSeries; d: string | undefined }) {
  return (
    <path
      d={d}
      fill="none"
      stroke={s.color}
      strokeWidth={s.width ?? 1.5}
      strokeDasharray={s.dash}
      strokeOpacity={s.opacity}
      strokeLinejoin="round"
      data-testid={s.testid ?? 'series'}
      data-series={s.label}
      data-points={Math.min(s.x.length, s.y.length)}
    />
  );
}
