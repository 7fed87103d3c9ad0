// The chart's DOM nodes that d3 and the pointer handlers draw into, created once per chart.

import { useMemo, useRef, type RefObject } from 'react';

export interface ChartRefs {
  /** The plot's transparent overlay: it receives the pointer, the wheel and the zoom. */
  overlay: RefObject<SVGRectElement | null>;
  xAxis: RefObject<SVGGElement | null>;
  yAxis: RefObject<SVGGElement | null>;
  /** The lower panel's y axis. */
  yAxis2: RefObject<SVGGElement | null>;
  /** The hover rule (a line) and one dot (circle) per line, main panel first. */
  hover: RefObject<SVGGElement | null>;
  /** The hover read-out box (HTML, over the SVG). */
  tip: RefObject<HTMLDivElement | null>;
  /** The shared time cursor's rule and handle. */
  cursor: RefObject<SVGGElement | null>;
}

export function useChartRefs(): ChartRefs {
  const overlay = useRef<SVGRectElement>(null);
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const yAxis2 = useRef<SVGGElement>(null);
  const hover = useRef<SVGGElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const cursor = useRef<SVGGElement>(null);
  return useMemo(() => ({ overlay, xAxis, yAxis, yAxis2, hover, tip, cursor }), []);
}
