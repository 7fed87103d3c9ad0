// The globe benchmark page (scripts/bench-globe.mjs builds and drives it): the real GlobeScene
// with 10,000 satellites, Walker (the core's closed form) or SGP4 (satellite.js, JS and the WASM
// bulk propagator), timing the CPU part of each frame: propagation plus buffer updates.
import { GlobeScene } from '../../web/src/globe/scene';
import type { ConstellationView, SatelliteView } from '../../web/src/globe/view';

const N = 10_000;

function walkerView(planes: number, perPlane: number): ConstellationView {
  const satellites: SatelliteView[] = [];
  const radius = 6378.135 + 550;
  const rate = Math.sqrt(398_600.4418 / radius ** 3);
  for (let p = 0; p < planes; p++)
    for (let s = 0; s < perPlane; s++)
      satellites.push({
        name: `W0-${p}-${s}`,
        shell: 0,
        plane: p,
        slot: s,
        orbit: { kind: 'circular', radius_km: radius, inclination_deg: 53, raan_deg: (360 * p) / planes, u0_deg: (360 * s) / perPlane + (360 * p) / (planes * perPlane), rate_rad_s: rate },
      });
  return { epoch_utc: null, start_s: 0, satellites, ground: beijingNewYork(), isl: [], earth_rotation_rad_s: 7.2921159e-5 };
}

/** OMM records of a Starlink-like shell spread over RAAN and mean anomaly. */
function sgp4View(n: number): ConstellationView {
  const satellites: SatelliteView[] = [];
  for (let i = 0; i < n; i++)
    satellites.push({
      name: `SYN-${i}`,
      shell: null,
      plane: null,
      slot: null,
      orbit: {
        kind: 'sgp4',
        omm: {
          OBJECT_NAME: `SYN-${i}`, OBJECT_ID: '2024-001A', EPOCH: '2024-06-04T19:47:25.143648', MEAN_MOTION: 15.06396363, ECCENTRICITY: 0.0001172,
          INCLINATION: 53.0529, RA_OF_ASC_NODE: (i * 137.508) % 360, ARG_OF_PERICENTER: 90.803, MEAN_ANOMALY: (i * 7.3) % 360, EPHEMERIS_TYPE: 0,
          CLASSIFICATION_TYPE: 'U', NORAD_CAT_ID: 90000 + i, ELEMENT_SET_NO: 999, REV_AT_EPOCH: 25185, BSTAR: 7.365e-5, MEAN_MOTION_DOT: 8.16e-6, MEAN_MOTION_DDOT: 0,
        },
      },
    });
  return { epoch_utc: '2024-06-04T19:47:25.143Z', start_s: 0, satellites, ground: beijingNewYork(), isl: [], earth_rotation_rad_s: 7.2921159e-5 };
}

function beijingNewYork(): ConstellationView['ground'] {
  return [
    { name: 'Beijing', lat_deg: 39.9, lon_deg: 116.41, role: 'src' },
    { name: 'New York', lat_deg: 40.71, lon_deg: -74.01, role: 'dst' },
  ];
}

interface Figures {
  satellites: number;
  engine: string;
  speed: number;
  frames: number;
  cpuMeanMs: number;
  cpuP95Ms: number;
  frameWithRenderMeanMs: number;
}

/** `speed`: simulated seconds per wall second, at 60 frames per second. */
async function measure(view: ConstellationView, bulk: boolean, frames: number, speed: number): Promise<Figures> {
  const scene = new GlobeScene(document.getElementById('host')!, document.getElementById('info')!);
  scene.setView(view, { bulkSgp4: false });
  if (bulk) await scene.propagator!.enableBulk();
  const cpu: number[] = [];
  const whole: number[] = [];
  // Warm up the JIT and the GPU buffers, then time frames 1 s of simulated time apart at 100×.
  for (let k = 0; k < 20; k++) scene.updateBuffers(k);
  for (let k = 0; k < frames; k++) {
    const t0 = performance.now();
    cpu.push(scene.updateBuffers(100 + (k * speed) / 60));
    scene.renderer.render((scene as unknown as { scene: never }).scene, (scene as unknown as { camera: never }).camera);
    whole.push(performance.now() - t0);
    if (k % 20 === 0) await new Promise((r) => setTimeout(r, 0));
  }
  const engine = view.satellites[0].orbit.kind === 'circular' ? 'Walker closed form' : scene.propagator!.sgp4Engine === 'wasm-bulk' ? 'SGP4, satellite.js WASM bulk' : 'SGP4, satellite.js JS';
  scene.dispose();
  cpu.sort((a, b) => a - b);
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  return { satellites: view.satellites.length, engine, speed, frames, cpuMeanMs: mean(cpu), cpuP95Ms: cpu[Math.floor(cpu.length * 0.95)], frameWithRenderMeanMs: mean(whole) };
}

async function main() {
  const frames = 240;
  const results: Figures[] = [];
  const walker = walkerView(100, 100);
  const sgp4 = sgp4View(N);
  for (const speed of [100, 1000]) {
    results.push(await measure(walker, false, frames, speed));
    results.push(await measure(sgp4, false, frames, speed));
    results.push(await measure(sgp4, true, frames, speed));
  }
  (window as unknown as { benchResult: Figures[] }).benchResult = results;
}

main().catch((e) => {
  (window as unknown as { benchError: string }).benchError = e instanceof Error ? String(e.stack ?? e) : JSON.stringify(e) || String(e);
});
