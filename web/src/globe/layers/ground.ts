// Ground stations: the source and destination as large points (red, blue), relays small and grey.
// Gateways and the point of presence have a layer of their own (gateways.ts); `positions` holds
// every station, for the route and the read-out.

import * as THREE from 'three';
import { EARTH_RADIUS_KM, geodeticToEcef } from '../geo';
import type { ConstellationView } from '../view';

const ROLE_COLOR: Partial<Record<string, readonly [number, number, number]>> = { src: [0.95, 0.3, 0.3], dst: [0.35, 0.6, 1.0], relay: [0.7, 0.7, 0.7] };

export class GroundLayer {
  readonly group = new THREE.Group();
  /** ECEF km, 3 per station, in the view's order (route node −(g + 1) is station g). */
  readonly positions: Float32Array;
  private readonly endpoints: THREE.Points;
  private readonly relays: THREE.Points;

  constructor(view: ConstellationView) {
    this.positions = new Float32Array(view.ground.length * 3);
    view.ground.forEach((g, i) => this.positions.set(geodeticToEcef(g.lat_deg, g.lon_deg, 0), i * 3));
    const cloud = (roles: string[], size: number) => {
      const pos: number[] = [];
      const col: number[] = [];
      view.ground.forEach((g, i) => {
        const c = ROLE_COLOR[g.role];
        if (!roles.includes(g.role) || !c) return;
        pos.push(this.positions[i * 3], this.positions[i * 3 + 1], this.positions[i * 3 + 2]);
        col.push(...c);
      });
      const geom = new THREE.BufferGeometry();
      geom.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
      geom.setAttribute('color', new THREE.Float32BufferAttribute(col, 3));
      const p = new THREE.Points(geom, new THREE.PointsMaterial({ size, sizeAttenuation: false, vertexColors: true }));
      p.renderOrder = 1;
      return p;
    };
    this.endpoints = cloud(['src', 'dst'], 10);
    this.relays = cloud(['relay'], 4);
    this.group.add(this.relays, this.endpoints);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
  }

  dispose(): void {
    for (const p of [this.endpoints, this.relays]) {
      p.geometry.dispose();
      (p.material as THREE.Material).dispose();
    }
  }
}
