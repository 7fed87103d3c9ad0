// The globe's imperative three.js scene: renderer, camera and orbit controls, the layers, a
// play clock, hover picking and the per-frame update. Globe.tsx wraps it; nothing here touches
// React. Per frame: propagate (propagate.ts writes the satellites' GPU buffer in place), move the
// route, ISL and highlight buffers, turn the Sun and the tracks, render. Rendering happens only
// when something changed (time, camera, hover, size), so an idle globe costs nothing.
//
// Frames: one scene unit is one Earth radius; axes are ECEF (z north), so the Earth never turns
// and the camera's "up" is +z.

import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { PathTimeline } from '../sim/results';
import { centralAngle, DEG, EARTH_RADIUS_KM, ecefToGeodetic, elevationDeg, geodeticToEcef, sunDirectionEcef } from './geo';
import { EarthLayer } from './layers/earth';
import { GatewayLayer } from './layers/gateways';
import { GroundLayer } from './layers/ground';
import { GSL_COLOR, ISL_ROUTE_COLOR, IslLayer, RouteLayer } from './layers/links';
import { SatelliteLayer } from './layers/satellites';
import { TrackLayer } from './layers/tracks';
import { BULK_THRESHOLD, Propagator } from './propagate';
import { cameraDistance, crossedBoundary, nodeName, outermostOrbitRe, ROLE_NAMES, routeAt, type ConstellationView } from './view';

const HOVER_COLOR: [number, number, number] = [1, 1, 1];
const PICK_RADIUS_PX = 9;
/** How often the hover read-out is refreshed while time runs. */
const INFO_REFRESH_MS = 250;
/** Frames kept for the CPU-time statistics. */
const FRAME_STATS = 120;
/** How long the route's ground–satellite links flash when the time crosses a slot boundary, ms. */
const SLOT_FLASH_MS = 900;

export type Picked = { kind: 'sat'; id: number } | { kind: 'ground'; id: number } | null;

export interface GlobeCallbacks {
  /** The play clock moved the time (simulation seconds). */
  onTime?: (t: number) => void;
  /** Playing stopped at the end of the run. */
  onEnded?: () => void;
}

/** Everything built from one constellation view; replaced as a whole when the view changes. */
class ViewLayers {
  readonly prop: Propagator;
  readonly sats: SatelliteLayer;
  readonly ground: GroundLayer;
  readonly gateways: GatewayLayer;
  readonly route = new RouteLayer();
  readonly isl: IslLayer;
  readonly tracks: TrackLayer;
  /** Neighbours of each satellite by +Grid, for the read-out. */
  readonly neighbours: number[][];

  constructor(readonly view: ConstellationView) {
    this.prop = new Propagator(view);
    this.sats = new SatelliteLayer(view, this.prop.positions);
    this.ground = new GroundLayer(view);
    this.gateways = new GatewayLayer(view, this.ground.positions);
    this.isl = new IslLayer(view.isl);
    this.tracks = new TrackLayer(view, this.prop);
    this.neighbours = view.satellites.map(() => []);
    for (const [a, b] of view.isl) {
      this.neighbours[a]?.push(b);
      this.neighbours[b]?.push(a);
    }
  }

  addTo(scene: THREE.Scene): void {
    scene.add(this.tracks.group, this.isl.group, this.route.group, this.gateways.group, this.ground.group, this.sats.group);
  }

  dispose(scene: THREE.Scene): void {
    scene.remove(this.tracks.group, this.isl.group, this.route.group, this.gateways.group, this.ground.group, this.sats.group);
    this.prop.dispose();
    this.sats.dispose();
    this.ground.dispose();
    this.gateways.dispose();
    this.route.dispose();
    this.isl.dispose();
    this.tracks.dispose();
  }
}

