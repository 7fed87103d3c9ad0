// Pure geometry for the globe: the core's closed-form circular orbit, ECEF/geodetic conversion
// over the core's spherical Earth, elevation, sidereal time and the Sun's direction. No three.js
// and no satellite.js here, so the formulas can be unit-tested and benchmarked alone.
//
// Sources: wasm-core/src/orbit/elements.rs (`Orbit::position`: ECI on the circle from
// u = u0 + rate·t, rotated about z by −ω_E·t to ECEF; docs/links-and-orbits.md §6) and geometry.rs (sphere of
// R = 6378.135 km, elevation sin ε = (v·u)/|v|); GMST by the IAU-82 formula (Vallado,
// "Fundamentals of Astrodynamics", eq. 3-47, as satellite.js's gstime); the Sun by the
// Astronomical Almanac's low-precision formulas (about 0.01°: plenty for a terminator).

/** WGS72 equatorial radius, km: the core's spherical Earth. */
export const EARTH_RADIUS_KM = 6378.135;
/** GEO altitude above the equator, km (the core's GEO_ALTITUDE_KM). */
export const GEO_ALTITUDE_KM = 35_786;
export const DEG = Math.PI / 180;

/** A Walker satellite's circular orbit, in the units the core's view gives. */
export interface CircularElements {
  radius_km: number;
  inclination_deg: number;
  raan_deg: number;
  u0_deg: number;
  rate_rad_s: number;
}

/** Precomputed per-satellite terms of the circular orbit: the trigonometry of the fixed angles
 * is done once, so a frame costs one sin/cos pair of u and one of the Earth angle per satellite. */
export interface CircularTerms {
  r: number;
  u0: number;
  rate: number;
  cosRaan: number;
  sinRaan: number;
  cosInc: number;
  sinInc: number;
}

export function circularTerms(o: CircularElements): CircularTerms {
  return {
    r: o.radius_km,
    u0: o.u0_deg * DEG,
    rate: o.rate_rad_s,
    cosRaan: Math.cos(o.raan_deg * DEG),
    sinRaan: Math.sin(o.raan_deg * DEG),
    cosInc: Math.cos(o.inclination_deg * DEG),
    sinInc: Math.sin(o.inclination_deg * DEG),
  };
}

/** ECEF position (km) at orbit time t of a circular orbit, written to out[k..k+3]: the core's
 * `Orbit::position` for `Orbit::Circular`, term for term. `earthAngle` = ω_E·t. */
export function circularEcef(o: CircularTerms, t: number, earthAngle: number, out: Float32Array | Float64Array, k: number): void {
  const u = o.u0 + o.rate * t;
  const su = Math.sin(u);
  const cu = Math.cos(u);
  const x = o.r * (o.cosRaan * cu - o.sinRaan * su * o.cosInc);
  const y = o.r * (o.sinRaan * cu + o.cosRaan * su * o.cosInc);
  const z = o.r * su * o.sinInc;
  rotateZInto(x, y, z, earthAngle, out, k);
}

/** ECI/TEME → ECEF: rotation about z by −θ (the core's rotate_z). */
export function rotateZInto(x: number, y: number, z: number, theta: number, out: Float32Array | Float64Array, k: number): void {
  const s = Math.sin(theta);
  const c = Math.cos(theta);
  out[k] = c * x + s * y;
  out[k + 1] = -s * x + c * y;
  out[k + 2] = z;
}

/** ECEF (km) of a point at latitude/longitude (°) and altitude (km) over the spherical Earth. */
export function geodeticToEcef(latDeg: number, lonDeg: number, altKm = 0): [number, number, number] {
  const lat = latDeg * DEG;
  const lon = lonDeg * DEG;
  const r = EARTH_RADIUS_KM + altKm;
  return [r * Math.cos(lat) * Math.cos(lon), r * Math.cos(lat) * Math.sin(lon), r * Math.sin(lat)];
}

/** Latitude (°), longitude (° in (−180, 180]) and altitude (km) of an ECEF point. */
export function ecefToGeodetic(x: number, y: number, z: number): { latDeg: number; lonDeg: number; altKm: number } {
  const r = Math.hypot(x, y, z);
  return { latDeg: Math.asin(z / r) / DEG, lonDeg: Math.atan2(y, x) / DEG, altKm: r - EARTH_RADIUS_KM };
}

