// The constellation view the core computes for the globe (wasm-core/src/orbit/view.rs): core
// output, so it lives with the other result types; the globe imports it from here.

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
