// The Earth: a sphere lit by the Sun (a day/night terminator computed in the shader from the Sun's
// direction), coastlines and country borders from world-atlas (Natural Earth 1:110m, bundled:
// nothing is fetched at run time), a 15° graticule and the terminator as a line. Unit radius,
// ECEF axes (z north, x towards 0° E).

import * as THREE from 'three';
import { mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { DEG } from '../geo';

const GRATICULE_STEP_DEG = 15;

/** A unit-sphere point of a longitude/latitude (°), slightly above the surface. */
function onSphere(lonDeg: number, latDeg: number, r: number, out: number[]): void {
  const lat = latDeg * DEG;
  const lon = lonDeg * DEG;
  out.push(r * Math.cos(lat) * Math.cos(lon), r * Math.cos(lat) * Math.sin(lon), r * Math.sin(lat));
}

/** Line-segment pairs of a set of lon/lat polylines, long edges subdivided so they follow the
 * sphere instead of cutting under it. */
function polylineSegments(lines: number[][][], r: number): Float32Array {
  const out: number[] = [];
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [lon0, lat0] = line[i - 1];
      const lat1 = line[i][1];
      let lon1 = line[i][0];
      // The antimeridian: take the short way round.
      if (lon1 - lon0 > 180) lon1 -= 360;
      else if (lon0 - lon1 > 180) lon1 += 360;
      const n = Math.max(1, Math.ceil(Math.max(Math.abs(lon1 - lon0), Math.abs(lat1 - lat0)) / 2));
      for (let k = 0; k < n; k++) {
        onSphere(lon0 + ((lon1 - lon0) * k) / n, lat0 + ((lat1 - lat0) * k) / n, r, out);
        onSphere(lon0 + ((lon1 - lon0) * (k + 1)) / n, lat0 + ((lat1 - lat0) * (k + 1)) / n, r, out);
      }
    }
  }
  return Float32Array.from(out);
}

function graticule(): number[][][] {
  const lines: number[][][] = [];
  for (let lon = -180; lon < 180; lon += GRATICULE_STEP_DEG) {
    const l: number[][] = [];
    for (let lat = -90; lat <= 90; lat += 2) l.push([lon, lat]);
    lines.push(l);
  }
  for (let lat = -90 + GRATICULE_STEP_DEG; lat < 90; lat += GRATICULE_STEP_DEG) {
    const l: number[][] = [];
    for (let lon = -180; lon <= 180; lon += 2) l.push([lon, lat]);
    lines.push(l);
  }
  return lines;
}

function lineLayer(positions: Float32Array, color: number, opacity: number): THREE.LineSegments {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  const m = new THREE.LineBasicMaterial({ color, transparent: opacity < 1, opacity });
  return new THREE.LineSegments(g, m);
}

const VERTEX = /* glsl */ `
varying vec3 vNormal;
void main() {
  vNormal = normalize(position);
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`;

// Day and night colours blended across a soft terminator (civil twilight is ~6°: sin 6° ≈ 0.1).
const FRAGMENT = /* glsl */ `
uniform vec3 sun;
varying vec3 vNormal;
void main() {
  float d = dot(normalize(vNormal), sun);
  float day = smoothstep(-0.1, 0.1, d);
  vec3 night = vec3(0.03, 0.06, 0.13);
  vec3 lit = mix(vec3(0.10, 0.22, 0.40), vec3(0.16, 0.34, 0.56), clamp(d, 0.0, 1.0));
  gl_FragColor = vec4(mix(night, lit, day), 1.0);
}`;

export class EarthLayer {
  readonly group = new THREE.Group();
  private readonly sunUniform = { value: new THREE.Vector3(1, 0, 0) };
  private readonly terminator: THREE.LineLoop;

  constructor() {
    const sphere = new THREE.Mesh(
      new THREE.SphereGeometry(1, 96, 64),
      new THREE.ShaderMaterial({ uniforms: { sun: this.sunUniform }, vertexShader: VERTEX, fragmentShader: FRAGMENT }),
    );
    sphere.name = 'earth';
    this.group.add(sphere);

    const topo = countries110m as unknown as Topology<{ countries: GeometryCollection; land: GeometryCollection }>;
    const coast = mesh(topo, topo.objects.land).coordinates as number[][][];
    const borders = mesh(topo, topo.objects.countries, (a, b) => a !== b).coordinates as number[][][];
    this.group.add(lineLayer(polylineSegments(graticule(), 1.0008), 0x8aa4c8, 0.18));
    this.group.add(lineLayer(polylineSegments(borders, 1.0015), 0xb8c7db, 0.45));
    this.group.add(lineLayer(polylineSegments(coast, 1.002), 0xe8eef6, 0.9));

    // The terminator: a great circle in the xy plane, turned so its pole is the Sun.
    const ring: number[] = [];
    for (let k = 0; k < 180; k++) ring.push(Math.cos((k / 180) * 2 * Math.PI) * 1.003, Math.sin((k / 180) * 2 * Math.PI) * 1.003, 0);
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(ring, 3));
    this.terminator = new THREE.LineLoop(g, new THREE.LineBasicMaterial({ color: 0xffd27a, transparent: true, opacity: 0.55 }));
    this.group.add(this.terminator);
  }

  /** The Sun's direction (ECEF unit vector). */
  setSun(x: number, y: number, z: number): void {
    this.sunUniform.value.set(x, y, z);
    this.terminator.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), this.sunUniform.value);
  }

  dispose(): void {
    this.group.traverse((o) => {
      if (o instanceof THREE.Mesh || o instanceof THREE.Line) {
        o.geometry.dispose();
        (o.material as THREE.Material).dispose();
      }
    });
  }
}