/** Elevation (°) of `sat` seen from `ground` (both ECEF km): sin ε = (v·u)/|v|, v = S − G. */
export function elevationDeg(ground: ArrayLike<number>, sat: ArrayLike<number>): number {
  const vx = sat[0] - ground[0];
  const vy = sat[1] - ground[1];
  const vz = sat[2] - ground[2];
  const g = Math.hypot(ground[0], ground[1], ground[2]);
  const v = Math.hypot(vx, vy, vz);
  return Math.asin((vx * ground[0] + vy * ground[1] + vz * ground[2]) / (g * v)) / DEG;
}

/** Points along the great circle from `a` to `b` (ECEF km, any radius), `altKm` above the
 * sphere, written to `out` from index `k`: `n + 1` points, `a`'s direction first. What a ground-
 * to-ground hop (terrestrial fibre) follows on the globe, instead of a chord through the Earth.
 * Returns the number of values written. */
export function surfaceArcInto(a: ArrayLike<number>, b: ArrayLike<number>, n: number, altKm: number, out: Float32Array | Float64Array, k: number): number {
  const ra = Math.hypot(a[0], a[1], a[2]) || 1;
  const rb = Math.hypot(b[0], b[1], b[2]) || 1;
  const ax = a[0] / ra;
  const ay = a[1] / ra;
  const az = a[2] / ra;
  const bx = b[0] / rb;
  const by = b[1] / rb;
  const bz = b[2] / rb;
  const omega = Math.acos(Math.min(1, Math.max(-1, ax * bx + ay * by + az * bz)));
  const r = EARTH_RADIUS_KM + altKm;
  const sinO = Math.sin(omega);
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    // Slerp; for (nearly) coincident ends a straight blend is the same point.
    const wa = sinO > 1e-9 ? Math.sin((1 - f) * omega) / sinO : 1 - f;
    const wb = sinO > 1e-9 ? Math.sin(f * omega) / sinO : f;
    const x = wa * ax + wb * bx;
    const y = wa * ay + wb * by;
    const z = wa * az + wb * bz;
    const len = Math.hypot(x, y, z) || 1;
    out[k + i * 3] = (x / len) * r;
    out[k + i * 3 + 1] = (y / len) * r;
    out[k + i * 3 + 2] = (z / len) * r;
  }
  return (n + 1) * 3;
}

/** Central angle (rad) between two ECEF points as seen from the Earth's centre. */
export function centralAngle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const ra = Math.hypot(a[0], a[1], a[2]) || 1;
  const rb = Math.hypot(b[0], b[1], b[2]) || 1;
  return Math.acos(Math.min(1, Math.max(-1, (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (ra * rb))));
}

/** Julian date of a JavaScript time (ms since 1970, UTC). */
export function julianDate(ms: number): number {
  return ms / 86_400_000 + 2_440_587.5;
}

/** Greenwich mean sidereal time (rad, in [0, 2π)) at a Julian date (UT1 ≈ UTC), IAU-82. */
export function gmstRad(jd: number): number {
  const t = (jd - 2_451_545.0) / 36_525;
  let s = -6.2e-6 * t * t * t + 0.093104 * t * t + (876_600.0 * 3600 + 8_640_184.812866) * t + 67_310.54841;
  s = ((s * DEG) / 240.0) % (2 * Math.PI);
  return s < 0 ? s + 2 * Math.PI : s;
}

/** Unit vector towards the Sun in ECI (mean equator and equinox of date) at a Julian date. */
export function sunDirectionEci(jd: number): [number, number, number] {
  const n = jd - 2_451_545.0;
  const meanLon = (280.46 + 0.9856474 * n) * DEG;
  const g = (357.528 + 0.9856003 * n) * DEG;
  const eclLon = meanLon + (1.915 * Math.sin(g) + 0.02 * Math.sin(2 * g)) * DEG;
  const obliquity = (23.439 - 4e-7 * n) * DEG;
  return [Math.cos(eclLon), Math.cos(obliquity) * Math.sin(eclLon), Math.sin(obliquity) * Math.sin(eclLon)];
}

/** Unit vector towards the Sun in ECEF at a JavaScript time (ms, UTC): what lights the Earth. */
export function sunDirectionEcef(ms: number): [number, number, number] {
  const jd = julianDate(ms);
  const [x, y, z] = sunDirectionEci(jd);
  const out = new Float64Array(3);
  rotateZInto(x, y, z, gmstRad(jd), out, 0);
  return [out[0], out[1], out[2]];
}
