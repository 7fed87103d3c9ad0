// Sweeps: any metric the runs report (goodput by default) against a swept numeric path (a loss
// probability by default), one line per series (the other swept values and the flow), mean with
// a 95 % confidence interval or ±1 standard deviation as bars (the numbers of
// `orbitcp sweep --aggregate`), a linear or log x axis, and for goodput the paper's points where
// the preset carries them and the Mathis model for Reno series when x is a loss probability. A
// table of the means, spreads and run counts is the text summary.

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import { line } from 'd3-shape';
import type { SweepRow } from '../sim/client';
import type { SweepPointStats } from '../sim/protocol';
import {
  defaultXPath,
  GOODPUT,
  mathisMbps,
  metricLabel,
  metricStats,
  missingPoints,
  reportedMetrics,
  seriesBy,
  shortPath,
  sweptPaths,
  valueLabel,
  type PointStats,
  type Series,
  type SweepMetric,
} from '../sim/sweep';
import type { Scenario } from '../scenario/types.gen';
import { ChartFrame } from './ChartFrame';
import { capitalize, SPREAD_NAME, spreadOf, SweepSummary, type Spread } from './SweepTable';
import { Legend, layoutLegend, type LegendItem } from './Legend';
import { NO_EXPORT } from './exportChart';
import { colorOf, fmt, PAPER_COLOR } from './palette';
import { changeLabel, changeValue, pointWords, unitOf } from '../scenario/diff';
import { pathSegments } from '../scenario/jsonPath';
import './charts.css';
import { chainLinks } from '../scenario/topology';
import { setAt } from '../scenario/jsonPath';

const M = { left: 62, right: 20 };
const PLOT_H = 300;
const SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;
/** More series than this: the first other swept path is fixed to one value to start with. */
const MANY = 8;

/** The scenario at a grid point: the base with the point's values put in. */
export function scenarioAt(base: Scenario, point: Record<string, unknown>): Scenario {
  const s = structuredClone(base);
  for (const [p, v] of Object.entries(point)) setAt(s, p, v);
  return s;
}

/** Axis label for a swept path, in words with its unit: "link 2 loss (packet loss probability)",
 * "link 2 delay (ms)". */
