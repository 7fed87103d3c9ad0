import { describe, expect, it } from 'vitest';
import { gstime, jday } from 'satellite.js';
import { centralAngle, circularEcef, circularTerms, elevationDeg, geodeticToEcef, gmstRad, julianDate, sunDirectionEcef, surfaceArcInto, DEG, EARTH_RADIUS_KM } from './geo';

describe('geo', () => {
  it('sidereal time is the IAU-82 formula satellite.js uses', () => {
    for (const iso of ['2020-07-12T21:16:01Z', '2024-06-04T19:47:25Z', '2026-03-20T12:00:00Z']) {
      const d = new Date(iso);
      expect(julianDate(d.getTime())).toBeCloseTo(jday(d), 8);
      expect(gmstRad(julianDate(d.getTime()))).toBeCloseTo(gstime(d), 9);
    }
  });

  it('the Sun is over the equator near 0° E at the March equinox at noon UTC, and at 23.4° N in June', () => {
    const [x, y, z] = sunDirectionEcef(Date.parse('2026-03-20T12:00:00Z'));
    expect(Math.asin(z) / DEG).toBeCloseTo(0, 0);
    // The equation of time moves the subsolar point by under 2° then.
    expect(Math.abs(Math.atan2(y, x) / DEG)).toBeLessThan(2.5);
    const june = sunDirectionEcef(Date.parse('2026-06-21T12:00:00Z'));
    expect(Math.asin(june[2]) / DEG).toBeCloseTo(23.4, 0);
  });

  it('a satellite straight overhead is at 90° elevation, one on the horizon plane at 0°', () => {
    const g = geodeticToEcef(40, 116);
    // asin near 1 keeps only about 6 digits of the angle.
    expect(elevationDeg(g, geodeticToEcef(40, 116, 550))).toBeCloseTo(90, 4);
    const r = Math.hypot(...g);
    const east = [-Math.sin(116 * DEG), Math.cos(116 * DEG), 0];
    const horizon = g.map((v, i) => v + east[i] * 1000);
    expect(elevationDeg(g, horizon)).toBeCloseTo(0, 6);
    expect(r).toBeCloseTo(6378.135, 6);
  });

  it('the circular orbit keeps its radius and starts where u0 and the RAAN put it', () => {
    const terms = circularTerms({ radius_km: 7528.135, inclination_deg: 53, raan_deg: 90, u0_deg: 0, rate_rad_s: 1e-3 });
    const out = new Float64Array(3);
    circularEcef(terms, 0, 0, out, 0);
    // u = 0 is the ascending node: on the equator at RAAN 90°, i.e. the +y axis.
    expect(out[0]).toBeCloseTo(0, 6);
    expect(out[1]).toBeCloseTo(7528.135, 6);
    expect(out[2]).toBeCloseTo(0, 6);
    circularEcef(terms, 1234, 0.09, out, 0);
    expect(Math.hypot(out[0], out[1], out[2])).toBeCloseTo(7528.135, 6);
  });

  it('a surface arc runs from one station to the other along the great circle, above the ground', () => {
    const a = geodeticToEcef(50.33, 8.54);
    const b = geodeticToEcef(50.11, 8.68);
    const out = new Float64Array(5 * 3);
    expect(surfaceArcInto(a, b, 4, 8, out, 0)).toBe(15);
    const r = EARTH_RADIUS_KM + 8;
    for (let i = 0; i < 5; i++) expect(Math.hypot(out[i * 3], out[i * 3 + 1], out[i * 3 + 2])).toBeCloseTo(r, 6);
    // acos near 1 keeps about 8 digits of the angle: 1e-7 rad is 0.6 m.
    expect(centralAngle(out.subarray(0, 3), a)).toBeLessThan(1e-7);
    expect(centralAngle(out.subarray(12, 15), b)).toBeLessThan(1e-7);
    // Evenly spaced: the middle point halves the angle.
    expect(centralAngle(out.subarray(6, 9), a)).toBeCloseTo(centralAngle(a, b) / 2, 7);
    // Coincident ends (a server at its PoP) give one point, not NaN.
    surfaceArcInto(a, a, 2, 0, out, 0);
    expect(Array.from(out.subarray(0, 9)).every(Number.isFinite)).toBe(true);
  });
});
