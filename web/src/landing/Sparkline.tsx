// A thumbnail as a small SVG: thumbnails.ts computes the marks, React draws them. Colours
// are CSS classes over custom properties (landing.css), so a theme can change them.

import { useMemo } from 'react';
import { describeThumbnail, sparkGeometry, type Thumbnail } from './thumbnails';

/** Series beyond this many reuse the colours from the start. */
const COLOURS = 6;

/** Drawn in a `width`×`height` box and stretched to the card's width (landing.css): the lines
 * keep their stroke width whatever the stretch. */
export function Sparkline({ thumbnail, width = 240, height = 52 }: { thumbnail: Thumbnail; width?: number; height?: number }) {
  const g = useMemo(() => sparkGeometry(thumbnail, width, height), [thumbnail, width, height]);
  const label = describeThumbnail(thumbnail);
  return (
    <svg className="sparkline" height={height} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={label} data-testid="thumbnail" data-kind={thumbnail.kind}>
      <title>{label}</title>
      <line className="spark-axis" x1={0} x2={width} y1={height - 1.5} y2={height - 1.5} />
      {g.bars.map((b, i) => (
        <rect key={i} className="spark-bar" x={b.x} y={b.y} width={b.width} height={b.height} />
      ))}
      {g.lines.map((d, i) => (
        <path key={i} className={`spark-line spark-s${i % COLOURS}`} d={d} />
      ))}
    </svg>
  );
}
