// Lookups into the constellation view (its types are core output, in sim/constellation.ts) and
// into a run's path timeline. Types only plus pure functions: the main bundle may import
// this file without pulling three.js in.

import type { NodeId, PathTimeline } from '../sim/results';

export type { ConstellationView, GroundView, OrbitView, SatelliteView } from '../sim/constellation';
import type { ConstellationView, GroundView } from '../sim/constellation';

/** What each ground role is called in the read-out and the legend. */
export const ROLE_NAMES: Record<GroundView['role'], string> = {
  src: 'source',
  dst: 'destination',
  relay: 'relay',
  gateway: 'gateway',
  pop: 'point of presence',
};

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

/** Where time t stands against the scheduler's slot boundaries (sorted, simulation s): the
 * slot it is in (0 before the first boundary) and the next boundary, if any. */
export function slotAt(boundaries: readonly number[], t: number): { slot: number; next: number | null } {
  // The first boundary after t, by binary search: a boundary at t has just passed.
  let lo = 0;
  let hi = boundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (boundaries[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return { slot: lo, next: lo < boundaries.length ? boundaries[lo] : null };
}

/** The globe's slot read-out: which slot, and when the next boundary comes. */
export function slotText(boundaries: readonly number[], t: number): string {
  const { slot, next } = slotAt(boundaries, t);
  const where = slot === 0 ? 'before the first slot' : `slot ${slot} of ${boundaries.length}`;
  return next === null ? `${where} · no boundary after ${boundaries[boundaries.length - 1].toFixed(1)} s` : `${where} · next boundary at ${next.toFixed(1)} s (in ${(next - t).toFixed(1)} s)`;
}

/** Whether a move of the cursor from `from` to `to` (either way) crossed a slot boundary: one
 * lies in (min, max]. */
export function crossedBoundary(boundaries: readonly number[], from: number, to: number): boolean {
  if (from === to || !boundaries.length) return false;
  return slotAt(boundaries, Math.max(from, to)).slot > slotAt(boundaries, Math.min(from, to)).slot;
}

/** Whether any satellite of the view flies above about 2 Earth radii (GEO, MEO, Molniya): the
 * camera then stays far out. Walker shells by their radius, SGP4 sets by their mean motion
 * (under 6 rev/day is above about 8,000 km). */
export function hasHighOrbits(view: ConstellationView): boolean {
  return outermostOrbitRe(view) > 2;
}

const EARTH_RADIUS_KM = 6378.135;
const MU_KM3_S2 = 398600.4418;

/** The largest orbit radius among the satellites, in Earth radii (0 for none): a GEO satellite
 * is at 6.6, a LEO shell at about 1.1-1.2. An SGP4 orbit's from its mean motion (Kepler). */
export function outermostOrbitRe(view: ConstellationView): number {
  let out = 0;
  for (const { orbit: o } of view.satellites) {
    let km = 0;
    if (o.kind === 'geo') km = 42164.17;
    else if (o.kind === 'circular') km = o.radius_km;
    else if (o.kind === 'sgp4') {
      const n = 'tle_line2' in o ? Number(o.tle_line2.slice(52, 63)) : Number((o.omm as { MEAN_MOTION?: unknown } | null)?.MEAN_MOTION);
      if (Number.isFinite(n) && n > 0) km = Math.cbrt(MU_KM3_S2 / ((n * 2 * Math.PI) / 86400) ** 2);
    }
    out = Math.max(out, km / EARTH_RADIUS_KM);
  }
  return out;
}

/** How far (Earth radii from the centre) the camera starts: 3.6 shows a hemisphere and a LEO
 * shell around it; a path between nearby places (central angle in rad, under LEO satellites
 * only) is seen from closer, so its few hundred kilometres do not shrink to a dot; and high
 * orbits (`outermostRe` Earth radii, a GEO satellite at 6.6) are seen from well outside them
 * (and from near the equator: scene.ts), so the satellite is in the frame. */
export function cameraDistance(angleRad: number, outermostRe: number): number {
  if (outermostRe > 2) return Math.max(3.6, outermostRe * 2.2);
  return Math.min(3.6, Math.max(1.7, 1.5 + 2.5 * angleRad));
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
