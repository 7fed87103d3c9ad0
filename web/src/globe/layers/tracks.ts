// Orbit tracks, on demand: one closed curve per Walker plane and per SGP4 satellite (up to a
// limit), sampled once over one period in the inertial frame, where an orbit hardly moves. Each
// frame only turns the two groups into ECEF (by ω_E·t for Walker orbits, by GMST for TEME),
// so showing tracks costs nothing per frame.

import * as THREE from 'three';
import { EARTH_RADIUS_KM } from '../geo';
import type { Propagator } from '../propagate';
import { planeColor, type ConstellationView } from '../view';

const SAMPLES = 128;
const MAX_SGP4_TRACKS = 300;

export class TrackLayer {
  readonly group = new THREE.Group();
  private readonly walker = new THREE.Group();
  private readonly sgp4 = new THREE.Group();
  private firstSgp4 = -1;
  private built = false;

  constructor(
    private readonly view: ConstellationView,
    private readonly prop: Propagator,
  ) {
    this.group.add(this.walker, this.sgp4);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
    this.group.visible = false;
  }

  /** Built on first show: a constellation whose tracks are never shown pays nothing. */
  private build(): void {
    this.built = true;
    const planes = new Map<string, { i: number; shell: number; plane: number }>();
    const planeCount = new Map<number, number>();
    const sgp4: number[] = [];
    this.view.satellites.forEach((s, i) => {
      if (s.orbit.kind === 'circular' && s.shell !== null && s.plane !== null) {
        const key = `${s.shell}/${s.plane}`;
        if (!planes.has(key)) planes.set(key, { i, shell: s.shell, plane: s.plane });
        planeCount.set(s.shell, Math.max(planeCount.get(s.shell) ?? 0, s.plane + 1));
      } else if (s.orbit.kind === 'sgp4' && sgp4.length < MAX_SGP4_TRACKS) sgp4.push(i);
    });
    const p = new Float64Array(3);
    const curve = (i: number, color: [number, number, number]) => {
      const period = this.prop.periodOf(i);
      const pts: number[] = [];
      for (let k = 0; k < SAMPLES; k++) {
        if (this.prop.inertialOf(i, (period * k) / SAMPLES, p)) pts.push(p[0], p[1], p[2]);
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
      return new THREE.LineLoop(g, new THREE.LineBasicMaterial({ color: new THREE.Color(...color), transparent: true, opacity: 0.35 }));
    };
    for (const { i, shell, plane } of planes.values()) this.walker.add(curve(i, planeColor(plane, planeCount.get(shell) ?? 1, shell)));
    for (const i of sgp4) this.sgp4.add(curve(i, [0.85, 0.85, 0.85]));
    this.firstSgp4 = sgp4[0] ?? -1;
  }

  setVisible(on: boolean): void {
    if (on && !this.built) this.build();
    this.group.visible = on;
  }

  /** Turns the inertial curves into ECEF at orbit time t. */
  update(t: number): void {
    if (!this.group.visible) return;
    this.walker.rotation.z = -this.prop.earthRotation * t;
    if (this.firstSgp4 >= 0) this.sgp4.rotation.z = -this.prop.frameAngle(this.firstSgp4, t);
  }

  dispose(): void {
    this.group.traverse((o) => {
      if (o instanceof THREE.Line) {
        o.geometry.dispose();
        (o.material as THREE.Material).dispose();
      }
    });
  }
}
