// The shared base of the time-series charts (and the delay CDF): marks over a numeric x axis
// with axes and units, a legend, a hover read-out with a vertical rule, and zoom/pan on x with
// d3-zoom (wheel and drag, plus buttons for the keyboard). Built the way Observable Plot is:
// one file per mark (lines, functions, references, markers, ribbons, the paper's claims, route
// events), each a pure function from data and scales to paths plus a small component; hooks
// for zoom, hover, the shared time cursor and the axes. React renders the SVG; the axes, the
// zoom behaviour and the hover read-out go through refs and effects, so moving the pointer never
// re-renders anything. Lines are decimated for display (decimate.ts) once per zoom and width.

import { memo, useContext, useId, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { Legend, layoutLegend } from '../Legend';
import { NO_EXPORT } from '../exportChart';
import { ChartTimeContext } from '../../timeCursor';
import { legendItems } from './legend';
import { decimateAll, Lines, linePaths } from './lines';
import { fnPaths, Functions, sampleFns } from './functions';
import { References } from './references';
import { markerHeights, markerPaths, Markers } from './markers';
import { paperHeights, PaperMark } from './paper';
import { ribbonRects, Ribbons, ribbonsHeight, stateRuns } from './ribbons';
import { SlotRules, slotRulePath, TimeMarks, timeMarkPaths } from './timeMarks';
import { yScale } from './scales';
import { baselineLegend, baselineSeries } from './baseline';
import { useChartRefs } from './refs';
import { useZoom } from './useZoom';
import { useHover } from './useHover';
import { useTimeCursor } from './useTimeCursor';
import { useAxes, yTickCount } from './useAxes';
import { ZoomTools } from './ZoomTools';
import { ChartFitContext, fittedPlotHeight } from '../fit';
import { LOWER_GAP, MARGIN, type LineSeries, type MarkerSeries, type RefLine, type TimeSeriesProps } from './types';
import type { ClaimMark } from '../PaperClaims';
import type { LegendItem } from '../Legend';

export type { BaselineLines, FnSeries, LineSeries, LowerPanel, MarkerSeries, RefLine, Ribbon, RibbonSpec, TimeSeriesProps } from './types';

// Stable empties, so a chart without these marks does not recompute on every render.
const NO_MARKERS: MarkerSeries[] = [];
const NO_SERIES: LineSeries[] = [];
const NO_REFS: RefLine[] = [];
const NO_PAPER: ClaimMark[] = [];
const NO_ITEMS: LegendItem[] = [];

function TimeSeriesChartImpl(props: TimeSeriesProps) {
  const { title, width, xLabel, yLabel, xDomain, series, fns = [], refs = [], ribbons, yZero = true, yLog = false, xName = 't', xUnit = 's', zoomable = true, lower } = props;
  const markers = props.markers ?? NO_MARKERS;
  const paper = props.paper ?? NO_PAPER;
  const extraItems = props.legendExtra ?? NO_ITEMS;
  const { baseline } = props;
  const baseSeries = useMemo(() => (baseline ? baselineSeries(baseline) : NO_SERIES), [baseline]);
  const legendExtra = useMemo(() => (baseline ? [...extraItems, ...baselineLegend(baseline)] : extraItems), [baseline, extraItems]);
  const chartTime = useContext(ChartTimeContext);
  const time = (props.timeAxis ?? xName === 't') ? chartTime : null;
  const lowerSeries = lower?.series ?? NO_SERIES;
  const lowerRefs = lower?.refs ?? NO_REFS;
  const lowerYZero = lower?.yZero ?? true;
  const fit = useContext(ChartFitContext);
  const lowerH = lower ? (lower.height ?? 140) : 0;
  const clipId = `clip-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const nodes = useChartRefs();

  const legend = useMemo(
    () =>
      layoutLegend(
        legendItems({ series, extra: legendExtra, markers, paper, fns, refs, lowerSeries, lowerRefs, ribbons, timeMarks: time?.marks, slots: time?.slots }),
        Math.max(100, width - MARGIN.left - MARGIN.right),
      ),
    [series, fns, refs, ribbons, width, markers, lowerSeries, lowerRefs, time, paper, legendExtra],
  );

  const ribbonsH = ribbonsHeight(ribbons?.rows.length ?? 0);
  const top = legend.height + 12;
  const bottom = ribbonsH + 44;
  // In a frame of fixed height (an embed), the plot gives way so that the axes stay in view.
  const plotH = fittedPlotHeight(props.plotHeight ?? 220, top + bottom + (lower ? LOWER_GAP + lowerH : 0), fit);
  /** Top of the lower panel, and the height of both panels with the gap. */
  const lowerTop = plotH + LOWER_GAP;
  const panelsH = lower ? lowerTop + lowerH : plotH;
  const innerW = Math.max(50, width - MARGIN.left - MARGIN.right);
  const height = top + panelsH + bottom;

  const zoom = useZoom(nodes, { enabled: zoomable, width: innerW, height: panelsH });
  const xBase = useMemo(() => scaleLinear().domain(xDomain).range([0, innerW]), [xDomain, innerW]);
  const xs = useMemo(() => zoom.transform.rescaleX(xBase), [zoom.transform, xBase]);
  const [va, vb] = xs.domain();

  // Decimated screen points per series: recomputed on zoom and resize only.
  const decimated = useMemo(() => decimateAll(series, va, vb, innerW), [series, va, vb, innerW]);
  const decimatedBase = useMemo(() => decimateAll(baseSeries, va, vb, innerW), [baseSeries, va, vb, innerW]);
  const decimatedLower = useMemo(() => decimateAll(lowerSeries, va, vb, innerW), [lowerSeries, va, vb, innerW]);
  const sampledFns = useMemo(() => sampleFns(fns, va, vb, innerW), [fns, va, vb, innerW]);

  const ys = useMemo(() => {
    const extra = [...sampledFns.flatMap((pts) => pts.map(([, y]) => y)), ...refs.map((r) => r.y), ...paperHeights(paper), ...markerHeights(markers, va, vb)];
    // One scale for both runs, so a baseline above this run's lines is not cut off.
    return yScale([...series, ...baseSeries], [...decimated, ...decimatedBase], extra, { va, vb, yZero, yLog, h: plotH });
  }, [series, decimated, baseSeries, decimatedBase, sampledFns, refs, markers, paper, yZero, yLog, plotH, va, vb]);
  const ys2 = useMemo(
    () => yScale(lowerSeries, decimatedLower, lowerRefs.map((r) => r.y), { va, vb, yZero: lowerYZero, yLog: false, h: Math.max(1, lowerH) }),
    [lowerSeries, decimatedLower, lowerRefs, lowerYZero, lowerH, va, vb],
  );

  const paths = useMemo(() => linePaths(series, decimated, xs, ys), [series, decimated, xs, ys]);
  const basePaths = useMemo(() => linePaths(baseSeries, decimatedBase, xs, ys), [baseSeries, decimatedBase, xs, ys]);
  const lowerPaths = useMemo(() => linePaths(lowerSeries, decimatedLower, xs, ys2), [lowerSeries, decimatedLower, xs, ys2]);
  const functionPaths = useMemo(() => fnPaths(sampledFns, xs, ys), [sampledFns, xs, ys]);
  const markerData = useMemo(() => markerPaths(markers, xs, ys), [markers, xs, ys]);
  const timeMarks = useMemo(() => (time ? timeMarkPaths(time.marks, xs, panelsH) : []), [time, xs, panelsH]);
  const slotRules = useMemo(() => slotRulePath(time?.slots ?? [], xs, panelsH), [time, xs, panelsH]);
  const ribbonRuns = useMemo(() => (ribbons ? ribbons.rows.map((r) => stateRuns(r.x, r.v)) : []), [ribbons]);
  const ribbonData = useMemo(
    () => (ribbons ? ribbons.rows.map((r, k) => ribbonRects(ribbonRuns[k], r.end, xs, innerW, ribbons.priority)) : []),
    [ribbons, ribbonRuns, xs, innerW],
  );

  useAxes(nodes, { xs, ys, ys2, plotH, lowerH, yLog });
  useHover(nodes, { xs, ys, ys2, series, lowerSeries, lowerTop, fns, ribbons, xName, xUnit, width, top });
  useTimeCursor(nodes, time, xs, xDomain);

  const yTicks = ys.ticks(yTickCount(plotH)).filter((t) => !yLog || Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
  const yTicks2 = lower ? ys2.ticks(yTickCount(lowerH)) : [];

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
            <SlotRules rules={slotRules} />
            <g clipPath={`url(#${clipId})`}>
              <References refs={refs} ys={ys} width={innerW} />
              <Lines series={baseSeries} paths={basePaths} />
              <Lines series={series} paths={paths} />
              <Functions fns={fns} paths={functionPaths} />
              {paper.map((m) => (
                <PaperMark key={m.key} mark={m} xs={xs} ys={ys} innerW={innerW} plotH={plotH} />
              ))}
              <Markers markers={markers} paths={markerData} />
            </g>
            {lower && (
              <g className="lower-panel" transform={`translate(0,${lowerTop})`}>
                <g className="grid">
                  {yTicks2.map((t) => (
                    <line key={t} x1={0} x2={innerW} y1={ys2(t)} y2={ys2(t)} />
                  ))}
                </g>
                <g clipPath={`url(#${clipId}-lower)`}>
                  <Lines series={lowerSeries} paths={lowerPaths} />
                  {/* References over the lines: a dense line would hide them. */}
                  <References refs={lowerRefs} ys={ys2} width={innerW} />
                </g>
                <g className="axis axis-y" ref={nodes.yAxis2} />
                <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${lowerH / 2}) rotate(-90)`} textAnchor="middle">
                  {lower.yLabel}
                </text>
              </g>
            )}
            <g className="axis axis-y" ref={nodes.yAxis} />
            <text className="axis-label" transform={`translate(${-MARGIN.left + 14},${plotH / 2}) rotate(-90)`} textAnchor="middle">
              {yLabel}
            </text>
            {ribbons && <Ribbons ribbons={ribbons} paths={ribbonData} top={panelsH + 6} />}
            <g className="axis axis-x" ref={nodes.xAxis} transform={`translate(0,${panelsH + ribbonsH})`} />
            <text className="axis-label" x={innerW / 2} y={panelsH + ribbonsH + 36} textAnchor="middle">
              {xLabel}
            </text>
            <g ref={nodes.hover} className={NO_EXPORT} visibility="hidden" pointerEvents="none">
              <line className="hover-rule" x1={0} x2={0} y1={0} y2={panelsH} />
              {[...series, ...lowerSeries].map((s) => (
                <circle key={s.key} r={3.5} fill={s.color} style={{ stroke: 'var(--chart-bg)' }} strokeWidth={1} />
              ))}
            </g>
            <rect ref={nodes.overlay} className={`overlay ${NO_EXPORT}`} width={innerW} height={panelsH} fill="transparent" />
            {time && (
              <>
                <TimeMarks paths={timeMarks} />
                <g ref={nodes.cursor} className={`time-cursor ${NO_EXPORT}`} data-testid="time-cursor" visibility="hidden">
                  <line x1={0} x2={0} y1={0} y2={panelsH} pointerEvents="none" />
                  <rect className="time-cursor-handle" x={-5} y={0} width={10} height={panelsH} fill="transparent" aria-label="Time cursor: drag to move" />
                </g>
              </>
            )}
          </g>
        </svg>
        <div ref={nodes.tip} className="chart-tip" aria-hidden="true" />
      </div>
      {zoomable && <ZoomTools title={title} zoom={zoom} domain={[va, vb]} xName={xName} xUnit={xUnit} />}
    </div>
  );
}

/** Re-renders only when its props change (hover never changes them). */
export const TimeSeriesChart = memo(TimeSeriesChartImpl);
