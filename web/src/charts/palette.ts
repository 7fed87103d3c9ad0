// Colours and names shared by every chart, so a flow keeps its colour from one chart to the next.

import type { FlowSummary } from '../sim/results';

/** Okabe-Ito, reordered for a white background (yellow last: it is the weakest on white). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'] as const;

/** The colour of flow `id` (or of the i-th sweep series) in every chart. */
export const colorOf = (i: number): string => PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length];

/** Analytic overlays and paper references: dark, dashed, never a flow's colour. */
export const MODEL_COLOR = '#3b3b3b';
export const PAPER_COLOR = '#6a3d9a';

/** Congestion states (the `state` column), with colours for the state ribbon. */
export const STATE_COLORS = ['#56B4E9', '#d4d4d4', '#E69F00', '#CC3311'] as const;

/** "Reno" when the scenario names the flow, else "flow 0 cubic". */
export function flowName(f: Pick<FlowSummary, 'id' | 'cc' | 'label'>): string {
  return f.label ? f.label : `flow ${f.id} ${f.cc}`;
}

/** A number for people: 3 significant digits, no exponent for ordinary magnitudes. */
export function fmt(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? '–' : v > 0 ? '∞' : '−∞';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-4) return v.toExponential(digits - 1);
  if (a >= 10 ** digits) return Math.round(v).toLocaleString('en');
  return Number(v.toPrecision(digits)).toString();
}

/** Flow id → display name, for a run's flows. */
export function flowNames(flows: Pick<FlowSummary, 'id' | 'cc' | 'label'>[]): (id: number) => string {
  const m = new Map(flows.map((f) => [f.id, flowName(f)]));
  return (id) => m.get(id) ?? `flow ${id}`;
}
