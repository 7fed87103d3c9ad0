// Turning a sweep's rows and the core's statistics into what charts need: a metric's mean,
// standard deviation and 95 % confidence half-width per grid point and flow (computed by the
// core: `SimClient.sweepStats`), and series keyed by the swept values other than the x axis.
// (A sweep's CSV is the core's too: `SimClient.sweepCsv`.)

import type { SweepRow } from './client';
import type { SweepPointStats } from './protocol';
import type { FlowSummary, RunSummary } from './results';
import { SWEEP_METRIC_DEFS } from './sweepMetrics.gen';

/** A figure of each flow of each run that a sweep chart can plot: one of the core's sweep
 * metrics (`runner/sweep_metrics.rs` `METRICS`, generated into `sweepMetrics.gen.ts`). */
export interface SweepMetric {
  /** The core's column name in `orbitcp sweep`. */
  key: string;
  /** What it is, for the select and the sentences of the summary. */
  name: string;
  /** Its unit for the axis label and the table ('' for a pure number). */
  unit: string;
  /** Its value for one flow of one run; undefined where the run does not report it (a flow
   * that did not finish has no completion time, only CTCP codes, CTCP has no delay at arrival). */
  get: (flow: FlowSummary, run: RunSummary) => number | undefined;
}

/** The value at a JSON pointer (`/owd_ms/mean`) of a result's object, if any. */
function at(obj: unknown, pointer: string): unknown {
  let v = obj;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The metrics of the core's sweep table, in its column order. */
export const SWEEP_METRICS: readonly SweepMetric[] = SWEEP_METRIC_DEFS.map((m) => ({
  key: m.key,
  name: m.name,
  unit: m.unit,
  get: (flow: FlowSummary, run: RunSummary) => {
    const v = at(m.of === 'run' ? run : flow, m.pointer);
    // A result's JSON leaves a count out when it is zero.
    if (v === undefined || v === null) return m.kind === 'count' ? 0 : undefined;
    return typeof v === 'number' ? v : undefined;
  },
}));

export const GOODPUT: SweepMetric = SWEEP_METRICS[0];

/** The metric's name with its unit, as an axis reads it. */
export function metricLabel(m: SweepMetric): string {
  return m.unit ? `${m.name} (${m.unit})` : m.name;
}

/** The metrics some flow of some run reports. */
export function reportedMetrics(rows: SweepRow[]): SweepMetric[] {
  return SWEEP_METRICS.filter((m) => rows.some((r) => r.summary.flows.some((f) => m.get(f, r.summary) !== undefined)));
}

export interface PointStats {
  /** Swept path → value, for this grid point. */
  point: Record<string, unknown>;
  flow: number;
  cc: string;
  /** Runs that report the metric: what the mean is over. */
  runs: number;
  /** NaN where no run reports the metric. */
  mean: number;
  /** Sample standard deviation; 0 for one run. */
  std: number;
  /** 95 % confidence half-width of the mean (Student t); NaN below two runs. */
  ci95: number;
}

/** The metric's statistics over runs, per grid point and flow, in grid order, picked from the
 * core's (`sweep_stats`): the numbers of the `_mean`, `_std` and `_ci95` columns of
 * `orbitcp sweep --aggregate`, with NaN where the core has none. */
export function metricStats(stats: readonly SweepPointStats[], metric: SweepMetric = GOODPUT): PointStats[] {
  return stats.map((s) => {
    const m = s.metrics.find((x) => x.key === metric.key);
    return {
      point: Object.fromEntries(s.point),
      flow: s.flow,
      cc: s.cc,
      runs: m?.runs ?? 0,
      mean: m?.mean ?? NaN,
      std: m?.std ?? NaN,
      ci95: m?.ci95 ?? NaN,
    };
  });
}

/** The swept paths, in grid order. */
export function sweptPaths(rows: SweepRow[]): string[] {
  return rows.length ? rows[0].job.point.map(([p]) => p) : [];
}

/** The path to put on the x axis: the first numeric one, preferring a loss probability. */
export function defaultXPath(rows: SweepRow[]): string | undefined {
  const paths = sweptPaths(rows);
  const numeric = paths.filter((p) => rows.every((r) => typeof Object.fromEntries(r.job.point)[p] === 'number'));
  return numeric.find((p) => p.endsWith('loss.p')) ?? numeric[0];
}

import { pointWords } from '../scenario/diff';

export interface Series {
  /** What distinguishes this series: the other swept values and the flow. */
  label: string;
  cc: string;
  points: { x: number; mean: number; std: number; ci95: number; runs: number }[];
}

/** One series per combination of the non-x swept values and flow, sorted by x. */
export function seriesBy(stats: PointStats[], xPath: string): Series[] {
  const out = new Map<string, Series>();
  for (const s of stats) {
    const others = Object.entries(s.point).filter(([p]) => p !== xPath);
    const flowCount = others.some(([p]) => /^flows\[[1-9]/.test(p)) ? 2 : 1;
    const parts = others.map(([p, v]) => (isObject(v) ? valueLabel(v) : pointWords(p, v, flowCount)));
    const flows = new Set(stats.map((x) => x.flow));
    if (flows.size > 1) parts.push(`flow ${s.flow}`);
    const label = parts.length ? parts.join(', ') : s.cc;
    let series = out.get(label);
    if (!series) out.set(label, (series = { label, cc: s.cc, points: [] }));
    series.points.push({ x: Number(s.point[xPath]), mean: s.mean, std: s.std, ci95: s.ci95, runs: s.runs });
  }
  for (const s of out.values()) s.points.sort((a, b) => a.x - b.x);
  return [...out.values()];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A readable label for a swept value; a whole flow reads as its transport and algorithm. */
export function valueLabel(v: unknown): string {
  if (isObject(v)) {
    if (typeof v.transport === 'string') {
      const algo = v.cc ?? v.variant;
      return algo === undefined ? v.transport : `${v.transport} ${String(algo)}`;
    }
    return JSON.stringify(v);
  }
  return String(v);
}

/** `topology.links[1].loss.p` → `loss.p`; `flows[0].cc` → `cc`. */
export function shortPath(p: string): string {
  const parts = p.split('.');
  return parts.length <= 2 ? parts[parts.length - 1] : parts.slice(-2).join('.');
}

/** Mathis et al.: goodput in Mbit/s of a Reno flow with this MSS (bytes), RTT (s) and loss p. */
export function mathisMbps(mssBytes: number, rttS: number, p: number): number {
  if (p <= 0 || rttS <= 0) return Infinity;
  return ((mssBytes * 8) / rttS) * Math.sqrt(1.5 / p) / 1e6;
}

/** Where a series has no value (no run of that point reported the metric: for the completion
 * time, none finished its transfer within the run's time): its label and those x values. */
export function missingPoints(series: readonly Series[]): { label: string; xs: number[] }[] {
  return series.map((s) => ({ label: s.label, xs: s.points.filter((p) => p.runs === 0).map((p) => p.x) })).filter((m) => m.xs.length > 0);
}
