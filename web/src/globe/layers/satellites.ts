// Satellites as one THREE.Points cloud coloured by plane. The position attribute *is* the
// propagator's Float32Array (km; the object is scaled to Earth radii), so a frame's buffer update
// is one GPU upload and no copy. The satellites of the current route and the hovered one are
// drawn again, larger, by a second small cloud.

import * as THREE from 'three';
import { EARTH_RADIUS_KM } from '../geo';
import { planeColor, type ConstellationView } from '../view';

const POINT_PX = 3;
const HIGHLIGHT_PX = 8;
/** Satellites without a plane (TLE/OMM, GEO). */
const LOOSE_COLOR: [number, number, number] = [0.85, 0.85, 0.85];

export class SatelliteLayer {
  readonly group = new THREE.Group();
  private readonly points: THREE.Points;
  private readonly highlight: THREE.Points;
  private readonly highlightPositions: Float32Array;
  private readonly highlightColors: Float32Array;
  private highlightCount = 0;

  constructor(view: ConstellationView, positions: Float32Array, maxHighlight = 64) {
    const n = view.satellites.length;
    const planesOf = new Map<number, number>();
    for (const s of view.satellites) if (s.shell !== null && s.plane !== null) planesOf.set(s.shell, Math.max(planesOf.get(s.shell) ?? 0, s.plane + 1));
    const colors = new Float32Array(n * 3);
    view.satellites.forEach((s, i) => {
      const c = s.shell !== null && s.plane !== null ? planeColor(s.plane, planesOf.get(s.shell) ?? 1, s.shell) : LOOSE_COLOR;
      colors.set(c, i * 3);
    });
    const g = new THREE.BufferGeometry();
    const pos = new THREE.BufferAttribute(positions, 3);
    pos.setUsage(THREE.DynamicDrawUsage);
    g.setAttribute('position', pos);
    g.setAttribute('color', new THREE.BufferAttribute(colors, 3));
    this.points = new THREE.Points(g, new THREE.PointsMaterial({ size: POINT_PX, sizeAttenuation: false, vertexColors: true }));
    // The cloud moves every frame: a bounding sphere from the data would be stale at once.
    this.points.frustumCulled = false;
    this.points.name = 'satellites';

    this.highlightPositions = new Float32Array(maxHighlight * 3);
    this.highlightColors = new Float32Array(maxHighlight * 3);
    const hg = new THREE.BufferGeometry();
    hg.setAttribute('position', new THREE.BufferAttribute(this.highlightPositions, 3).setUsage(THREE.DynamicDrawUsage));
    hg.setAttribute('color', new THREE.BufferAttribute(this.highlightColors, 3).setUsage(THREE.DynamicDrawUsage));
    hg.setDrawRange(0, 0);
    this.highlight = new THREE.Points(hg, new THREE.PointsMaterial({ size: HIGHLIGHT_PX, sizeAttenuation: false, vertexColors: true }));
    this.highlight.frustumCulled = false;
    this.highlight.renderOrder = 2;

    this.group.add(this.points, this.highlight);
    this.group.scale.setScalar(1 / EARTH_RADIUS_KM);
  }

  /** The propagator wrote new positions into the shared array. */
  positionsChanged(): void {
    this.points.geometry.attributes.position.needsUpdate = true;
  }

  /** Draws the given satellites large in the given colours (ECEF km from `positions`). */
  setHighlight(ids: ArrayLike<number>, colors: ArrayLike<[number, number, number]>, positions: Float32Array): void {
    const n = Math.min(ids.length, this.highlightPositions.length / 3);
    for (let j = 0; j < n; j++) {
      const k = ids[j] * 3;
      this.highlightPositions[j * 3] = positions[k];
      this.highlightPositions[j * 3 + 1] = positions[k + 1];
      this.highlightPositions[j * 3 + 2] = positions[k + 2];
      this.highlightColors.set(colors[j], j * 3);
    }
    this.highlightCount = n;
    const g = this.highlight.geometry;
    g.setDrawRange(0, n);
    g.attributes.position.needsUpdate = true;
    g.attributes.color.needsUpdate = true;
  }

  get highlighted(): number {
    return this.highlightCount;
  }

  dispose(): void {
    for (const p of [this.points, this.highlight]) {
      p.geometry.dispose();
      (p.material as THREE.Material).dispose();
    }
  }
}
