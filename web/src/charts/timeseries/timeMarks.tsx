// The route-event marks of a chart over simulation time: a small glyph under the plot per
// handover or route change in view, one path per kind, and a thin dashed rule across the plots
// at each of the scheduler's slot boundaries (the events and boundaries come with the shared
// time cursor, timeCursor.ts). A scheduled terminal's handovers are told apart by cause: at a
// slot boundary (a triangle, as any handover) or with its satellite lost mid-slot (a red
// diamond), so the two read apart in colour and in shape.

import type { ScaleLinear } from 'd3-scale';
import type { TimeMark, TimeMarkKind } from '../../timeCursor';

export const MARK_COLORS: Record<TimeMarkKind, string> = { handover: '#c2410c', slot_handover: '#c2410c', lost_handover: '#be123c', route_change: '#6d28d9' };
export const MARK_KINDS: TimeMarkKind[] = ['handover', 'slot_handover', 'lost_handover', 'route_change'];
export const MARK_LABELS: Record<TimeMarkKind, string> = {
  handover: 'handover',
  slot_handover: 'handover at a slot boundary',
  lost_handover: 'handover: satellite lost mid-slot',
  route_change: 'route change',
};
/** Each kind's glyph, relative to its point on the bottom edge (7 px tall, below the edge). */
const GLYPHS: Record<TimeMarkKind, string> = {
  handover: 'l4,7h-8Z',
  slot_handover: 'l4,7h-8Z',
  lost_handover: 'l4,4l-4,4l-4,-4Z',
  route_change: 'l4,7h-8Z',
};
/** The legend's glyph of each kind, in its 20 × 15 box. */
export const MARK_LEGEND_GLYPHS: Record<TimeMarkKind, string> = {
  handover: 'M10,3l5,9h-10Z',
  slot_handover: 'M10,3l5,9h-10Z',
  lost_handover: 'M10,2l5,5.5l-5,5.5l-5,-5.5Z',
  route_change: 'M10,3l5,9h-10Z',
};

export const SLOT_COLOR = '#64748b';
export const SLOT_DASH = '2 3';
export const SLOT_LABEL = 'slot boundary';

/** One path per kind with marks in view, at the bottom edge `y` of the panels. */
export function timeMarkPaths(marks: TimeMark[], xs: ScaleLinear<number, number>, y: number): { kind: TimeMarkKind; d: string; count: number }[] {
  const [va, vb] = xs.domain();
  return MARK_KINDS.map((kind) => {
    let d = '';
    let count = 0;
    for (const m of marks) {
      if (m.kind !== kind || m.t < va || m.t > vb) continue;
      d += `M${xs(m.t).toFixed(1)},${y}${GLYPHS[kind]}`;
      count++;
    }
    return { kind, d, count };
  }).filter((m) => m.count > 0);
}

/** The slot boundaries in view as vertical rules from 0 to `h`. */
export function slotRulePath(slots: readonly number[], xs: ScaleLinear<number, number>, h: number): { d: string; count: number } {
  const [va, vb] = xs.domain();
  let d = '';
  let count = 0;
  for (const t of slots) {
    if (t < va || t > vb) continue;
    d += `M${xs(t).toFixed(1)},0v${h}`;
    count++;
  }
  return { d, count };
}

export function TimeMarks({ paths }: { paths: ReturnType<typeof timeMarkPaths> }) {
  return (
    <>
      {paths.map((m) => (
        <path key={m.kind} d={m.d} fill={MARK_COLORS[m.kind]} data-testid="time-marks" data-kind={m.kind} data-drawn={m.count} pointerEvents="none" />
      ))}
    </>
  );
}

export function SlotRules({ rules }: { rules: ReturnType<typeof slotRulePath> }) {
  if (!rules.d) return null;
  return <path d={rules.d} fill="none" stroke={SLOT_COLOR} strokeWidth={1} strokeDasharray={SLOT_DASH} strokeOpacity={0.8} data-testid="slot-marks" data-drawn={rules.count} pointerEvents="none" />;
}
