// Links as line segments whose end points are rewritten each frame: the current route (ground-
// satellite links green, inter-satellite links orange, ground-to-ground hops, a gateway's fibre
// to the PoP, pale and along the surface rather than as a chord through the Earth; fat lines so
// the route stands out) and, on demand, every ISL of the constellation (thin, faint). Positions
// are ECEF km; the groups are scaled to Earth radii. At a slot boundary of Starlink's scheduler
// the scene flashes the route's ground-satellite links white for a moment (`flash`).

import * as THREE from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import { centralAngle, EARTH_RADIUS_KM, surfaceArcInto } from '../geo';
import { arcSegments, FIBRE_COLOR, FIBRE_LIFT_KM } from './gateways';

export const GSL_COLOR: [number, number, number] = [0.2, 0.9, 0.45];
export const ISL_ROUTE_COLOR: [number, number, number] = [1.0, 0.6, 0.15];
const ROUTE_WIDTH_PX = 3;
const MAX_ROUTE_SEGMENTS = 256;

/** Where a route node is: satellite positions (ECEF km, 3 per satellite) or ground stations. */
export interface NodePositions {
  sats: Float32Array;
  ground: Float32Array;
}

export class RouteLayer {
  readonly group = new THREE.Group();
  private readonly geometry = new LineSegmentsGeometry();
  private readonly material: LineMaterial;
  private readonly line: LineSegments2;
  private readonly positions = new Float32Array(MAX_ROUTE_SEGMENTS * 6);
  private readonly colors = new Float32Array(MAX_ROUTE_SEGMENTS * 6);
  /** Scratch for a fibre hop's arc (at most 64 pieces). */
  private readonly arc = new Float32Array(65 * 3);
  private readonly a3 = new Float32Array(3);
  private readonly b3 = new Float32Array(3);
  segments = 0;

  constructor() {
    this.material = new LineMaterial({ linewidth: ROUTE_WIDTH_PX, vertexColors: true, worldUnits: false });
    this.line = new LineSegments2(this.geometry, this.material);
    this.line.frustumCulled = false;
    this.line.renderOrder = 3;
    this.group.add(this.line);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
  }

  setResolution(width: number, height: number): void {
    this.material.resolution.set(width, height);
  }

  /** Redraws the route `nodes` (ids: satellite ≥ 0, ground −(g + 1)) at the given positions;
   * `flash` (0 to 1) whitens the ground–satellite links. */
  update(nodes: readonly number[], at: NodePositions, flash = 0): void {
    let n = 0;
    const gsl = flash > 0 ? GSL_COLOR.map((c) => c + (1 - c) * flash) : GSL_COLOR;
    const { a3, b3 } = this;
    for (let i = 1; i < nodes.length && n < MAX_ROUTE_SEGMENTS; i++) {
      const a = nodes[i - 1];
      const b = nodes[i];
      if (!writeNode(a, at, a3, 0) || !writeNode(b, at, b3, 0)) continue;
      if (a < 0 && b < 0) {
        // Fibre: along the surface, in as many pieces as its length needs.
        const pieces = Math.min(arcSegments(centralAngle(a3, b3)), MAX_ROUTE_SEGMENTS - n);
        surfaceArcInto(a3, b3, pieces, FIBRE_LIFT_KM, this.arc, 0);
        for (let k = 0; k < pieces; k++, n++) {
          this.positions.set(this.arc.subarray(k * 3, k * 3 + 6), n * 6);
          this.colors.set(FIBRE_COLOR, n * 6);
          this.colors.set(FIBRE_COLOR, n * 6 + 3);
        }
        continue;
      }
      this.positions.set(a3, n * 6);
      this.positions.set(b3, n * 6 + 3);
      const c = a < 0 || b < 0 ? gsl : ISL_ROUTE_COLOR;
      this.colors.set(c, n * 6);
      this.colors.set(c, n * 6 + 3);
      n++;
    }
    this.segments = n;
    this.line.visible = n > 0;
    if (n > 0) {
      // LineSegmentsGeometry keeps instanced copies; setPositions rebuilds them (a route has a
      // few dozen segments, so this is cheap).
      this.geometry.setPositions(this.positions.subarray(0, n * 6));
      this.geometry.setColors(this.colors.subarray(0, n * 6));
    }
  }

  dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
  }
}

function writeNode(id: number, at: NodePositions, out: Float32Array, k: number): boolean {
  const src = id >= 0 ? at.sats : at.ground;
  const j = (id >= 0 ? id : -id - 1) * 3;
  if (j + 2 >= src.length || !Number.isFinite(src[j])) return false;
  out[k] = src[j];
  out[k + 1] = src[j + 1];
  out[k + 2] = src[j + 2];
  return true;
}

/** Every ISL pair as a thin line; filled from the satellite positions when shown. */
export class IslLayer {
  readonly group = new THREE.Group();
  private readonly lines: THREE.LineSegments;
  private readonly pairs: Uint32Array;
  private readonly positions: Float32Array;

  constructor(pairs: [number, number][]) {
    this.pairs = new Uint32Array(pairs.length * 2);
    pairs.forEach(([a, b], i) => {
      this.pairs[i * 2] = a;
      this.pairs[i * 2 + 1] = b;
    });
    this.positions = new Float32Array(pairs.length * 6);
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage));
    this.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: 0x9ec5ff, transparent: true, opacity: 0.22 }));
    this.lines.frustumCulled = false;
    this.group.add(this.lines);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
    this.group.visible = false;
  }

  get count(): number {
    return this.pairs.length / 2;
  }

  update(sats: Float32Array): void {
    if (!this.group.visible) return;
    const p = this.pairs;
    const out = this.positions;
    for (let i = 0, n = p.length; i < n; i++) {
      const k = p[i] * 3;
      out[i * 3] = sats[k];
      out[i * 3 + 1] = sats[k + 1];
      out[i * 3 + 2] = sats[k + 2];
    }
    this.lines.geometry.attributes.position.needsUpdate = true;
  }

  dispose(): void {
    this.lines.geometry.dispose();
    (this.lines.material as THREE.Material).dispose();
  }
}
