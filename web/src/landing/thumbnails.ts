// The landing cards' thumbnails: the chart each preset produces, in miniature, from real runs of
// the CLI (scripts/gen-thumbnails.mjs writes thumbnails.gen.json; its --check keeps it in step
// with scenarios/). Here: their type, the lookup, and the geometry of a sparkline, kept pure so
// it is tested without a DOM. The landing is the first screen, so its marks are two linear maps
// written here rather than d3-scale and d3-shape, which stay in the charts' chunk (14 KiB
// gzipped that the first load would otherwise fetch).

import generated from './thumbnails.gen.json';

export interface ThumbnailSeries {
  label: string;
  /** [x, y] pairs: time and goodput, or a swept value (a bar's index) and mean goodput. */
  points: [number, number][];
  /** A bar chart's grid points, named. */
  names?: string[];
}

export interface Thumbnail {
  /** sha256 of the preset file's text when it was generated. */
  hash: string;
  /** Goodput over time per flow, mean goodput against a swept number, or one bar per grid point. */
  kind: 'time' | 'sweep' | 'bars';
  x: string;
  y: string;
  /** A sweep with many series shows those at the first value of its other swept numbers. */
  fixed?: string;
  series: ThumbnailSeries[];
}

export const THUMBNAILS: Readonly<Record<string, Thumbnail>> = generated as unknown as Record<string, Thumbnail>;

export function thumbnailOf(presetId: string | undefined): Thumbnail | undefined {
  return presetId === undefined ? undefined : THUMBNAILS[presetId];
}

export interface SparkGeometry {
  /** One SVG path per series (lines), in series order. */
  lines: string[];
  bars: { x: number; y: number; width: number; height: number }[];
}

/** The marks of a thumbnail in a `width`×`height` box with `pad` pixels kept free at the edges.
 * The y axis starts at zero (goodput), so a flat line near the top reads as "full rate". */
export function sparkGeometry(t: Thumbnail, width: number, height: number, pad = 2): SparkGeometry {
  const all = t.series.flatMap((s) => s.points);
  const yMax = Math.max(0, ...all.map((p) => p[1])) || 1;
  const y = linear(0, yMax, height - pad, pad);
  if (t.kind === 'bars') {
    const pts = t.series[0]?.points ?? [];
    // Bands as d3's scaleBand with padding 0.2 lays them out: inner and outer gaps of a fifth
    // of a step, centred.
    const step = (width - 2 * pad) / Math.max(1, pts.length + 0.2);
    return {
      lines: [],
      bars: pts.map((p, i) => ({ x: pad + step * (0.2 + i), y: y(p[1]), width: step * 0.8, height: height - pad - y(p[1]) })),
    };
  }
  const xs = all.map((p) => p[0]);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const x = lo === hi ? linear(lo - 1, hi + 1, pad, width - pad) : linear(lo, hi, pad, width - pad);
  const path = (points: [number, number][]) =>
    points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p[0])},${y(p[1])}`).join('') + (points.length === 1 ? 'Z' : '');
  return { lines: t.series.map((s) => path(s.points)), bars: [] };
}

/** The linear map of [d0, d1] onto [r0, r1]. */
function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  return (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
}

/** What the thumbnail shows, in words (its title for people who hover, and its text alternative). */
export function describeThumbnail(t: Thumbnail): string {
  const n = t.series.length;
  switch (t.kind) {
    case 'time':
      return `Goodput over time${n > 1 ? `, ${n} flows` : ''}`;
    case 'sweep':
      return `Mean goodput against ${t.x.replace(/^.*\./, '')}${n > 1 ? `, ${n} series` : ''}${t.fixed ? ` (at ${t.fixed})` : ''}`;
    case 'bars':
      return `Mean goodput of each of ${t.series[0]?.points.length ?? 0} sweep points`;
  }
}
