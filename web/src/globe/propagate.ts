// Satellite positions for the globe, in the core's ECEF frame (km), for any orbit time:
// - Walker (circular) satellites by the core's own closed form (geo.ts), from the view's elements;
// - GEO satellites fixed above their longitude;
// - SGP4 satellites by satellite.js from the same TLE lines / OMM records the core read, rotated
//   from TEME to ECEF as the core does: by GMST at the epoch plus ω_E·t.
// Positions go into one Float32Array (x, y, z per satellite; NaN where SGP4 fails), which the
// scene copies straight into its GPU buffers. Nothing here allocates per frame.

import {
  BulkPropagator,
  EciBaseCalculator,
  createSingleThreadRuntime,
  json2satrec,
  sgp4,
  twoline2satrec,
  type OMMJsonObject,
  type SatRec,
} from 'satellite.js';
import { circularEcef, circularTerms, geodeticToEcef, gmstRad, julianDate, rotateZInto, GEO_ALTITUDE_KM, type CircularTerms } from './geo';
import type { ConstellationView } from './view';

/** Used when a constellation has no SGP4 satellites: orbit time 0 then has no date, and the Sun
 * needs one. The March equinox at noon UTC puts the Sun over the equator near 0° E. */
export const REFERENCE_EPOCH_UTC = '2026-03-20T12:00:00Z';

/** Above this many SGP4 satellites, satellite.js's WASM bulk propagator is loaded and used. */
export const BULK_THRESHOLD = 500;

/** Orbit seconds between exact SGP4 keyframes. Cubic Hermite interpolation from positions and
 * velocities errs by about r·(ω·Δt)⁴/384: 5 m for a LEO orbit at 120 s (ω ≈ 1.1e-3 rad/s),
 * far below a pixel, while 10,000 SGP4 calls happen once per 120 s of orbit time instead of
 * every frame. */
export const KEYFRAME_S = 120;
/** The next keyframe is computed over this many frames ahead of need (JS propagator): at 100×
 * and 60 frames/s an interval lasts 72 frames. */
const KEYFRAME_SLICES = 12;

type SingleThreadRuntime = Awaited<ReturnType<typeof createSingleThreadRuntime>>;

type Slot = { kind: 'circular'; terms: CircularTerms } | { kind: 'fixed'; ecef: [number, number, number] } | { kind: 'sgp4'; k: number } | { kind: 'none' };

export class Propagator {
  readonly count: number;
  /** ECEF km of every satellite after the last `update`. */
  readonly positions: Float32Array;
  /** ms since 1970 of orbit time 0. */
  readonly epochMs: number;
  /** Whether the epoch is a real one (from SGP4 elements) or REFERENCE_EPOCH_UTC. */
  readonly realEpoch: boolean;
  readonly earthRotation: number;
  private readonly slots: Slot[];
  // Struct-of-arrays copy of the circular orbits: the hot loop reads typed arrays only.
  private readonly circIndex: Int32Array;
  private readonly circ: Float64Array;
  private readonly sgp4Index: Int32Array;
  private readonly satrecs: SatRec[];
  /** Minutes from each SGP4 set's own epoch to orbit time 0. */
  private readonly sgp4Offset: Float64Array;
  private readonly gmst0: number;
  private bulk: { propagator: BulkPropagator<[EciBaseCalculator], SingleThreadRuntime>; runtime: SingleThreadRuntime } | null = null;
  private readonly dates: Date[] = [new Date(0)];
  /** SGP4 keyframes: TEME position and velocity (6 per satellite) at t0 (a), t0 + KEYFRAME_S
   * (b) and, filled ahead, t0 + 2·KEYFRAME_S (next). */
  private readonly keys: { t0: number; a: Float64Array; b: Float64Array; next: Float64Array; nextT: number; nextFilled: number };
  private disposed = false;
  /** Satellites whose elements satellite.js refused, with why. */
  readonly problems: string[] = [];

