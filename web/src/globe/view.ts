// The constellation view the core computes for the globe (wasm-core/src/orbit/view.rs), and
// lookups into a run's path timeline. Types only plus pure functions: the main bundle may import
// this file without pulling three.js in.

import type { NodeId, PathTimeline } from '../sim/results';

export type OrbitView =
  | { kind: 'circular'; radius_km: number; inclination_deg: number; raan_deg: number; u0_deg: number; rate_rad_s: number }
  | { kind: 'geo'; longitude_deg: number }
  | { kind: 'sgp4'; tle_line1: string; tle_line2: string }
  | { kind: 'sgp4'; omm: Record<string, unknown> }
  /** An SGP4 satellite the core holds without its text: not drawable. */
  | { kind: 'unsourced' };

export interface SatelliteView {
  name: string;
  shell: number | null;
  plane: number | null;
  slot: number | null;
  orbit: OrbitView;
}

export interface GroundView {
  name: string;
  lat_deg: number;
  lon_deg: number;
  role: 'src' | 'dst' | 'relay';
}

export interface ConstellationView {
  /** UTC of orbit time 0 for SGP4 satellites; null without any. */
  epoch_utc: string | null;
  /** Orbit time at simulation time 0, s. */
  start_s: number;
  satellites: SatelliteView[];
  ground: GroundView[];
  /** Undirected +Grid pairs by satellite index. */
  isl: [number, number][];
  earth_rotation_rad_s: number;
}

/** Ground station index (into `view.ground`) of a negative node id. */
export function groundIndex(id: NodeId): number {
  return -id - 1;
}

export function nodeName(view: ConstellationView, id: NodeId): string {
  if (id >= 0) return view.satellites[id]?.name ?? `satellite ${id}`;
  return view.ground[groundIndex(id)]?.name ?? `station ${groundIndex(id)}`;
}

/** The index of the route in force at simulation time t (the last one starting at or before
 * t), or -1 before the first. Routes are few (one per change), so a binary search per frame is
 * cheap. */
export function routeIndexAt(path: PathTimeline | undefined, t: number): number {
  const routes = path?.routes;
  if (!routes?.length) return -1;
  let lo = 0;
  let hi = routes.length - 1;
  if (routes[0].t_s > t) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (routes[mid].t_s <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The node list in force at t (empty: no path). */
export function routeAt(path: PathTimeline | undefined, t: number): NodeId[] {
  const i = routeIndexAt(path, t);
  return i < 0 ? [] : path!.routes[i].nodes;
}

/** Plane colours: a fixed hue wheel so neighbouring planes differ and a shell reads as bands. */
export function planeColor(plane: number, planes: number, shell = 0): [number, number, number] {
  const h = ((plane / Math.max(1, planes)) * 300 + shell * 47) % 360;
  return hslToRgb(h, 0.75, 0.6);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [r + m, g + m, b + m];
}
