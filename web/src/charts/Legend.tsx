// A legend drawn inside the chart's SVG (so exports carry it), wrapped over as many rows as the
// width needs.

export interface LegendItem {
  label: string;
  color: string;
  /** line: a stroke (dashed if `dash`); swatch: a filled box; marker: a hollow diamond; glyph:
   * the filled path `glyph` (in the entry's 20 × 15 box). */
  kind?: 'line' | 'swatch' | 'marker' | 'glyph';
  glyph?: string;
  dash?: string;
  opacity?: number;
}

const ROW_H = 16;
const charW = 6.4;

export interface LegendLayout {
  items: { item: LegendItem; x: number; y: number }[];
  height: number;
}

/** Positions for the items, left to right, wrapping at `width`. */
export function layoutLegend(items: LegendItem[], width: number): LegendLayout {
  const out: LegendLayout['items'] = [];
  let x = 0;
  let row = 0;
  for (const item of items) {
    const w = 26 + item.label.length * charW + 14;
    if (x > 0 && x + w > width) {
      row++;
      x = 0;
    }
    out.push({ item, x, y: row * ROW_H });
    x += w;
  }
  return { items: out, height: items.length ? (row + 1) * ROW_H : 0 };
}

export function Legend({ layout, x, y }: { layout: LegendLayout; x: number; y: number }) {
  return (
    <g className="legend" transform={`translate(${x},${y})`}>
      {layout.items.map(({ item, x: ix, y: iy }) => (
        <g key={`${item.label}@${ix},${iy}`} transform={`translate(${ix},${iy})`}>
          {item.kind === 'swatch' ? (
            <rect x={0} y={3} width={20} height={9} fill={item.color} />
          ) : item.kind === 'glyph' ? (
            <path d={item.glyph} fill={item.color} />
          ) : item.kind === 'marker' ? (
            <path d="M10,2 L15,7.5 L10,13 L5,7.5 Z" style={{ fill: 'var(--chart-bg)' }} stroke={item.color} strokeWidth={1.6} />
          ) : (
            <line x1={0} x2={20} y1={7.5} y2={7.5} stroke={item.color} strokeWidth={2} strokeDasharray={item.dash} strokeOpacity={item.opacity} />
          )}
          <text x={26} y={7.5} dominantBaseline="central" className="legend-text">
            {item.label}
          </text>
        </g>
      ))}
    </g>
  );
}
