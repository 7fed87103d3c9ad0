// A run set against a pinned baseline: the summary metrics of both, aligned flow by flow (by
// flow id, so "flow 0" of one run is compared with "flow 0" of the other), and the signed
// difference of each, absolute and relative to the baseline. Pure, so the numbers the table
// shows are unit-tested.

import type { FlowSummary, RunSummary } from '../sim/results';

/** One metric of the comparison table. */
export interface MetricDef {
  key: string;
  label: string;
  unit: string;
  /** Decimals shown, as the run's summary table shows the metric. */
  digits: number;
  /** The value in a flow's summary; null where the flow has none (an incomplete transfer). */
  get: (f: FlowSummary) => number | null;
}

/** The per-flow metrics compared, in table order. */
export const FLOW_METRICS: readonly MetricDef[] = [
  { key: 'goodput', label: 'goodput', unit: 'Mbit/s', digits: 3, get: (f) => f.goodput_mbps },
  { key: 'completion', label: 'completion', unit: 's', digits: 3, get: (f) => (f.completed ? (f.completion_s ?? null) : null) },
  { key: 'delivered', label: 'delivered', unit: 'bytes', digits: 0, get: (f) => f.delivered_bytes },
  { key: 'retransmissions', label: 'retransmissions', unit: '', digits: 0, get: (f) => f.retransmissions },
  { key: 'timeouts', label: 'timeouts', unit: '', digits: 0, get: (f) => f.timeouts },
  { key: 'owd', label: 'one-way delay mean', unit: 'ms', digits: 1, get: (f) => f.owd_ms.mean },
  { key: 'jitter', label: 'jitter', unit: 'ms', digits: 1, get: (f) => f.jitter_ms },
];

/** A difference between two values: absolute (this − baseline) and relative to the baseline
 * in percent (null where the baseline is 0, or either value is missing). */
export interface Difference {
  abs: number | null;
  pct: number | null;
}

export function difference(baseline: number | null | undefined, current: number | null | undefined): Difference {
  const ok = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!ok(baseline) || !ok(current)) return { abs: null, pct: null };
  const abs = current - baseline;
  return { abs, pct: baseline === 0 ? null : (abs / Math.abs(baseline)) * 100 };
}

/** One row of the comparison: a metric of one flow (or of the run) in both runs. */
export interface CompareRow {
  /** "flow 0 cubic" / the flow's label, or "run" for the run's own metrics. */
  flow: string;
  /** The metric's key (FLOW_METRICS), "fairness" for Jain's index. */
  key: string;
  metric: string;
  unit: string;
  digits: number;
  baseline: number | null;
  current: number | null;
  diff: Difference;
}

type FlowName = Pick<FlowSummary, 'id' | 'cc' | 'label'>;

/** A flow's row title: its label, else its id and congestion control; where the two runs' flow
 * differs, both ("flow 0 cubic → hybla"), so the baseline's flow is never named by this run's. */
export function flowTitle(baseline: FlowName | undefined, current: FlowName | undefined, id: number): string {
  const one = (f: FlowName) => (f.label ? f.label : `flow ${f.id} ${f.cc}`);
  if (!baseline || !current) return baseline || current ? one((current ?? baseline)!) : `flow ${id}`;
  if (one(baseline) === one(current)) return one(current);
  if (!baseline.label && !current.label) return `flow ${id} ${baseline.cc} → ${current.cc}`;
  return `${one(baseline)} → ${one(current)}`;
}

/**
 * The rows comparing `current` with `baseline`: for every flow id in either run (ascending),
 * each metric of FLOW_METRICS; then Jain's fairness index when either run has several flows
 * that `shared` links (not flows run alone). A flow only one run has gets null on the other side.
 */
export function compareSummaries(baseline: RunSummary, current: RunSummary, shared = true): CompareRow[] {
  const byId = (s: RunSummary) => new Map(s.flows.map((f) => [f.id, f]));
  const b = byId(baseline);
  const c = byId(current);
  const ids = [...new Set([...b.keys(), ...c.keys()])].sort((x, y) => x - y);
  const rows: CompareRow[] = [];
  for (const id of ids) {
    const bf = b.get(id);
    const cf = c.get(id);
    const flow = flowTitle(bf, cf, id);
    for (const m of FLOW_METRICS) {
      const bv = bf ? m.get(bf) : null;
      const cv = cf ? m.get(cf) : null;
      rows.push({ flow, key: m.key, metric: m.label, unit: m.unit, digits: m.digits, baseline: bv, current: cv, diff: difference(bv, cv) });
    }
  }
  if (shared && (baseline.flows.length > 1 || current.flows.length > 1)) {
    const bv = baseline.fairness_jain ?? null;
    const cv = current.fairness_jain ?? null;
    rows.push({ flow: 'run', key: 'fairness', metric: "Jain's fairness index", unit: '', digits: 3, baseline: bv, current: cv, diff: difference(bv, cv) });
  }
  return rows;
}

/** A signed number for a difference cell: "+1.23", "−0.5" (a true minus sign), "0". */
export function signed(v: number, text: (x: number) => string): string {
  if (v === 0) return text(0);
  return v > 0 ? `+${text(v)}` : `−${text(-v)}`;
}

/** A value as the run's summary table writes it: fixed decimals, thousands separated for
 * whole numbers, "–" for none. */
export function formatValue(v: number | null, digits: number): string {
  if (v === null || !Number.isFinite(v)) return '–';
  return digits === 0 ? Math.round(v).toLocaleString('en') : v.toFixed(digits);
}
