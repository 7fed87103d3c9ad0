// The height a chart may take, where something above it decides (an embedded page fills its
// frame: a slide's 16:9 box must show the whole chart, axes included). Null on the full page,
// where the page scrolls and each chart keeps its own height.

import { createContext } from 'react';

export const ChartFitContext = createContext<number | null>(null);

/** What a chart's frame takes around its plot: its heading and tools, padding and border. */
export const FRAME_CHROME_PX = 64;

/** The smallest plot height a fitted chart is given, however small its frame: below it a plot
 * says nothing. */
export const MIN_FITTED_PLOT_PX = 100;

/** The plot height that makes a chart of `fixed` pixels besides its plot fit `fit` pixels, at most
 * `preferred`. */
export function fittedPlotHeight(preferred: number, fixed: number, fit: number | null): number {
  if (fit === null) return preferred;
  return Math.max(MIN_FITTED_PLOT_PX, Math.min(preferred, Math.floor(fit - fixed - FRAME_CHROME_PX)));
}
