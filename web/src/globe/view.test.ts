import { describe, expect, it } from 'vitest';
import type { PathTimeline } from '../sim/results';
import { cameraDistance, crossedBoundary, hasHighOrbits, groundIndex, outermostOrbitRe, nodeName, ROLE_NAMES, routeAt, routeIndexAt, slotAt, slotText, type ConstellationView } from './view';

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

describe('slot boundaries', () => {
  const b = [12, 27, 42, 57];

  it('the slot is the number of boundaries passed, a boundary at t included; the next is the first after t', () => {
    expect(slotAt(b, 0)).toEqual({ slot: 0, next: 12 });
    expect(slotAt(b, 12)).toEqual({ slot: 1, next: 27 });
    expect(slotAt(b, 26.9)).toEqual({ slot: 1, next: 27 });
    expect(slotAt(b, 60)).toEqual({ slot: 4, next: null });
    expect(slotAt([], 5)).toEqual({ slot: 0, next: null });
  });

  it('reads as the slot and the time to the next boundary', () => {
    expect(slotText(b, 0)).toBe('before the first slot · next boundary at 12.0 s (in 12.0 s)');
    expect(slotText(b, 23.6)).toBe('slot 1 of 4 · next boundary at 27.0 s (in 3.4 s)');
    expect(slotText(b, 58)).toBe('slot 4 of 4 · no boundary after 57.0 s');
  });

  it('a move of the cursor crosses a boundary when one lies between, either way', () => {
    expect(crossedBoundary(b, 11.9, 12)).toBe(true);
    expect(crossedBoundary(b, 12, 11.9)).toBe(true);
    expect(crossedBoundary(b, 12, 26)).toBe(false);
    expect(crossedBoundary(b, 0, 100)).toBe(true);
    expect(crossedBoundary([], 0, 100)).toBe(false);
    expect(crossedBoundary(b, 5, 5)).toBe(false);
  });
});

describe('ground roles', () => {
  it('each has a name for the read-out', () => {
    expect(ROLE_NAMES.gateway).toBe('gateway');
    expect(ROLE_NAMES.pop).toBe('point of presence');
  });
});

describe('the starting camera', () => {
  const view = (orbit: ConstellationView['satellites'][number]['orbit']): ConstellationView => ({
    epoch_utc: null,
    start_s: 0,
    satellites: [{ name: 's', shell: null, plane: null, slot: null, orbit }],
    ground: [],
    isl: [],
    earth_rotation_rad_s: 7.2921159e-5,
  });
  const tle2 = (n: string) => `2 25544  51.6461 221.2784 0001413  89.1723 280.4612 ${n}236008`;

  it('tells high orbits from low ones', () => {
    expect(hasHighOrbits(view({ kind: 'geo', longitude_deg: 0 }))).toBe(true);
    expect(hasHighOrbits(view({ kind: 'circular', radius_km: 6928, inclination_deg: 53, raan_deg: 0, u0_deg: 0, rate_rad_s: 0.001 }))).toBe(false);
    expect(hasHighOrbits(view({ kind: 'sgp4', tle_line1: '', tle_line2: tle2('15.49507896') }))).toBe(false);
    expect(hasHighOrbits(view({ kind: 'sgp4', tle_line1: '', tle_line2: tle2(' 1.00270000') }))).toBe(true);
    expect(hasHighOrbits(view({ kind: 'sgp4', omm: { MEAN_MOTION: 2.0 } }))).toBe(true);
  });

  it('comes closer for nearby places under LEO satellites only', () => {
    expect(cameraDistance(1.7, 1.18)).toBe(3.6);
    expect(cameraDistance(0.035, 1.18)).toBe(1.7);
    expect(cameraDistance(0.035, 2.5)).toBe(5.5);
    // A GEO satellite (6.6 Earth radii) is seen from outside its orbit, not from within it.
    const geo = outermostOrbitRe(view({ kind: 'geo', longitude_deg: 0 }));
    expect(geo).toBeCloseTo(6.61, 2);
    expect(cameraDistance(0.5, geo)).toBeGreaterThan(geo * 1.5);
  });
});
