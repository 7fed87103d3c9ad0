// Gateways and the point of presence (PoP) of a bent-pipe constellation with `gateways`: the
// gateways as amber points, the PoP as a larger magenta one, and the terrestrial fibre from each
// gateway to the PoP as faint arcs along the surface (the route's own fibre hops are drawn by
// the route layer, links.ts). Static: stations do not move in ECEF. Nothing is built for a view
// without gateways.

import * as THREE from 'three';
import { centralAngle, DEG, EARTH_RADIUS_KM, surfaceArcInto } from '../geo';
import type { ConstellationView } from '../view';

export const GATEWAY_COLOR: [number, number, number] = [1.0, 0.76, 0.18];
export const POP_COLOR: [number, number, number] = [0.93, 0.42, 0.95];
export const FIBRE_COLOR: [number, number, number] = [0.86, 0.9, 1.0];
/** Fibre is drawn this far above the surface so the Earth's mesh does not hide it, km. */
export const FIBRE_LIFT_KM = 8;
const GATEWAY_PX = 8;
const POP_PX = 12;

/** Segments for a surface arc: one per half degree, at least 2, at most 64. */
export function arcSegments(angleRad: number): number {
  return Math.min(64, Math.max(2, Math.ceil(angleRad / (0.5 * DEG))));
}

export class GatewayLayer {
  readonly group = new THREE.Group();
  private readonly objects: (THREE.Points | THREE.LineSegments)[] = [];

  /** `ground`: ECEF km of every station, in the view's order (GroundLayer.positions). */
  constructor(view: ConstellationView, ground: Float32Array) {
    const at = (i: number) => ground.subarray(i * 3, i * 3 + 3);
    const gateways = view.ground.flatMap((g, i) => (g.role === 'gateway' ? [i] : []));
    const pop = view.ground.findIndex((g) => g.role === 'pop');
    const points = (ids: number[], color: [number, number, number], size: number) => {
      if (!ids.length) return;
      const pos = new Float32Array(ids.length * 3);
      ids.forEach((g, k) => pos.set(at(g), k * 3));
      const geom = new THREE.BufferGeometry();
      geom.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
      const p = new THREE.Points(geom, new THREE.PointsMaterial({ size, sizeAttenuation: false, color: new THREE.Color(...color) }));
      p.renderOrder = 2;
      this.objects.push(p);
    };
    points(gateways, GATEWAY_COLOR, GATEWAY_PX);
    points(pop >= 0 ? [pop] : [], POP_COLOR, POP_PX);
    if (pop >= 0 && gateways.length) {
      const pairs: number[] = [];
      const arc = new Float32Array(65 * 3);
      for (const g of gateways) {
        const n = arcSegments(centralAngle(at(g), at(pop)));
        surfaceArcInto(at(g), at(pop), n, FIBRE_LIFT_KM, arc, 0);
        for (let i = 0; i < n; i++) pairs.push(...arc.subarray(i * 3, i * 3 + 6));
      }
      const geom = new THREE.BufferGeometry();
      geom.setAttribute('position', new THREE.Float32BufferAttribute(pairs, 3));
      const lines = new THREE.LineSegments(geom, new THREE.LineBasicMaterial({ color: new THREE.Color(...FIBRE_COLOR), transparent: true, opacity: 0.45 }));
      lines.renderOrder = 1;
      this.objects.push(lines);
    }
    if (this.objects.length) this.group.add(...this.objects);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
  }

  dispose(): void {
    for (const o of this.objects) {
      o.geometry.dispose();
      (o.material as THREE.Material).dispose();
    }
  }
}