  constructor(view: ConstellationView) {
    this.count = view.satellites.length;
    this.positions = new Float32Array(this.count * 3);
    this.realEpoch = view.epoch_utc !== null;
    this.epochMs = Date.parse(view.epoch_utc ?? REFERENCE_EPOCH_UTC);
    this.earthRotation = view.earth_rotation_rad_s;
    const epochJd = julianDate(this.epochMs);
    this.gmst0 = gmstRad(epochJd);
    this.satrecs = [];
    const offsets: number[] = [];
    const circ: number[] = [];
    const circIndex: number[] = [];
    const sgp4Index: number[] = [];
    this.slots = view.satellites.map((s, i): Slot => {
      const o = s.orbit;
      switch (o.kind) {
        case 'circular': {
          const terms = circularTerms(o);
          circIndex.push(i);
          circ.push(terms.r, terms.u0, terms.rate, terms.cosRaan, terms.sinRaan, terms.cosInc, terms.sinInc);
          return { kind: 'circular', terms };
        }
        case 'geo':
          return { kind: 'fixed', ecef: geodeticToEcef(0, o.longitude_deg, GEO_ALTITUDE_KM) };
        case 'sgp4': {
          let rec: SatRec;
          try {
            rec = 'omm' in o ? json2satrec(o.omm as unknown as OMMJsonObject) : twoline2satrec(o.tle_line1, o.tle_line2);
          } catch (e) {
            this.problems.push(`${s.name}: ${e instanceof Error ? e.message : String(e)}`);
            return { kind: 'none' };
          }
          const k = this.satrecs.length;
          this.satrecs.push(rec);
          sgp4Index.push(i);
          offsets.push((epochJd - rec.jdsatepoch) * 1440);
          return { kind: 'sgp4', k };
        }
        case 'unsourced':
          return { kind: 'none' };
      }
    });
    this.circ = Float64Array.from(circ);
    this.circIndex = Int32Array.from(circIndex);
    this.sgp4Index = Int32Array.from(sgp4Index);
    this.sgp4Offset = Float64Array.from(offsets);
    const keySize = this.satrecs.length * 6;
    this.keys = { t0: NaN, a: new Float64Array(keySize), b: new Float64Array(keySize), next: new Float64Array(keySize), nextT: NaN, nextFilled: 0 };
    for (let i = 0; i < this.count; i++) {
      const s = this.slots[i];
      if (s.kind === 'fixed') this.positions.set(s.ecef, i * 3);
      else if (s.kind === 'none') this.positions.fill(NaN, i * 3, i * 3 + 3);
    }
  }

  get sgp4Count(): number {
    return this.satrecs.length;
  }

  /** Which SGP4 engine `update` uses now. */
  get sgp4Engine(): 'js' | 'wasm-bulk' {
    return this.bulk ? 'wasm-bulk' : 'js';
  }

  /** Loads satellite.js's WASM bulk propagator (a separate chunk) and uses it from then on. */
  async enableBulk(): Promise<void> {
    if (this.bulk || this.satrecs.length === 0) return;
    const runtime = await createSingleThreadRuntime();
    if (this.disposed) return;
    const propagator = new BulkPropagator({ runtime, calculators: [new EciBaseCalculator()] as const, satRecsCount: this.satrecs.length, datesCount: 1 });
    propagator.setSatRecs(this.satrecs);
    this.bulk = { propagator, runtime };
    // Keyframes are now computed whole by the bulk propagator: restart the one being filled.
    this.keys.nextFilled = 0;
  }

