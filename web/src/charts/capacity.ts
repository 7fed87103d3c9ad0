// The parts of a CTCP flow's bottleneck capacity (the core's `coding.capacity`) as shares and
// rounded percentages: what the capacity chart draws and the summary table prints. Apart from
// the chart so that the table, part of the first load, does not pull the chart and d3 in.

import type { CapacitySummary } from '../sim/results';

export type ShareKey = 'innovative' | 'redundant' | 'non_innovative' | 'lost' | 'in_flight' | 'other' | 'idle';

export interface Share {
  key: ShareKey;
  label: string;
  color: string;
  /** Packet slots of the link this part took. */
  slots: number;
  /** Fraction of the parts' total (0 when the total is 0). */
  share: number;
}

/** The parts, in the order of the bar (useful work first, unused capacity last) and their
 * colours: blues for what the receiver needed, oranges for waste and loss. */
export const PARTS: { key: ShareKey; label: string; color: string; of: (c: CapacitySummary) => number }[] = [
  { key: 'innovative', label: 'innovative', color: '#0072B2', of: (c) => c.innovative_pkts },
  { key: 'redundant', label: 'redundant, needed', color: '#56B4E9', of: (c) => c.redundant_needed_pkts },
  { key: 'non_innovative', label: 'non-innovative', color: '#E69F00', of: (c) => c.non_innovative_pkts },
  { key: 'lost', label: 'lost', color: '#D55E00', of: (c) => c.lost_pkts },
  { key: 'in_flight', label: 'in flight', color: '#CC79A7', of: (c) => c.in_flight_pkts },
  { key: 'other', label: 'other traffic', color: '#6e7781', of: (c) => c.other_pkt_slots },
  { key: 'idle', label: 'idle', color: '#d8dee4', of: (c) => c.idle_pkt_slots },
];

/** The parts' names, in bar order. */
export const CAPACITY_LABELS: readonly string[] = PARTS.map((p) => p.label);

/** The seven parts of `c` in bar order, each with its fraction of their sum. The core's parts add
 * up to the link's capacity to within one packet; dividing by their own sum makes the shares
 * add up to exactly 1. Negative or non-finite parts count as 0; with nothing at all, every share
 * is 0. */
export function capacityShares(c: CapacitySummary): Share[] {
  const slots = PARTS.map((p) => {
    const v = p.of(c);
    return Number.isFinite(v) && v > 0 ? v : 0;
  });
  const total = slots.reduce((a, b) => a + b, 0);
  return PARTS.map((p, i) => ({ key: p.key, label: p.label, color: p.color, slots: slots[i], share: total > 0 ? slots[i] / total : 0 }));
}

/** Percentages of `shares` rounded to `decimals` so that they add up to exactly 100 (largest
 * remainder): what the text and the table print. All zeros stay zeros. */
export function roundedPercents(shares: number[], decimals = 1): number[] {
  const unit = 10 ** decimals;
  const raw = shares.map((s) => s * 100 * unit);
  const total = raw.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return shares.map(() => 0);
  const floors = raw.map(Math.floor);
  let left = Math.round(100 * unit - floors.reduce((a, b) => a + b, 0));
  const order = raw.map((r, i) => [r - floors[i], i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i] += 1;
    left -= 1;
  }
  return floors.map((f) => f / unit);
}

/** "innovative 91.2%, redundant, needed 4.0%, …": every part with its rounded percentage. */
export function describeShares(shares: Share[]): string {
  const pcts = roundedPercents(shares.map((s) => s.share));
  return shares.map((s, i) => `${s.label} ${pcts[i].toFixed(1)}%`).join(', ');
}
