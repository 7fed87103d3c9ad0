// The state ribbon mark: a categorical state along x (the congestion state) as a strip of
// coloured runs under the plot, one row per flow. Per pixel column the highest-priority state
// present wins, so a short recovery stays visible in a long stretch of avoidance at any zoom.

import type { ScaleLinear } from 'd3-scale';
import { upperBound } from '../decimate';
import type { RibbonSpec } from './types';

/** Height of a ribbon row and the gap between rows, in pixels. */
export const RIBBON_H = 10;
export const RIBBON_GAP = 3;

/** The height the ribbons take under the plot (nothing without rows). */
export function ribbonsHeight(rows: number): number {
  return rows ? 6 + rows * (RIBBON_H + RIBBON_GAP) : 0;
}

export interface StateRuns {
  /** Where each run starts. */
  x: Float64Array;
  /** Its state; -1 for none (a negative or NaN value). */
  s: Int8Array;
}

/** Runs of equal state: start x and state of each (a trace of 100k points has a few hundred). */
export function stateRuns(x: ArrayLike<number>, v: ArrayLike<number>): StateRuns {
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

/** One SVG path per state (indexed by state) of the runs in view, `end` being where the last
 * run ends. */
export function ribbonRects(runs: StateRuns, end: number, xs: ScaleLinear<number, number>, widthPx: number, priority: readonly number[]): string[] {
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

/** The rows, placed at `top`; `paths[row][state]` from ribbonRects. */
export function Ribbons({ ribbons, paths, top }: { ribbons: RibbonSpec; paths: string[][]; top: number }) {
  return (
    <g className="ribbons" transform={`translate(0,${top})`}>
      {ribbons.rows.map((r, k) => (
        <g key={r.key} transform={`translate(0,${k * (RIBBON_H + RIBBON_GAP)})`} data-testid="state-ribbon" data-series={r.name}>
          <text className="ribbon-label" x={-6} y={RIBBON_H / 2} textAnchor="end" dominantBaseline="central">
            {r.label}
          </text>
          {ribbons.colors.map((color, s) => (paths[k][s] ? <path key={s} d={paths[k][s]} fill={color} /> : null))}
        </g>
      ))}
    </g>
  );
}