  /** Positions at orbit time t (s after the epoch), into `positions`. */
  update(t: number): void {
    const out = this.positions;
    const theta = this.earthRotation * t;
    const c = this.circ;
    const idx = this.circIndex;
    const cosT = Math.cos(theta);
    const sinT = Math.sin(theta);
    // The circular closed form inlined (circularEcef, with the Earth rotation's sin/cos shared by
    // every satellite): this loop is the whole per-frame cost of a Walker constellation.
    for (let j = 0, n = idx.length; j < n; j++) {
      const b = j * 7;
      const r = c[b];
      const u = c[b + 1] + c[b + 2] * t;
      const su = Math.sin(u);
      const cu = Math.cos(u);
      const cosRaan = c[b + 3];
      const sinRaan = c[b + 4];
      const cosInc = c[b + 5];
      const x = r * (cosRaan * cu - sinRaan * su * cosInc);
      const y = r * (sinRaan * cu + cosRaan * su * cosInc);
      const k = idx[j] * 3;
      out[k] = cosT * x + sinT * y;
      out[k + 1] = -sinT * x + cosT * y;
      out[k + 2] = r * su * c[b + 6];
    }
    if (this.satrecs.length) this.updateSgp4(t);
  }

  /** SGP4 positions at orbit time t: Hermite interpolation between keyframes (exact SGP4
   * positions and velocities every KEYFRAME_S), turned from TEME to ECEF. The keyframe after the
   * current interval is computed a slice per frame ahead of need, so no frame pays for all. */
  private updateSgp4(t: number): void {
    const k = this.keys;
    if (!(t >= k.t0 && t <= k.t0 + KEYFRAME_S)) {
      const t0 = Math.floor(t / KEYFRAME_S) * KEYFRAME_S;
      if (k.nextFilled === this.satrecs.length && k.nextT === t0 + KEYFRAME_S && k.t0 + KEYFRAME_S === t0) {
        // Time moved on into the interval whose end keyframe is ready: shift.
        [k.a, k.b, k.next] = [k.b, k.next, k.a];
      } else {
        this.fillKeyframe(k.a, t0, 0, this.satrecs.length);
        this.fillKeyframe(k.b, t0 + KEYFRAME_S, 0, this.satrecs.length);
      }
      k.t0 = t0;
      k.nextT = NaN;
      k.nextFilled = 0;
    }
    // Work ahead on the next keyframe.
    const nextT = k.t0 + 2 * KEYFRAME_S;
    if (k.nextT !== nextT) {
      k.nextT = nextT;
      k.nextFilled = 0;
    }
    if (k.nextFilled < this.satrecs.length) {
      const n = this.bulk ? this.satrecs.length : Math.ceil(this.satrecs.length / KEYFRAME_SLICES);
      const end = Math.min(this.satrecs.length, k.nextFilled + n);
      this.fillKeyframe(k.next, nextT, k.nextFilled, end);
      k.nextFilled = end;
    }
    const out = this.positions;
    const gmst = this.gmst0 + this.earthRotation * t;
    const cosT = Math.cos(gmst);
    const sinT = Math.sin(gmst);
    const s = (t - k.t0) / KEYFRAME_S;
    const s2 = s * s;
    const s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1;
    const h10 = (s3 - 2 * s2 + s) * KEYFRAME_S;
    const h01 = -2 * s3 + 3 * s2;
    const h11 = (s3 - s2) * KEYFRAME_S;
    const a = k.a;
    const b = k.b;
    for (let j = 0, n = this.sgp4Index.length; j < n; j++) {
      const q = j * 6;
      const o = this.sgp4Index[j] * 3;
      const x = h00 * a[q] + h10 * a[q + 3] + h01 * b[q] + h11 * b[q + 3];
      const y = h00 * a[q + 1] + h10 * a[q + 4] + h01 * b[q + 1] + h11 * b[q + 4];
      const z = h00 * a[q + 2] + h10 * a[q + 5] + h01 * b[q + 2] + h11 * b[q + 5];
      // NaN in a keyframe (SGP4 failed there) carries through: the satellite is not drawn.
      out[o] = cosT * x + sinT * y;
      out[o + 1] = -sinT * x + cosT * y;
      out[o + 2] = z;
    }
  }