export class GlobeScene {
  readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera = new THREE.PerspectiveCamera(40, 1, 0.01, 100);
  private readonly controls: OrbitControls;
  private readonly earth = new EarthLayer();
  private layers: ViewLayers | null = null;
  private path: PathTimeline | undefined;
  private slots: readonly number[] = [];
  /** When the route last flashed for a slot boundary (performance.now()), and the time then. */
  private flashAt = -Infinity;
  private lastBufferT = 0;
  private slotFlashes = 0;
  private t = 0;
  private duration = 1;
  private playing = false;
  private speed = 10;
  private dirty = true;
  private frameHandle = 0;
  private lastFrameAt = 0;
  private hovered: Picked = null;
  private routeNodes = -1;
  private pointer: { x: number; y: number } | null = null;
  private infoAt = 0;
  private readonly resize: ResizeObserver;
  private readonly frameCpuMs = new Float64Array(FRAME_STATS);
  private frames = 0;
  private readonly tmp = new THREE.Vector3();
  private readonly highlightIds: number[] = [];
  private readonly highlightColors: [number, number, number][] = [];
  private disposed = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly info: HTMLElement,
    private readonly callbacks: GlobeCallbacks = {},
  ) {
    // preserveDrawingBuffer: the canvas can be read back (PNG export, the e2e pixel check)
    // between the on-demand renders.
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.renderer.setClearColor(0x05070d);
    host.appendChild(this.renderer.domElement);
    this.renderer.domElement.dataset.testid = 'globe-webgl';
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(3.6, 0, 1.2);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.minDistance = 1.15;
    this.controls.maxDistance = 12;
    this.controls.rotateSpeed = 0.6;
    this.controls.addEventListener('change', () => (this.dirty = true));
    this.scene.add(this.earth.group);
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(host);
    this.fit();
    const canvas = this.renderer.domElement;
    canvas.addEventListener('pointermove', this.onPointerMove);
    canvas.addEventListener('pointerleave', this.onPointerLeave);
    canvas.addEventListener('click', this.onClick);
    this.frameHandle = requestAnimationFrame(this.frame);
  }

  /** A new constellation: the old layers are disposed, the camera turns to the route's ends.
   * Large SGP4 sets switch to satellite.js's WASM bulk propagator once it has loaded, unless
   * `bulkSgp4` is false (the benchmark measures both). */
  setView(view: ConstellationView, { bulkSgp4 = true } = {}): void {
    this.layers?.dispose(this.scene);
    this.layers = new ViewLayers(view);
    this.layers.addTo(this.scene);
    this.hovered = null;
    if (bulkSgp4 && this.layers.prop.sgp4Count >= BULK_THRESHOLD)
      void this.layers.prop.enableBulk().catch(() => {
        /* the JS propagator stays in use */
      });
    const ends = view.ground.filter((g) => g.role === 'src' || g.role === 'dst');
    if (ends.length) {
      // Look at the middle of the source and destination, from far enough to see both and the
      // satellites (view.ts cameraDistance), and from no higher than mid-latitudes: straight
      // over a pole the orbit controls lose their "up".
      const mid = new THREE.Vector3();
      const at = ends.map((g) => geodeticToEcef(g.lat_deg, g.lon_deg));
      for (const p of at) mid.add(new THREE.Vector3(...p));
      const outermost = outermostOrbitRe(view);
      const distance = cameraDistance(at.length > 1 ? centralAngle(at[0], at[1]) : Math.PI, outermost);
      if (mid.lengthSq() < 1) mid.set(1, 0, 0);
      mid.normalize();
      const horizontal = Math.hypot(mid.x, mid.y);
      if (outermost > 2 && horizontal > 1e-6) {
        // High orbits sit over the equator: seen from a quarter of the places' latitude, the
        // satellites are in the frame in front of the Earth, the places on its disc.
        const lat = Math.asin(Math.max(-1, Math.min(1, mid.z))) / 4;
        const lon = Math.atan2(mid.y, mid.x);
        mid.set(Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat));
      } else if (Math.abs(mid.z) > Math.sin(50 * DEG) || horizontal < 1e-6) {
        const lon = horizontal < 1e-6 ? 0 : Math.atan2(mid.y, mid.x);
        const lat = Math.sign(mid.z) * 50 * DEG;
        mid.set(Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat));
      }
      this.camera.position.copy(mid.normalize().multiplyScalar(distance));
      this.controls.maxDistance = Math.max(12, distance * 1.5);
      this.controls.update();
    }
    this.dirty = true;
  }

  get view(): ConstellationView | null {
    return this.layers?.view ?? null;
  }

  get propagator(): Propagator | null {
    return this.layers?.prop ?? null;
  }

  setPath(path: PathTimeline | undefined): void {
    this.path = path;
    this.slots = path?.slot_boundaries_s ?? [];
    this.flashAt = -Infinity;
    this.dirty = true;
  }

  /** The run's length, s: the play clock stops there. */
  setDuration(seconds: number): void {
    this.duration = Math.max(1e-3, seconds);
  }

  /** Simulation time from outside (the charts' cursor, the scrub bar). */
  setTime(t: number): void {
    this.t = Math.min(this.duration, Math.max(0, t));
    this.dirty = true;
  }

  get time(): number {
    return this.t;
  }

  setPlaying(on: boolean): void {
    if (on && this.t >= this.duration) this.t = 0;
    this.playing = on;
    this.lastFrameAt = performance.now();
  }

  setSpeed(x: number): void {
    this.speed = x;
  }

  setIslsVisible(on: boolean): void {
    if (this.layers) this.layers.isl.group.visible = on;
    this.dirty = true;
  }

  setTracksVisible(on: boolean): void {
    this.layers?.tracks.setVisible(on);
    this.dirty = true;
  }

  /** Date-time (ms, UTC) of simulation time t: the Sun's position and the clock read-out. */
  dateAt(t: number): number {
    const p = this.layers?.prop;
    return p ? p.epochMs + ((this.layers?.view.start_s ?? 0) + t) * 1000 : Date.parse('2026-03-20T12:00:00Z') + t * 1000;
  }

  /** CPU time of propagation plus buffer updates per frame over the last frames, ms. */
  frameStats(): { frames: number; meanMs: number; maxMs: number } {
    const n = Math.min(this.frames, FRAME_STATS);
    let sum = 0;
    let max = 0;
    for (let i = 0; i < n; i++) {
      sum += this.frameCpuMs[i];
      max = Math.max(max, this.frameCpuMs[i]);
    }
    return { frames: this.frames, meanMs: n ? sum / n : 0, maxMs: max };
  }

  /** Propagates and rewrites every buffer for time `t`; returns the CPU time it took, ms. */
  updateBuffers(t: number): number {
    const L = this.layers;
    if (!L) return 0;
    const start = performance.now();
    const orbitT = L.view.start_s + t;
    L.prop.update(orbitT);
    L.sats.positionsChanged();
    L.isl.update(L.prop.positions);
    L.tracks.update(orbitT);
    const nodes = routeAt(this.path, t);
    // Crossing a slot boundary of the scheduler (playing or scrubbing) flashes the serving links.
    if (crossedBoundary(this.slots, this.lastBufferT, t)) {
      this.flashAt = start;
      this.host.dataset.slotFlashes = String(++this.slotFlashes);
    }
    this.lastBufferT = t;
    const flash = Math.max(0, 1 - (start - this.flashAt) / SLOT_FLASH_MS);
    L.route.update(nodes, { sats: L.prop.positions, ground: L.ground.positions }, flash);
    // For tests and assistive tools: how many nodes the drawn route has (written only on change).
    if (this.routeNodes !== nodes.length) {
      this.routeNodes = nodes.length;
      this.host.dataset.routeNodes = String(nodes.length);
    }
    this.highlightIds.length = 0;
    this.highlightColors.length = 0;
    for (let i = 0; i < nodes.length; i++) {
      if (nodes[i] < 0) continue;
      this.highlightIds.push(nodes[i]);
      this.highlightColors.push(i === 1 || i === nodes.length - 2 ? GSL_COLOR : ISL_ROUTE_COLOR);
    }
    if (this.hovered?.kind === 'sat') {
      this.highlightIds.push(this.hovered.id);
      this.highlightColors.push(HOVER_COLOR);
    }
    L.sats.setHighlight(this.highlightIds, this.highlightColors, L.prop.positions);
    const ms = performance.now() - start;
    this.frameCpuMs[this.frames % FRAME_STATS] = ms;
    this.frames++;
    return ms;
  }

  private frame = (now: number) => {
    if (this.disposed) return;
    this.frameHandle = requestAnimationFrame(this.frame);
    if (this.playing) {
      const dt = Math.min(0.1, (now - this.lastFrameAt) / 1000);
      this.t = Math.min(this.duration, this.t + dt * this.speed);
      this.dirty = true;
      this.callbacks.onTime?.(this.t);
      if (this.t >= this.duration) {
        this.playing = false;
        this.callbacks.onEnded?.();
      }
    }
    this.lastFrameAt = now;
    if (this.pointer) {
      this.pick();
      this.pointer = null;
    }
    // A flash fades over the next frames even when nothing else moves.
    if (now - this.flashAt < SLOT_FLASH_MS + 50) this.dirty = true;
    if (!this.dirty) return;
    this.dirty = false;
    this.updateBuffers(this.t);
    const sun = sunDirectionEcef(this.dateAt(this.t));
    this.earth.setSun(sun[0], sun[1], sun[2]);
    this.renderer.render(this.scene, this.camera);
    if (this.hovered && now - this.infoAt > INFO_REFRESH_MS) this.writeInfo();
  };

  private fit(): void {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.layers?.route.setResolution(w, h);
    this.dirty = true;
  }

  private onPointerMove = (e: PointerEvent) => {
    const r = this.renderer.domElement.getBoundingClientRect();
    this.pointer = { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  private onPointerLeave = () => {
    this.pointer = null;
  };

  // A click keeps the read-out of what is under the pointer (the same pick as hover).
  private onClick = (e: MouseEvent) => {
    this.onPointerMove(e as PointerEvent);
  };

  /** The satellite or station nearest the pointer on screen, within a few pixels and not behind
   * the Earth. A linear scan: 10,000 projections take about a millisecond, once per frame at most. */
  private pick(): void {
    const L = this.layers;
    const p = this.pointer;
    if (!L || !p) return;
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    const cam = this.camera.position;
    let best = null as Picked;
    let bestD2 = PICK_RADIUS_PX * PICK_RADIUS_PX;
    const consider = (src: Float32Array, i: number, kind: 'sat' | 'ground', boost: number) => {
      const k = i * 3;
      const x = src[k] / EARTH_RADIUS_KM;
      const y = src[k + 1] / EARTH_RADIUS_KM;
      const z = src[k + 2] / EARTH_RADIUS_KM;
      if (!Number.isFinite(x)) return;
      this.tmp.set(x, y, z).project(this.camera);
      if (this.tmp.z > 1) return;
      const sx = ((this.tmp.x + 1) / 2) * w;
      const sy = ((1 - this.tmp.y) / 2) * h;
      const d2 = (sx - p.x) ** 2 + (sy - p.y) ** 2 - boost;
      if (d2 >= bestD2 || occluded(cam, x, y, z)) return;
      bestD2 = d2;
      best = { kind, id: i };
    };
    for (let i = 0; i < L.prop.count; i++) consider(L.prop.positions, i, 'sat', 0);
    // Stations are few and drawn large: they win ties.
    for (let g = 0; g < L.view.ground.length; g++) consider(L.ground.positions, g, 'ground', 20);
    const changed = best?.kind !== this.hovered?.kind || best?.id !== this.hovered?.id;
    this.hovered = best;
    if (changed) {
      this.dirty = true;
      this.writeInfo();
    }
  }

  /** The hover read-out, written straight into the DOM. */
  private writeInfo(): void {
    this.infoAt = performance.now();
    const L = this.layers;
    const h = this.hovered;
    if (!L || !h) {
      this.info.replaceChildren();
      this.info.hidden = true;
      delete this.info.dataset.kind;
      return;
    }
    const v = L.view;
    const rows: [string, string][] = [];
    const nodes = routeAt(this.path, this.t);
    const nodeId = h.kind === 'sat' ? h.id : -(h.id + 1);
    const at = nodes.indexOf(nodeId);
    const linkNames = (ids: number[]) => ids.map((n) => nodeName(v, n)).join(', ');
    let title: string;
    if (h.kind === 'sat') {
      const s = v.satellites[h.id];
      const k = h.id * 3;
      const pos = L.prop.positions.subarray(k, k + 3);
      const geo = ecefToGeodetic(pos[0], pos[1], pos[2]);
      title = `${s.name} (satellite ${h.id})`;
      rows.push(['altitude', `${geo.altKm.toFixed(0)} km`]);
      rows.push(['position', `${geo.latDeg.toFixed(2)}°, ${geo.lonDeg.toFixed(2)}°`]);
      if (s.plane !== null) rows.push(['plane', `${s.plane} (shell ${s.shell}, slot ${s.slot})`]);
      else rows.push(['orbit', s.orbit.kind === 'sgp4' ? 'SGP4 (satellite.js)' : s.orbit.kind]);
      for (let g = 0; g < Math.min(2, v.ground.length); g++) {
        const e = elevationDeg(L.ground.positions.subarray(g * 3, g * 3 + 3), pos);
        rows.push([`elevation from ${v.ground[g].name}`, `${e.toFixed(1)}°`]);
      }
      if (L.neighbours[h.id]?.length) rows.push(['+Grid links', linkNames(L.neighbours[h.id])]);
    } else {
      const g = v.ground[h.id];
      // Stations at one place (a server at its PoP) are one point: name them all.
      const here = v.ground.filter((o) => o.lat_deg === g.lat_deg && o.lon_deg === g.lon_deg);
      const names = [...new Set(here.map((o) => o.name))].join(' / ');
      title = `${names} (${here.map((o) => ROLE_NAMES[o.role]).join(' and ')})`;
      rows.push(['position', `${g.lat_deg.toFixed(2)}°, ${g.lon_deg.toFixed(2)}°`]);
      if (at >= 0) {
        const serving = [nodes[at - 1], nodes[at + 1]].filter((n) => n !== undefined && n >= 0);
        for (const sat of serving) {
          const e = elevationDeg(L.ground.positions.subarray(h.id * 3, h.id * 3 + 3), L.prop.positions.subarray(sat * 3, sat * 3 + 3));
          rows.push(['serving satellite', `${nodeName(v, sat)} at ${e.toFixed(1)}° elevation`]);
        }
      }
    }
    if (at >= 0) rows.push(['on the route', `node ${at + 1} of ${nodes.length}; links to ${linkNames([nodes[at - 1], nodes[at + 1]].filter((n) => n !== undefined))}`]);
    else if (this.path) rows.push(['on the route', 'no']);
    const head = document.createElement('div');
    head.className = 'globe-info-title';
    head.textContent = title;
    const dl = document.createElement('dl');
    for (const [k, val] of rows) {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = val;
      dl.append(dt, dd);
    }
    this.info.replaceChildren(head, dl);
    this.info.hidden = false;
    this.info.dataset.kind = h.kind;
  }

  /** The pixel position of a route node on the canvas (a satellite ≥ 0, a ground station
   * −(g + 1)), or null if behind the Earth or off screen, for tests and tools. */
  screenPositionOf(id: number): { x: number; y: number } | null {
    const L = this.layers;
    if (!L) return null;
    const src = id >= 0 ? L.prop.positions : L.ground.positions;
    const k = (id >= 0 ? id : -id - 1) * 3;
    if (k + 2 >= src.length) return null;
    const x = src[k] / EARTH_RADIUS_KM;
    const y = src[k + 1] / EARTH_RADIUS_KM;
    const z = src[k + 2] / EARTH_RADIUS_KM;
    if (!Number.isFinite(x) || occluded(this.camera.position, x, y, z)) return null;
    this.tmp.set(x, y, z).project(this.camera);
    if (Math.abs(this.tmp.x) > 0.95 || Math.abs(this.tmp.y) > 0.95 || this.tmp.z > 1) return null;
    return { x: ((this.tmp.x + 1) / 2) * this.host.clientWidth, y: ((1 - this.tmp.y) / 2) * this.host.clientHeight };
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frameHandle);
    this.resize.disconnect();
    const canvas = this.renderer.domElement;
    canvas.removeEventListener('pointermove', this.onPointerMove);
    canvas.removeEventListener('pointerleave', this.onPointerLeave);
    canvas.removeEventListener('click', this.onClick);
    this.controls.dispose();
    this.layers?.dispose(this.scene);
    this.layers = null;
    this.earth.dispose();
    this.renderer.dispose();
    canvas.remove();
  }
}

/** Whether the unit sphere hides point (x, y, z) from the camera at `cam` (Earth radii): the
 * segment camera → point enters the sphere before it reaches the point. */
function occluded(cam: THREE.Vector3, x: number, y: number, z: number): boolean {
  const dx = x - cam.x;
  const dy = y - cam.y;
  const dz = z - cam.z;
  const a = dx * dx + dy * dy + dz * dz;
  const b = 2 * (cam.x * dx + cam.y * dy + cam.z * dz);
  const c = cam.x * cam.x + cam.y * cam.y + cam.z * cam.z - 1;
  const disc = b * b - 4 * a * c;
  if (disc <= 0) return false;
  const s = (-b - Math.sqrt(disc)) / (2 * a);
  // A station on the surface facing the camera meets the sphere at itself (s = 1, give or take
  // rounding): not hidden.
  return s > 0 && s < 1 - 1e-4;
}
