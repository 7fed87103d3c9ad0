// Turning sweep rows into what charts need: mean and standard deviation per grid point and
// flow, and series keyed by the swept values other than the x axis. (A sweep's CSV is the
// core's: `SimClient.sweepCsv`.)

import type { SweepRow } from './client';

export interface PointStats {
  /** Swept path → value, for this grid point. */
  point: Record<string, unknown>;
  flow: number;
  cc: string;
  runs: number;
  mean: number;
  std: number;
}

/** Mean and sample standard deviation (0 for fewer than two values). */
export function meanStd(xs: number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: NaN, std: NaN };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length < 2) return { mean, std: 0 };
  const v = xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(v) };
}

const key = (point: [string, unknown][]) => JSON.stringify(point);

/** Goodput mean ± std over runs, per grid point and flow, in grid order. */
export function aggregate(rows: SweepRow[]): PointStats[] {
  const groups = new Map<string, { point: [string, unknown][]; flow: number; cc: string; values: number[] }>();
  for (const r of rows) {
    for (const f of r.summary.flows) {
      const k = `${key(r.job.point)}#${f.id}`;
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { point: r.job.point, flow: f.id, cc: f.cc, values: [] }));
      g.values.push(f.goodput_mbps);
    }
  }
  return [...groups.values()].map((g) => ({
    point: Object.fromEntries(g.point),
    flow: g.flow,
    cc: g.cc,
    runs: g.values.length,
    ...meanStd(g.values),
  }));
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

export interface Series {
  /** What distinguishes this series: the other swept values and the flow. */
  label: string;
  cc: string;
  points: { x: number; mean: number; std: number; runs: number }[];
}

/** One series per combination of the non-x swept values and flow, sorted by x. */
export function seriesBy(stats: PointStats[], xPath: string): Series[] {
  const out = new Map<string, Series>();
  for (const s of stats) {
    const others = Object.entries(s.point).filter(([p]) => p !== xPath);
    const parts = others.map(([p, v]) => (isObject(v) ? valueLabel(v) : `${shortPath(p)}=${valueLabel(v)}`));
    const flows = new Set(stats.map((x) => x.flow));
    if (flows.size > 1) parts.push(`flow ${s.flow}`);
    const label = parts.length ? parts.join(', ') : s.cc;
    let series = out.get(label);
    if (!series) out.set(label, (series = { label, cc: s.cc, points: [] }));
    series.points.push({ x: Number(s.point[xPath]), mean: s.mean, std: s.std, runs: s.runs });
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
