// The function mark: a line given by a formula (an analytic model), sampled once per pixel
// column of the current view, so it stays smooth at any zoom.

import type { ScaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { YScale } from './scales';
import type { FnSeries } from './types';

type Pt = [number, number];

/** Each function's points over [va, vb], one per pixel column (and both ends). */
export function sampleFns(fns: FnSeries[], va: number, vb: number, columns: number): Pt[][] {
  const steps = Math.max(2, Math.ceil(columns));
  return fns.map((f) => {
    const pts: Pt[] = [];
    for (let k = 0; k <= steps; k++) {
      const x = va + ((vb - va) * k) / steps;
      pts.push([x, f.fn(x)]);
    }
    return pts;
  });
}

/** The SVG path of each sampled function. A formula can run far off the plot (a model's
 * window at a tiny loss rate): y is clamped so the path stays drawable. */
export function fnPaths(sampled: Pt[][], xs: ScaleLinear<number, number>, ys: YScale): string[] {
  const gen = line<Pt>()
    .x((d) => xs(d[0]))
    .y((d) => Math.max(-1e4, Math.min(1e5, ys(d[1]))))
    .defined((d) => Number.isFinite(d[1]));
  return sampled.map((pts) => gen(pts) ?? '');
}

export function Functions({ fns, paths }: { fns: FnSeries[]; paths: string[] }) {
  return (
    <>
      {fns.map((f, k) => (
        <path key={f.key} d={paths[k]} fill="none" stroke={f.color} strokeWidth={1.8} strokeDasharray={f.dash ?? '7 4'} data-testid="overlay" data-series={f.label} />
      ))}
    </>
  );
}
