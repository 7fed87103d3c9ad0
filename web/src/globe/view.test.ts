import { describe, expect, it } from 'vitest';
import type { PathTimeline } from '../sim/results';
import { groundIndex, nodeName, routeAt, routeIndexAt, type ConstellationView } from './view';

const path: PathTimeline = {
  src: 'Beijing',
  dst: 'New York',
  step_s: 1,
  steps: { t_s: [0, 1, 2, 3], hops: [3, 3, 0, 4], owd_ms: [50, 51, null, 60], bottleneck_mbps: [20, 20, 0, 20] },
  routes: [
    { t_s: 0, nodes: [-1, 5, 6, -2] },
    { t_s: 2, nodes: [] },
    { t_s: 3, nodes: [-1, 5, 7, 8, -2] },
  ],
  events: [],
  nodes_used: 5,
};

describe('route lookups', () => {
  it('the route in force is the last one starting at or before t', () => {
    expect(routeIndexAt(path, -1)).toBe(-1);
    expect(routeIndexAt(path, 0)).toBe(0);
    expect(routeIndexAt(path, 1.99)).toBe(0);
    expect(routeAt(path, 2.5)).toEqual([]);
    expect(routeAt(path, 3)).toEqual([-1, 5, 7, 8, -2]);
    expect(routeAt(path, 1e9)).toEqual([-1, 5, 7, 8, -2]);
    expect(routeAt(undefined, 1)).toEqual([]);
  });

  it('negative node ids are ground stations in the view order', () => {
    const view: ConstellationView = {
      epoch_utc: null,
      start_s: 0,
      satellites: [{ name: 'W0-0-0', shell: 0, plane: 0, slot: 0, orbit: { kind: 'geo', longitude_deg: 0 } }],
      ground: [
        { name: 'Beijing', lat_deg: 39.9, lon_deg: 116.41, role: 'src' },
        { name: 'New York', lat_deg: 40.71, lon_deg: -74.01, role: 'dst' },
        { name: 'London', lat_deg: 51.51, lon_deg: -0.13, role: 'relay' },
      ],
      isl: [],
      earth_rotation_rad_s: 7.2921159e-5,
    };
    expect(groundIndex(-3)).toBe(2);
    expect([-1, -2, -3, 0].map((id) => nodeName(view, id))).toEqual(['Beijing', 'New York', 'London', 'W0-0-0']);
  });
});
