// The legend's entries of a time-series chart: each mark's, in a fixed order (lines, extra
// entries, markers, the paper, functions, references, the lower panel, ribbon states, route
// events and slot boundaries). Lines with the same label share one entry.

import { PAPER_COLOR } from '../palette';
import type { LegendItem } from '../Legend';
import type { ClaimMark } from '../PaperClaims';
import type { TimeMark } from '../../timeCursor';
import { PAPER_DASH } from './paper';
import { MARK_COLORS, MARK_KINDS, MARK_LABELS, MARK_LEGEND_GLYPHS, SLOT_COLOR, SLOT_DASH, SLOT_LABEL } from './timeMarks';
import { REF_DASH, type FnSeries, type LineSeries, type MarkerSeries, type RefLine, type RibbonSpec } from './types';

export interface LegendMarks {
  series: LineSeries[];
  extra: LegendItem[];
  markers: MarkerSeries[];
  paper: ClaimMark[];
  fns: FnSeries[];
  refs: RefLine[];
  lowerSeries: LineSeries[];
  lowerRefs: RefLine[];
  ribbons?: RibbonSpec;
  /** The route's events, when the chart shares the time cursor. */
  timeMarks?: TimeMark[];
  /** The scheduler's slot boundaries, likewise. */
  slots?: readonly number[];
}

export function legendItems(m: LegendMarks): LegendItem[] {
  const items: LegendItem[] = [];
  const seen = new Set<string>();
  const lines = (list: LineSeries[]) => {
    for (const s of list)
      if (!s.noLegend && !seen.has(s.label)) {
        seen.add(s.label);
        items.push({ label: s.label, color: s.color, dash: s.dash, opacity: s.opacity });
      }
  };
  const refs = (list: RefLine[]) => {
    for (const r of list) items.push({ label: r.label, color: r.color, dash: r.dash ?? REF_DASH });
  };
  lines(m.series);
  items.push(...m.extra);
  for (const k of m.markers) items.push({ label: k.label, color: k.color, kind: 'marker' });
  if (m.paper.length)
    items.push(m.paper.some((p) => p.kind === 'point') ? { label: 'paper', color: PAPER_COLOR, kind: 'marker' } : { label: 'paper', color: PAPER_COLOR, dash: PAPER_DASH });
  for (const f of m.fns) items.push({ label: f.label, color: f.color, dash: f.dash });
  refs(m.refs);
  lines(m.lowerSeries);
  refs(m.lowerRefs);
  const ribbons = m.ribbons;
  if (ribbons?.rows.length) ribbons.names.forEach((n, i) => items.push({ label: n, color: ribbons.colors[i], kind: 'swatch' }));
  for (const kind of MARK_KINDS)
    if (m.timeMarks?.some((t) => t.kind === kind)) items.push({ label: MARK_LABELS[kind], color: MARK_COLORS[kind], kind: 'glyph', glyph: MARK_LEGEND_GLYPHS[kind] });
  if (m.slots?.length) items.push({ label: SLOT_LABEL, color: SLOT_COLOR, dash: SLOT_DASH });
  return items;
}
