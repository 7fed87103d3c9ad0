// What crosses the wasm boundary (wasm-core/src/api.rs) besides results: errors arrive as plain
// `{path, message}` objects, the shape of a validation problem, so the browser can place them
// beside the field at fault; a 64-bit seed arrives as decimal text, exact. Run by
// scripts/test.sh (node_determinism) after scripts/build-wasm.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasm } from './wasm.mjs';


const SMALL = {
  version: 1,
  name: 'small',
  duration_s: 5,
  topology: { kind: 'chain', links: [{ rate_mbps: 10, delay_ms: 10 }] },
  flows: [{ transport: 'tcp', cc: 'reno', bytes: 20000 }],
};

/** What `fn` threw: the core's errors are plain objects, not `Error`s. */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail('expected the call to throw');
}

test('run-time errors cross as {path, message} objects naming the field', async () => {
  const api = await wasm();
  const sweep = JSON.stringify({ ...SMALL, sweep: { grid: { 'flows[0].cc': ['reno', 'cubic'] } } });
  const runs = new api.SweepRuns(sweep);
  assert.deepEqual(thrown(() => runs.job(7)), { path: 'sweep', message: 'no job 7 (the sweep has 2)' });
  runs.free();
  assert.deepEqual(thrown(() => new api.SweepRuns(JSON.stringify(SMALL))), {
    path: 'sweep',
    message: 'the scenario has no sweep section',
  });
  assert.deepEqual(thrown(() => new api.SteppedRun(JSON.stringify(SMALL), 'twelve')), {
    path: 'seed',
    message: '"twelve" is not a 64-bit seed',
  });
  const orbit = await wasm('pkg-orbit');
  assert.deepEqual(thrown(() => orbit.constellation_view(JSON.stringify(SMALL))), {
    path: 'topology',
    message: 'a chain without a place has nothing to show on the globe',
  });
  // An invalid scenario: its one problem, with its path; several share the scenario's path and
  // are listed one per line, as the CLI prints them.
  const bad = { ...SMALL, flows: [{ ...SMALL.flows[0], mss_bytes: 10 }] };
  assert.deepEqual(thrown(() => api.estimate_cost(JSON.stringify(bad))), {
    path: 'flows[0].mss_bytes',
    message: 'must be between 64 and 65000 bytes (got 10)',
  });
  const worse = { ...bad, max_events: 0 };
  const e = thrown(() => api.estimate_cost(JSON.stringify(worse)));
  assert.equal(e.path, '');
  assert.equal(e.message, 'flows[0].mss_bytes: must be between 64 and 65000 bytes (got 10)\nmax_events: must be at least 1');
});

test('a 64-bit seed comes back exact, as text', async () => {
  const api = await wasm();
  const seed = '18446744073709551615';
  const run = new api.SteppedRun(JSON.stringify(SMALL), seed);
  try {
    while (!run.advance(100000));
    assert.equal(JSON.parse(run.result(false)).seed, seed);
  } finally {
    run.free();
  }
});

test('the first-load build leaves the orbit code out, says so by field, and still checks ranges', async () => {
  const [chain, orbit] = [await wasm('pkg'), await wasm('pkg-orbit')];
  assert.equal(chain.constellation_view, undefined, 'the globe export is in the first-load build');
  assert.equal(typeof orbit.constellation_view, 'function');
  const leo = {
    ...SMALL,
    topology: {
      kind: 'constellation',
      constellation: { walker: { altitude_km: 550, inclination_deg: 53, planes: 4, sats_per_plane: 4 } },
      src: 'Beijing',
      dst: 'New York',
    },
  };
  const sweepTo = (grid) => JSON.stringify({ ...SMALL, sweep: { grid } });
  assert.equal(chain.needs_orbit_code(JSON.stringify(leo)), true);
  assert.equal(chain.needs_orbit_code(sweepTo({ topology: [SMALL.topology, leo.topology] })), true);
  assert.equal(chain.needs_orbit_code(sweepTo({ 'topology.kind': ['chain', 'constellation'] })), true);
  assert.equal(chain.needs_orbit_code(sweepTo({ 'topology.links[0].delay_ms': [1, 2] })), false);
  assert.equal(chain.needs_orbit_code(JSON.stringify(SMALL)), false);
  assert.equal(chain.needs_orbit_code('{not json'), false);

  const e = thrown(() => new chain.SteppedRun(JSON.stringify(leo)));
  assert.equal(e.path, 'topology');
  assert.match(e.message, /^this build has no orbit code/);
  // The orbit build runs what the first-load build refused.
  const run = new orbit.SteppedRun(JSON.stringify(leo));
  try {
    while (!run.advance(100000));
    assert.equal(JSON.parse(run.result(false)).flows.length, 1);
  } finally {
    run.free();
  }
  // Range problems are found without the orbit code, as the orbit build finds them.
  const bad = JSON.stringify({ ...leo, topology: { ...leo.topology, min_elevation_deg: 95 } });
  const paths = (api) => JSON.parse(api.validate_scenario(bad)).map((p) => p.path);
  assert.deepEqual(paths(chain), ['topology.min_elevation_deg']);
  assert.deepEqual(paths(orbit), ['topology.min_elevation_deg']);
});
