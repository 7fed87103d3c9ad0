// The line mark: each series' points, decimated to the pixel columns in view (decimate.ts), as
// one SVG path; step lines hold each value to the next point (and to `extendTo` at the end).

import type { ScaleLinear } from 'd3-scale';
import { curveLinear, curveStepAfter, line } from 'd3-shape';
import { decimate } from '../decimate';
import type { YScale } from './scales';
import type { LineSeries } from './types';

type Pt = [number, number];

/** The indices of each series' points to draw for the view [va, vb] over `columns` pixels. */
export function decimateAll(series: LineSeries[], va: number, vb: number, columns: number): Uint32Array[] {
  return series.map((s) => decimate(s.x, s.y, va, vb, columns));
}

/** The SVG path of each series' decimated points. */
export function linePaths(series: LineSeries[], decimated: Uint32Array[], xs: ScaleLinear<number, number>, ys: YScale): string[] {
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

/** The lines of one panel. `data-points` is the raw point count, not the decimated one. */
export function Lines({ series, paths }: { series: LineSeries[]; paths: string[] }) {
  return (
    <>
      {series.map((s, k) => (
        <path
          key={s.key}
          d={paths[k]}
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
      ))}
    </>
  );
}
