// The baseline mark: a pinned run's lines drawn dashed under this run's, as a style of the line
// mark (lines.tsx draws them). Each line keeps its flow's colour, so "flow 0 then" sits beside
// "flow 0 now"; one legend entry, in the text colour, says which run the dashes are.

import type { LegendItem } from '../Legend';
import type { BaselineLines, LineSeries } from './types';

/** The baseline's dash: longer than the references' (6 3) and the ssthresh lines' (5 3). */
export const BASELINE_DASH = '9 4';

/** The baseline's lines restyled: dashed, a little lighter, out of the legend and the hover
 * read-out's series, with their own test id. */
export function baselineSeries(b: BaselineLines | undefined): LineSeries[] {
  if (!b) return [];
  return b.series.map((s) => ({
    ...s,
    key: `baseline-${s.key}`,
    label: `${b.label}: ${s.label}`,
    dash: BASELINE_DASH,
    width: Math.max(1.2, (s.width ?? 1.5) - 0.2),
    opacity: Math.min(s.opacity ?? 1, 0.85),
    noLegend: true,
    testid: 'series-baseline',
  }));
}

/** The one legend entry of the baseline's lines. */
export function baselineLegend(b: BaselineLines | undefined): LegendItem[] {
  return b && b.series.length ? [{ label: b.label, color: 'currentColor', dash: BASELINE_DASH }] : [];
}
