// The route-event mark of a chart over simulation time: a small triangle under the plot per
// handover or route change in view, one path per kind (the events come with the shared time
// cursor, timeCursor.ts).

import type { ScaleLinear } from 'd3-scale';
import type { TimeMark } from '../../timeCursor';

export const MARK_COLORS: Record<TimeMark['kind'], string> = { handover: '#c2410c', route_change: '#6d28d9' };
export const MARK_KINDS: TimeMark['kind'][] = ['handover', 'route_change'];
export const MARK_LABELS: Record<TimeMark['kind'], string> = { handover: 'handover', route_change: 'route change' };

/** One path per kind of the marks in view, at the bottom edge `y` of the panels. */
export function timeMarkPaths(marks: TimeMark[], xs: ScaleLinear<number, number>, y: number): { kind: TimeMark['kind']; d: string; count: number }[] {
  const [va, vb] = xs.domain();
  return MARK_KINDS.map((kind) => {
    let d = '';
    let count = 0;
    for (const m of marks) {
      if (m.kind !== kind || m.t < va || m.t > vb) continue;
      d += `M${xs(m.t).toFixed(1)},${y}l4,7h-8Z`;
      count++;
    }
    return { kind, d, count };
  });
}

export function TimeMarks({ paths }: { paths: ReturnType<typeof timeMarkPaths> }) {
  return (
    <>
      {paths.map((m) =>
        m.d ? <path key={m.kind} d={m.d} fill={MARK_COLORS[m.kind]} data-testid="time-marks" data-kind={m.kind} data-drawn={m.count} pointerEvents="none" /> : null,
      )}
    </>
  );
}
