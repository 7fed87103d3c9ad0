// The globe propagates satellites itself (web/src/globe/propagate.ts): Walker shells by the
// core's closed form rewritten in TypeScript, SGP4 sets by satellite.js. This test holds both to
// the core (the wasm build): satellite.js within 1 km of the core's SGP4 (the `sgp4` crate) for
// real element sets over a day, and the TypeScript circular orbit within metres of the Rust one.
// The globe's own TypeScript modules are transpiled with the project's `typescript` and imported,
// so the code under test is the code the browser runs. Run by scripts/test.sh (node_determinism).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { wasm } from './wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');


/** Transpiles the globe's modules into node_modules/.cache (so that `satellite.js` resolves from
 * the project's node_modules) and imports propagate.ts. */
let globeModule;
async function globe() {
  if (!globeModule) {
    const out = join(root, 'node_modules', '.cache', 'orbitcp-globe-agreement');
    mkdirSync(out, { recursive: true });
    for (const name of ['geo', 'view', 'propagate']) {
      const src = readFileSync(join(root, 'web', 'src', 'globe', `${name}.ts`), 'utf8');
      const js = ts.transpileModule(src, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      }).outputText;
      // Relative imports get the extension Node's ESM loader needs.
      writeFileSync(join(out, `${name}.mjs`), js.replace(/from '(\.\/[^']+)'/g, "from '$1.mjs'"));
    }
    globeModule = await import(pathToFileURL(join(out, 'propagate.mjs')).href);
  }
  return globeModule;
}

const ROUTE = { src: 'Beijing', dst: 'New York' };
// Off the 120-s keyframe grid too, so the globe's interpolation between SGP4 keyframes is tested.
const DAY_TIMES = [0, 600, 1234.5, 3600, 4 * 3600, 9 * 3600, 13 * 3600 + 17, 18 * 3600, 50_000.25, 86_400];

/** Largest distance (km) between the core's positions and the globe's, over times and satellites. */
/** A scenario with this constellation topology: what both exports read. */
function scenarioOf(topology) {
  return JSON.stringify({
    version: 1,
    name: 'agreement',
    duration_s: 1,
    topology: { kind: 'constellation', ...topology },
    flows: [{ transport: 'tcp', cc: 'reno', bytes: 1000 }],
  });
}

async function maxDifference(config, times) {
  // `constellation_positions` is a test-only export (the "testing" feature).
  const api = await wasm('pkg-orbit-testing');
  const { Propagator } = await globe();
  const view = JSON.parse(api.constellation_view(scenarioOf(config)));
  const core = JSON.parse(api.constellation_positions(scenarioOf(config), JSON.stringify(times)));
  const prop = new Propagator(view);
  assert.deepEqual(prop.problems, [], 'satellite.js refused an element set the core took');
  let max = 0;
  let where = '';
  times.forEach((t, k) => {
    prop.update(t);
    for (let i = 0; i < prop.count; i++) {
      const c = core[k].slice(i * 3, i * 3 + 3);
      const g = prop.positions.subarray(i * 3, i * 3 + 3);
      assert.ok(c.every((v) => v !== null), `the core could not propagate ${view.satellites[i].name} at t = ${t} s`);
      assert.ok(g.every(Number.isFinite), `the globe could not propagate ${view.satellites[i].name} at t = ${t} s`);
      const d = Math.hypot(c[0] - g[0], c[1] - g[1], c[2] - g[2]);
      if (d > max) {
        max = d;
        where = `${view.satellites[i].name} at t = ${t} s`;
      }
    }
  });
  return { max, where, view, prop };
}

for (const file of ['starlink-2024-06.tle', 'iss-2020-07.tle']) {
  test(`SGP4: satellite.js agrees with the core within 1 km over a day (${file})`, async () => {
    const tle = readFileSync(join(fixtures, file), 'utf8');
    const config = { constellation: { tle }, ...ROUTE };
    const { max, where, view } = await maxDifference(config, DAY_TIMES);
    assert.ok(view.epoch_utc, 'an SGP4 constellation has an epoch');
    assert.equal(view.satellites[0].orbit.kind, 'sgp4');
    // Float32 positions alone round by up to ~0.4 m at 7000 km; the rest is the two SGP4s and
    // the sidereal time.
    console.log(`  ${file}: ${view.satellites.length} satellites, max |core − satellite.js| = ${(max * 1000).toFixed(1)} m (${where})`);
    assert.ok(max < 1, `satellite.js and the core differ by ${max.toFixed(3)} km (${where})`);
  });
}

test('Walker: the TypeScript closed form agrees with the core to metres', async () => {
  const config = {
    constellation: {
      walker: [
        { altitude_km: 550, inclination_deg: 53, planes: 72, sats_per_plane: 22, phasing: 1 },
        { altitude_km: 1150, inclination_deg: 53, planes: 4, sats_per_plane: 5, phasing: 1 },
      ],
      geo_longitudes_deg: [-75, 140],
    },
    ...ROUTE,
  };
  const { max, where, view } = await maxDifference(config, [...DAY_TIMES, 123.456, 7 * 86_400]);
  assert.equal(view.satellites.length, 72 * 22 + 20 + 2);
  console.log(`  Walker 72×22 + 4×5 and 2 GEO: max |core − globe| = ${(max * 1000).toFixed(2)} m (${where})`);
  // Float32 storage of ~7000 km coordinates rounds to 0.5 m; the formulas are the same.
  assert.ok(max < 0.005, `the globe's Walker positions differ from the core's by ${(max * 1000).toFixed(2)} m (${where})`);
});
