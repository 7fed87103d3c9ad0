// The axes, drawn by d3-axis into their groups after each render that changes a scale.

import { useEffect } from 'react';
import { axisBottom, axisLeft } from 'd3-axis';
import type { ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { ChartRefs } from './refs';
import type { YScale } from './scales';

/** About one tick per this many pixels. */
const X_TICK_PX = 80;
const Y_TICK_PX = 40;

export function useAxes(
  refs: ChartRefs,
  o: { xs: ScaleLinear<number, number>; ys: YScale; ys2: YScale; plotH: number; lowerH: number; yLog: boolean },
): void {
  const { xs, ys, ys2, plotH, lowerH, yLog } = o;
  useEffect(() => {
    if (!refs.xAxis.current || !refs.yAxis.current) return;
    const [, width] = xs.range();
    select(refs.xAxis.current).call(axisBottom(xs).ticks(Math.max(2, Math.floor(width / X_TICK_PX))).tickSizeOuter(0));
    // Large values in SI form (12k, 3M): full digits do not fit the margin.
    const big = Math.max(Math.abs(ys.domain()[0]), Math.abs(ys.domain()[1])) >= 1e5;
    const n = yTickCount(plotH);
    select(refs.yAxis.current).call(
      axisLeft(ys)
        .ticks(n)
        .tickFormat(ys.tickFormat(n, big || yLog ? '~s' : undefined))
        .tickSizeOuter(0),
    );
    if (refs.yAxis2.current && lowerH > 0) {
      const n2 = yTickCount(lowerH);
      select(refs.yAxis2.current).call(axisLeft(ys2).ticks(n2).tickFormat(ys2.tickFormat(n2)).tickSizeOuter(0));
    }
  }, [refs, xs, ys, ys2, plotH, lowerH, yLog]);
}

/** How many y ticks a panel of this height asks for (the grid lines use the same). */
export function yTickCount(height: number): number {
  return Math.max(2, Math.floor(height / Y_TICK_PX));
}
