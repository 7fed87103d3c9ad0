// The event marker mark: a small hollow diamond per instant (CTCP's decodes), at most one per
// two pixel columns of the view, so a series of a million events draws in constant time.

import type { ScaleLinear } from 'd3-scale';
import { lowerBound } from '../decimate';
import type { YScale } from './scales';
import type { MarkerSeries } from './types';

const R = 4;

/** Each marker series as one path, and how many of its markers it draws. */
export function markerPaths(markers: MarkerSeries[], xs: ScaleLinear<number, number>, ys: YScale): { d: string; count: number }[] {
  const [va, vb] = xs.domain();
  return markers.map((m) => {
    let d = '';
    let count = 0;
    let lastCol = -Infinity;
    for (let i = Math.max(0, lowerBound(m.x, va)); i < m.x.length && m.x[i] <= vb; i++) {
      const px = xs(m.x[i]);
      const col = Math.floor(px / 2);
      if (col === lastCol) continue;
      const y = typeof m.y === 'number' ? m.y : m.y[i];
      if (!Number.isFinite(y)) continue;
      lastCol = col;
      const py = ys(y);
      d += `M${px.toFixed(1)},${(py - R).toFixed(1)}l${R},${R}l${-R},${R}l${-R},${-R}Z`;
      count++;
    }
    return { d, count };
  });
}

/** The heights of the markers in [va, vb], for the y scale. */
export function markerHeights(markers: MarkerSeries[], va: number, vb: number): number[] {
  const out: number[] = [];
  for (const m of markers) {
    if (typeof m.y === 'number') out.push(m.y);
    else for (let i = Math.max(0, lowerBound(m.x, va)); i < m.x.length && m.x[i] <= vb; i++) out.push(m.y[i]);
  }
  return out;
}

export function Markers({ markers, paths }: { markers: MarkerSeries[]; paths: { d: string; count: number }[] }) {
  return (
    <>
      {markers.map((m, k) => (
        <path
          key={m.key}
          d={paths[k].d}
          style={{ fill: 'var(--chart-bg)' }}
          stroke={m.color}
          strokeWidth={1.3}
          data-testid={m.testid ?? 'markers'}
          data-series={m.label}
          data-points={m.x.length}
          data-drawn={paths[k].count}
        />
      ))}
    </>
  );
}
