// The y scales of a time-series chart, fitted to what is in view, and the value a line shows
// at an x (the hover read-out's lookup).

import { scaleLinear, scaleLog, type ScaleContinuousNumeric } from 'd3-scale';
import { lowerBound, upperBound } from '../decimate';
import type { LineSeries } from './types';

export type YScale = ScaleContinuousNumeric<number, number>;

/** The value a series shows at x: the held value for steps, the nearest point otherwise. */
export function valueAt(s: LineSeries, x: number): { i: number; y: number } | null {
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

/** A y scale over the decimated points in view of `series` and the `extra` values. A step
 * line's point left of the view still counts: its value is held into the view. */
/** The smallest span of values a linear y axis resolves. */
const NOISE = 1e-6;

export function yScale(
  series: LineSeries[],
  decimated: Uint32Array[],
  extra: number[],
  o: { va: number; vb: number; yZero: boolean; yLog: boolean; h: number },
): YScale {
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
      .nice() as YScale;
  }
  if (!(hi >= lo)) {
    lo = 0;
    hi = 1;
  }
  if (o.yZero && lo >= 0) lo = 0;
  // A span below a millionth of the unit is floating-point noise (a loss-free path's jitter of
  // 4.5e-7 ms): drawn as flat, on a plain axis.
  if (hi - lo < NOISE) hi = lo + 1;
  const pad = (hi - lo) * 0.05;
  return scaleLinear()
    .domain([lo, hi + pad])
    .range([o.h, 0])
    .nice() as YScale;
}
