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
  assert.deepEqual(thrown(() => api.SteppedRun.sweep_job(sweep, 7)), { path: 'sweep', message: 'no job 7 (the sweep has 2)' });
  assert.deepEqual(thrown(() => api.SteppedRun.sweep_job(JSON.stringify(SMALL), 0)), {
    path: 'sweep',
    message: 'the scenario has no sweep section',
  });
  assert.deepEqual(thrown(() => new api.SteppedRun(JSON.stringify(SMALL), 'twelve')), {
    path: 'seed',
    message: '"twelve" is not a 64-bit seed',
  });
  assert.deepEqual(thrown(() => api.constellation_view(JSON.stringify(SMALL))), {
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
