// Lookups into the constellation view (its types are core output, in sim/constellation.ts) and
// into a run's path timeline. Types only plus pure functions: the main bundle may import
// this file without pulling three.js in.

import type { NodeId, PathTimeline } from '../sim/results';

export type { ConstellationView, GroundView, OrbitView, SatelliteView } from '../sim/constellation';
import type { ConstellationView } from '../sim/constellation';

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