  /** TEME position (km) and velocity (km/s) of SGP4 satellites [from, to) at orbit time t. */
  private fillKeyframe(key: Float64Array, t: number, from: number, to: number): void {
    if (this.bulk && from === 0 && to === this.satrecs.length) {
      this.dates[0] = new Date(this.epochMs + t * 1000);
      this.bulk.propagator.setDates(this.dates);
      this.bulk.propagator.run();
      const raw = this.bulk.propagator.getRawOutput().eci;
      for (let j = 0; j < to; j++) {
        if (raw.error[j] !== 0) key.fill(NaN, j * 6, j * 6 + 6);
        else {
          key.set(raw.position.subarray(j * 3, j * 3 + 3), j * 6);
          key.set(raw.velocity.subarray(j * 3, j * 3 + 3), j * 6 + 3);
        }
      }
      return;
    }
    const minutes = t / 60;
    for (let j = from; j < to; j++) {
      const pv = sgp4(this.satrecs[j], this.sgp4Offset[j] + minutes);
      const q = j * 6;
      if (!pv) {
        key.fill(NaN, q, q + 6);
        continue;
      }
      key[q] = pv.position.x;
      key[q + 1] = pv.position.y;
      key[q + 2] = pv.position.z;
      key[q + 3] = pv.velocity.x;
      key[q + 4] = pv.velocity.y;
      key[q + 5] = pv.velocity.z;
    }
  }

  /** ECEF km of one satellite at orbit time t, without touching `positions` (orbit tracks,
   * hover read-outs at other times). */
  positionOf(i: number, t: number, out: Float64Array): boolean {
    const s = this.slots[i];
    switch (s.kind) {
      case 'circular':
        circularEcef(s.terms, t, this.earthRotation * t, out, 0);
        return true;
      case 'fixed':
        out.set(s.ecef);
        return true;
      case 'sgp4': {
        const pv = sgp4(this.satrecs[s.k], this.sgp4Offset[s.k] + t / 60);
        if (!pv) return false;
        rotateZInto(pv.position.x, pv.position.y, pv.position.z, this.gmst0 + this.earthRotation * t, out, 0);
        return true;
      }
      case 'none':
        return false;
    }
  }

  /** ECI (TEME for SGP4) km of one satellite at orbit time t: positions in the frame where an
   * orbit is a fixed curve, for tracks. */
  inertialOf(i: number, t: number, out: Float64Array): boolean {
    if (!this.positionOf(i, t, out)) return false;
    const s = this.slots[i];
    // Undo the Earth-fixed rotation: ECI = Rz(+θ)·ECEF.
    const theta = s.kind === 'sgp4' ? this.gmst0 + this.earthRotation * t : this.earthRotation * t;
    rotateZInto(out[0], out[1], out[2], -theta, out, 0);
    return true;
  }

  /** The angle by which ECI is turned into ECEF at orbit time t for satellite i's frame. */
  frameAngle(i: number, t: number): number {
    return this.slots[i]?.kind === 'sgp4' ? this.gmst0 + this.earthRotation * t : this.earthRotation * t;
  }

  /** Orbital period of satellite i, s (for tracks). */
  periodOf(i: number): number {
    const s = this.slots[i];
    if (s.kind === 'circular') return (2 * Math.PI) / s.terms.rate;
    if (s.kind === 'sgp4') return (2 * Math.PI) / this.satrecs[s.k].no / 60; // no: rad/min
    return 86_164;
  }

  dispose(): void {
    this.disposed = true;
    if (this.bulk) {
      // Frees the propagator's WASM memory. The runtime itself is only dropped: its dispose()
      // exits the Emscripten program, which throws an ExitStatus even on success, and an
      // unreferenced module is garbage like any other.
      this.bulk.propagator.dispose();
      this.bulk = null;
    }
  }
}
