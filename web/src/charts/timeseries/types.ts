// The data a time-series chart draws, mark by mark (the props of TimeSeriesChart), and the
// chart's fixed geometry.

import type { LegendItem } from '../Legend';
import type { ClaimMark } from '../PaperClaims';

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

/** A pinned run's lines, drawn dashed under this run's (baseline.ts), on the same scales. */
export interface BaselineLines {
  /** The legend's entry: "baseline: <scenario name>". */
  label: string;
  series: LineSeries[];
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
  /** A pinned run's lines, to compare with (the y scale covers them too). */
  baseline?: BaselineLines;
}

/** Left and right margins around the plot, in pixels (the y axis and its label sit left). */
export const MARGIN = { left: 62, right: 18 };
/** The gap between the main plot and the lower panel. */
export const LOWER_GAP = 16;
/** The dash of references and lines without a dash of their own. */
export const REF_DASH = '6 3';