export function pathLabel(p: string): string {
  const words = changeLabel(pathSegments(p), /^flows\[[1-9]/.test(p) ? 2 : 1);
  if (/loss\.p$/.test(p)) return `${words} (packet loss probability)`;
  const unit = unitOf(p);
  return unit === null ? words : `${words} (${unit})`;
}

function marker(shape: (typeof SHAPES)[number], r: number): string {
  switch (shape) {
    case 'square':
      return `M${-r},${-r}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case 'triangle':
      return `M0,${-r * 1.2}L${r * 1.1},${r * 0.8}L${-r * 1.1},${r * 0.8}Z`;
    case 'diamond':
      return `M0,${-r * 1.3}L${r * 1.1},0L0,${r * 1.3}L${-r * 1.1},0Z`;
    default:
      return `M${r},0A${r},${r} 0 1,1 ${-r},0A${r},${r} 0 1,1 ${r},0Z`;
  }
}

interface SeriesInfo {
  s: Series;
  color: string;
  shape: (typeof SHAPES)[number];
  /** A grid point of this series (its non-x values are the series' values). */
  rep: PointStats;
}

/** `rows`: the sweep's runs in job order; `pointStats`: the core's statistics of them
 * (`SimClient.sweepStats`). */
export function SweepChart({ rows, pointStats, scenario }: { rows: SweepRow[]; pointStats: readonly SweepPointStats[]; scenario: Scenario | null }) {
  const metrics = useMemo(() => reportedMetrics(rows), [rows]);
  const [metricKey, setMetricKey] = useState(GOODPUT.key);
  const metric = metrics.find((m) => m.key === metricKey) ?? metrics[0] ?? GOODPUT;
  const isGoodput = metric.key === GOODPUT.key;
  const [spread, setSpread] = useState<Spread>('ci');
  const stats = useMemo(() => metricStats(pointStats, metric), [pointStats, metric]);
  const paths = useMemo(() => sweptPaths(rows), [rows]);
  const numericPaths = useMemo(() => paths.filter((p) => rows.every((r) => typeof Object.fromEntries(r.job.point)[p] === 'number')), [paths, rows]);
  const [xPathPick, setXPath] = useState<string | undefined>(undefined);
  const xPath = xPathPick !== undefined && numericPaths.includes(xPathPick) ? xPathPick : defaultXPath(rows);
  const [logX, setLogX] = useState(false);
  const [showMathis, setShowMathis] = useState(true);
  const ids = { x: useId(), log: useId(), mathis: useId(), filter: useId(), metric: useId(), spread: useId() };

  // Series, each with a representative grid point: seriesBy keeps the stats' order within a
  // series, so running it over the stats with `mean` replaced by the stat's index tells which
  // stats make up each series (same labels, same order).
  const infos = useMemo<SeriesInfo[]>(() => {
    if (!xPath) return [];
    const ss = seriesBy(stats, xPath);
    const idx = seriesBy(
      stats.map((s, i) => ({ ...s, mean: i })),
      xPath,
    );
    return ss.map((s, i) => ({ s, color: colorOf(i % 8), shape: SHAPES[Math.floor(i / 8) % SHAPES.length], rep: stats[idx[i].points[0].mean] }));
  }, [stats, xPath]);

  // Filters on the other swept paths with several values; with many series, the first starts fixed.
  const otherPaths = useMemo(() => {
    const out: { path: string; values: string[] }[] = [];
    for (const p of paths) {
      if (p === xPath) continue;
      const values = [...new Set(stats.map((s) => JSON.stringify(s.point[p])))];
      if (values.length > 1) out.push({ path: p, values });
    }
    return out;
  }, [paths, stats, xPath]);
  const [filters, setFilters] = useState<Record<string, string>>({});
  const defaultFilters = useMemo<Record<string, string>>(
    () => (infos.length > MANY && otherPaths.length ? { [otherPaths[0].path]: otherPaths[0].values[0] } : {}),
    [infos.length, otherPaths],
  );
  const activeFilters = { ...defaultFilters, ...filters };
  const visible = infos.filter((info) => Object.entries(activeFilters).every(([p, v]) => v === '*' || JSON.stringify(info.rep.point[p]) === v));

  const isLoss = !!xPath && /loss\.p$/.test(xPath);
  const allX = useMemo(() => [...new Set(infos.flatMap((i) => i.s.points.map((p) => p.x)))].sort((a, b) => a - b), [infos]);
  const minPos = allX.find((x) => x > 0);
  const zeroAt = minPos !== undefined ? minPos / 4 : 1e-3;
  const hasZero = allX.some((x) => x <= 0);
  const plotX = (x: number) => (logX && x <= 0 ? zeroAt : x);

  // Mathis curves for the Reno series when x is a loss probability.
  const mathis = useMemo(() => {
    if (!isGoodput || !isLoss || !scenario || !xPath) return [];
    return visible
      .filter((i) => i.s.cc === 'reno')
      .map((i) => {
        const sc = scenarioAt(scenario, i.rep.point);
        const rttS = (2 * chainLinks(sc).reduce((a, l) => a + (l.delay_ms ?? 0), 0)) / 1000;
        const mss = sc.flows[0]?.mss_bytes ?? 1448;
        return { info: i, rttS, mss, fn: (p: number) => mathisMbps(mss, rttS, p) };
      })
      .filter((m) => m.rttS > 0);
  }, [isGoodput, isLoss, scenario, xPath, visible]);

  // Paper points with a value for x, matched to a series by the other values they fix.
  const paperPoints = useMemo(() => {
    const pts = scenario?.paper?.points ?? [];
    if (!xPath || !isGoodput) return [];
    return pts.flatMap((pp) => {
      const x = pp.at[xPath];
      if (typeof x !== 'number') return [];
      const match = infos.find(
        (i) =>
          (pp.flow === undefined || i.rep.flow === pp.flow) &&
          Object.entries(pp.at).every(([p, v]) => p === xPath || !(p in i.rep.point) || JSON.stringify(i.rep.point[p]) === JSON.stringify(v)),
      );
      return [{ x, y: pp.goodput_mbps, match, at: pp.at }];
    });
  }, [scenario, xPath, infos, isGoodput]);
  const visiblePaper = paperPoints.filter((p) => !p.match || visible.includes(p.match));

  const legendItems = useMemo(() => {
    const items: LegendItem[] = visible.map((i) => ({ label: i.s.label, color: i.color }));
    if (showMathis) for (const m of mathis) items.push({ label: `Mathis (${m.info.s.label}, RTT ${fmt(m.rttS * 1000)} ms)`, color: m.info.color, dash: '2 3' });
    if (visiblePaper.length) items.push({ label: 'paper', color: PAPER_COLOR, kind: 'marker' });
    return items;
  }, [visible, mathis, showMathis, visiblePaper.length]);

  return (
    <ChartFrame
      testid="chart-sweep"
      title={`${capitalize(metric.name)} vs swept parameter`}
      exportName={`${(scenario?.name ?? 'sweep').slice(0, 40)}-sweep`}
      wide
      summary={<SweepSummary infos={visible} xPath={xPath} stats={stats} paper={visiblePaper} metric={metric} spread={spread} />}
      paper={<MissingPoints series={visible.map((i) => i.s)} xPath={xPath} metric={metric} flowCount={scenario?.flows?.length ?? 1} />}
      controls={
        <>
          {metrics.length > 1 && (
            <label htmlFor={ids.metric}>
              metric
              <select id={ids.metric} value={metric.key} onChange={(e) => setMetricKey(e.target.value)} data-testid="sweep-metric">
                {metrics.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label htmlFor={ids.spread}>
            bars
            <select id={ids.spread} value={spread} onChange={(e) => setSpread(e.target.value as Spread)} data-testid="sweep-spread">
              <option value="ci">95 % CI</option>
              <option value="std">± 1 std</option>
            </select>
          </label>
          {numericPaths.length > 1 && (
            <label htmlFor={ids.x}>
              x axis
              <select id={ids.x} value={xPath} onChange={(e) => setXPath(e.target.value)} data-testid="sweep-x">
                {numericPaths.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
          )}
          {otherPaths.map((o) => (
            <label key={o.path} htmlFor={`${ids.filter}-${o.path}`}>
              {shortPath(o.path)}
              <select
                id={`${ids.filter}-${o.path}`}
                value={activeFilters[o.path] ?? '*'}
                onChange={(e) => setFilters((f) => ({ ...f, [o.path]: e.target.value }))}
                data-testid={`sweep-filter-${shortPath(o.path)}`}
              >
                <option value="*">all</option>
                {o.values.map((v) => (
                  <option key={v} value={v}>
                    {valueLabel(JSON.parse(v))}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <label htmlFor={ids.log}>
            <input id={ids.log} type="checkbox" checked={logX} onChange={(e) => setLogX(e.target.checked)} data-testid="sweep-log" />
            log x
          </label>
          {mathis.length > 0 && (
            <label htmlFor={ids.mathis}>
              <input id={ids.mathis} type="checkbox" checked={showMathis} onChange={(e) => setShowMathis(e.target.checked)} data-testid="toggle-mathis" />
              Mathis model
            </label>
          )}
        </>
      }
    >
      {(width) =>
        xPath ? (
          <>
            {logX && hasZero && (
              <p className="chart-note" data-testid="log-zero-note">
                The log axis cannot show x = 0: those points are drawn at x = {fmt(zeroAt)} (marked “0”).
              </p>
            )}
            <SweepPlot
              width={width}
              infos={visible}
              xPath={xPath}
              logX={logX}
              plotX={plotX}
              zeroAt={hasZero && logX ? zeroAt : undefined}
              mathis={showMathis ? mathis : []}
              paper={visiblePaper}
              legendItems={legendItems}
              metric={metric}
              spread={spread}
            />
          </>
        ) : (
          <p className="chart-note">No swept path takes numbers only, so there is no x axis: the table below lists the means.</p>
        )
      }
    </ChartFrame>
  );
}

interface PlotProps {
  width: number;
  infos: SeriesInfo[];
  xPath: string;
  logX: boolean;
  plotX: (x: number) => number;
  zeroAt?: number;
  mathis: { info: SeriesInfo; fn: (p: number) => number }[];
  paper: { x: number; y: number; match?: SeriesInfo }[];
  legendItems: LegendItem[];
  metric: SweepMetric;
  spread: Spread;
}

function SweepPlot({ width, infos, xPath, logX, plotX, zeroAt, mathis, paper, legendItems, metric, spread }: PlotProps) {
  const gxRef = useRef<SVGGElement>(null);
  const gyRef = useRef<SVGGElement>(null);
  const [hover, setHover] = useState<{ info: SeriesInfo; i: number } | null>(null);
  const clipId = `clip-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const innerW = Math.max(80, width - M.left - M.right);
  const legend = useMemo(() => layoutLegend(legendItems, innerW), [legendItems, innerW]);
  const top = legend.height + 12;
  const height = top + PLOT_H + 46;

  const xs = useMemo(() => {
    const xsAll = infos.flatMap((i) => i.s.points.map((p) => plotX(p.x))).concat(paper.map((p) => plotX(p.x)));
    let lo = Math.min(...xsAll);
    let hi = Math.max(...xsAll);
    if (!Number.isFinite(lo)) {
      lo = logX ? 1e-3 : 0;
      hi = 1;
    }
    if (logX) {
      lo = Math.max(lo, 1e-12);
      if (hi <= lo) hi = lo * 10;
      return scaleLog()
        .domain([lo / 1.4, hi * 1.4])
        .range([0, innerW]);
    }
    if (hi === lo) {
      lo -= 1;
      hi += 1;
    }
    const pad = (hi - lo) * 0.04;
    return scaleLinear()
      .domain([lo - pad, hi + pad])
      .range([0, innerW]);
  }, [infos, paper, plotX, logX, innerW]);

  const ys = useMemo(() => {
    // From zero: every metric is at least 0, and a bar is clipped there.
    const lo = 0;
    let hi = 0;
    for (const i of infos) for (const p of i.s.points) if (Number.isFinite(p.mean)) hi = Math.max(hi, p.mean + spreadOf(p, spread));
    if (metric.key === 'fairness') hi = Math.min(hi, 1);
    for (const p of paper) hi = Math.max(hi, p.y);
    return scaleLinear()
      .domain([lo * 1.08, hi > 0 ? hi * 1.08 : 1])
      .range([PLOT_H, 0])
      .nice();
  }, [infos, paper, spread, metric.key]);

  useEffect(() => {
    if (!gxRef.current || !gyRef.current) return;
    const n = Math.max(2, Math.floor(innerW / 90));
    const base = xs.tickFormat(n, '~g');
    const ax = axisBottom(xs)
      .ticks(n)
      .tickFormat((d) => (zeroAt !== undefined && Math.abs(+d - zeroAt) < 1e-15 ? '0' : base(d as number)))
      .tickSizeOuter(0);
    if (zeroAt !== undefined) ax.tickValues([zeroAt, ...xs.ticks(n).filter((t) => t > zeroAt * 1.5)]);
    select(gxRef.current).call(ax);
    select(gyRef.current).call(axisLeft(ys).ticks(6).tickSizeOuter(0));
  }, [xs, ys, innerW, zeroAt]);

  const lines = useMemo(() => {
    const gen = line<{ x: number; mean: number }>()
      .x((p) => xs(plotX(p.x)))
      .y((p) => ys(p.mean))
      .defined((p) => Number.isFinite(p.mean));
    return infos.map((i) => gen(i.s.points) ?? '');
  }, [infos, xs, ys, plotX]);

  const mathisPaths = useMemo(() => {
    const [a, b] = xs.domain();
    // On a log axis with x = 0 drawn at a stand-in value, the model starts right of it.
    const lo = Math.max(a, 1e-9, zeroAt !== undefined ? zeroAt * 1.6 : 0);
    const steps = 160;
    return mathis.map((m) => {
      const pts: [number, number][] = [];
      for (let k = 0; k <= steps; k++) {
        const p = logX ? lo * (b / lo) ** (k / steps) : lo + ((b - lo) * k) / steps;
        const y = m.fn(p);
        if (Number.isFinite(y)) pts.push([xs(p), Math.max(-PLOT_H, ys(y))]);
      }
      return line()(pts) ?? '';
    });
  }, [mathis, xs, ys, logX, zeroAt]);

  const onMove = (e: React.PointerEvent<SVGRectElement>) => {
    const [mx, my] = pointer(e.nativeEvent, e.currentTarget);
    let best: { info: SeriesInfo; i: number } | null = null;
    let bestD = 24 * 24;
    for (const info of infos)
      info.s.points.forEach((p, i) => {
        const dx = xs(plotX(p.x)) - mx;
        const dy = ys(p.mean) - my;
        const d = dx * dx + dy * dy;
        if (d < bestD) {
          bestD = d;
          best = { info, i };
        }
      });
    const found = best as { info: SeriesInfo; i: number } | null;
    // Only a change of the nearest point re-renders (this chart alone).
    setHover((h) => (h && found && h.info === found.info && h.i === found.i ? h : found));
  };

  const hp = hover ? hover.info.s.points[hover.i] : null;
  const hx = hp ? xs(plotX(hp.x)) : 0;

  return (
    <div className="ts-plot">
      <svg className="chart-svg" width={width} height={height} role="img" aria-label={`${capitalize(metric.name)} against ${xPath} chart`}>
        <defs>
          <clipPath id={clipId}>
            <rect x={0} y={0} width={innerW} height={PLOT_H} />
          </clipPath>
        </defs>
        <Legend layout={legend} x={M.left} y={4} />
        <g transform={`translate(${M.left},${top})`}>
          <g className="grid">
            {ys.ticks(6).map((t) => (
              <line key={t} x1={0} x2={innerW} y1={ys(t)} y2={ys(t)} />
            ))}
          </g>
          <g clipPath={`url(#${clipId})`}>
            {mathis.map((m, k) => (
              <path key={m.info.s.label} d={mathisPaths[k]} fill="none" stroke={m.info.color} strokeWidth={1.5} strokeDasharray="2 3" data-testid="mathis" data-series={m.info.s.label} />
            ))}
          </g>
          {infos.map((info, k) => (
            <g key={info.s.label}>
              <path d={lines[k]} fill="none" stroke={info.color} strokeWidth={1.8} data-testid="series" data-series={info.s.label} />
              {info.s.points.map((p) => {
                const x = xs(plotX(p.x));
                const y = ys(p.mean);
                const sd = spreadOf(p, spread);
                // Every metric is at least 0 and Jain's index at most 1: a bar stops at its domain.
                const lo = Math.max(0, p.mean - sd);
                const hi = metric.key === 'fairness' ? Math.min(1, p.mean + sd) : p.mean + sd;
                return (
                  <g key={p.x} data-testid="sweep-point" data-series={info.s.label} data-x={p.x} data-mean={p.mean} data-std={p.std} data-ci95={p.ci95} data-runs={p.runs}>
                    {sd > 0 && (
                      <path
                        d={`M${x},${ys(lo)}V${ys(hi)}M${x - 4},${ys(lo)}h8M${x - 4},${ys(hi)}h8`}
                        stroke={info.color}
                        strokeWidth={1.2}
                        fill="none"
                        data-testid="error-bar"
                      />
                    )}
                    {Number.isFinite(p.mean) && <path transform={`translate(${x},${y})`} d={marker(info.shape, 3.6)} fill={info.color} style={{ stroke: 'var(--chart-bg)' }} strokeWidth={0.8} />}
                  </g>
                );
              })}
            </g>
          ))}
          {paper.map((p, k) => (
            <path
              key={k}
              transform={`translate(${xs(plotX(p.x))},${ys(p.y)})`}
              d={marker('diamond', 5.5)}
              style={{ fill: 'var(--chart-bg)' }}
              stroke={p.match?.color ?? PAPER_COLOR}
              strokeWidth={2}
              data-testid="paper-point"
              data-series={p.match?.s.label ?? ''}
              data-x={p.x}
            />
          ))}
          <g className="axis axis-y" ref={gyRef} />
          <g className="axis axis-x" ref={gxRef} transform={`translate(0,${PLOT_H})`} />
          <text className="axis-label" transform={`translate(${-M.left + 14},${PLOT_H / 2}) rotate(-90)`} textAnchor="middle" data-testid="sweep-y-label">
            {metricLabel(metric)}
          </text>
          <text className="axis-label" x={innerW / 2} y={PLOT_H + 38} textAnchor="middle" data-testid="sweep-x-label">
            {pathLabel(xPath)}
            {logX ? ', log scale' : ''}
          </text>
          {hp && (
            <g className={NO_EXPORT} pointerEvents="none">
              <circle cx={hx} cy={ys(hp.mean)} r={7} fill="none" style={{ stroke: 'var(--fg)' }} strokeWidth={1.2} />
            </g>
          )}
          <rect className={`overlay ${NO_EXPORT}`} width={innerW} height={PLOT_H} fill="transparent" onPointerMove={onMove} onPointerLeave={() => setHover(null)} />
        </g>
      </svg>
      {hover && hp && (
        <div className="chart-tip" aria-hidden="true" style={{ display: 'block', left: M.left + hx + 14 + 220 > width ? M.left + hx - 230 : M.left + hx + 14, top: top + 4 }}>
          <div className="tip-head">{hover.info.s.label}</div>
          <div>
            {shortPath(xPath)} = {fmt(hp.x, 4)}
          </div>
          <div>
            {metric.name}: {fmt(hp.mean, 4)} ± {fmt(spreadOf(hp, spread), 3)}
            {metric.unit ? ` ${metric.unit}` : ''} ({SPREAD_NAME[spread]})
          </div>
          <div>runs: {hp.runs}</div>
          {mathis
            .filter((m) => m.info === hover.info)
            .map((m) => (
              <div key="m">Mathis: {fmt(m.fn(hp.x), 4)} Mbit/s</div>
            ))}
        </div>
      )}
    </div>
  );
}

/** "link 2 loss 16 %, 18 %, 20 %": the path named once, then each value with its unit. */
function xWords(xPath: string, xs: number[], flowCount: number): string {
  const key = /([A-Za-z_]+)[^A-Za-z_]*$/.exec(xPath)?.[1] ?? '';
  return [pointWords(xPath, xs[0], flowCount), ...xs.slice(1).map((x) => changeValue(key, x))].join(', ');
}

/** Says where a series has no point and why, instead of leaving a silent gap in its line. */
function MissingPoints({ series, xPath, metric, flowCount }: { series: Series[]; xPath: string | undefined; metric: SweepMetric; flowCount: number }) {
  const missing = missingPoints(series);
  if (!xPath || missing.length === 0) return null;
  const why = metric.key === 'completion_s' ? 'no run finished its transfer within the run’s time' : `no run reported its ${metric.name}`;
  return (
    <p className="sweep-missing" data-testid="sweep-missing">
      No point where {why}:{' '}
      {missing.map((m) => `${m.label} at ${xWords(xPath, m.xs, flowCount)}`).join('; ')}.
    </p>
  );
}
