// A `flows_alone` scenario run the way the browser's worker pool runs it: each flow's
// simulation alone (`SteppedRun.part`), the parts' result texts joined by the core
// (`combine_results`, in the orbit build, which the browser's worker loads to join them). The
// joined text must be the bytes one `SteppedRun` of the whole scenario gives, with the parts run
// in either wasm build, and the bytes `orbitcp run` prints for it (pretty-printed, with the seed
// as a number). Run by scripts/test.sh (node_determinism) after the release CLI and
// scripts/build-wasm.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILDS, wasm } from './wasm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli =
  process.env.ORBITCP_CLI ??
  join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'orbitcp');

/** Three transports alone on a lossy two-link chain, a few seconds each (e2e/flows-alone.spec.ts
 * runs it in the browser). */
const ALONE = JSON.stringify(JSON.parse(readFileSync(join(root, 'wasm-core', 'tests-node', 'fixtures', 'three-flows-alone.json'), 'utf8')));

/** Steps a `SteppedRun` to its end and returns its result text. */
function finish(run, withTraces) {
  try {
    while (!run.advance(100_000));
    return run.result(withTraces);
  } finally {
    run.free();
  }
}

/** The browser's way: every part alone on `api`, joined by the orbit build. */
async function byParts(api, text, seed, withTraces) {
  const n = api.simulation_count(text);
  const parts = Array.from({ length: n }, (_, k) => finish(api.SteppedRun.part(text, seed, k), withTraces));
  const orbit = await wasm('pkg-orbit');
  return orbit.combine_results(text, seed, `[${parts.join(',')}]`);
}

/** JSON text without the whitespace between its tokens (strings kept as they are). */
function compact(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      out += c;
      inString = true;
    } else if (!' \n\r\t'.includes(c)) out += c;
  }
  return out;
}

function runCli(args, file) {
  assert.ok(existsSync(cli), `${cli} is missing: run cargo build --release`);
  return execFileSync(cli, ['run', ...args, file], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

for (const withTraces of [true, false]) {
  test(`flows alone run part by part give the bytes of one run and of the CLI (${withTraces ? 'traces' : 'summary'})`, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'orbitcp-flows-alone-')), 'alone.json');
    writeFileSync(file, ALONE);
    const native = runCli(withTraces ? ['--threads', '2'] : ['--summary', '--threads', '2'], file);
    const seed = JSON.parse(native).seed;
    // The CLI prints the seed as a number, the wasm boundary as text; the rest byte for byte.
    const expected = compact(native).replace(`"seed":${seed},`, `"seed":"${seed}",`);
    for (const build of BUILDS) {
      const api = await wasm(build);
      assert.equal(api.simulation_count(ALONE), 3, `${build}: one simulation per flow`);
      const joined = await byParts(api, ALONE, undefined, withTraces);
      assert.equal(joined, finish(new api.SteppedRun(ALONE, undefined), withTraces), `${build}: parts against one run`);
      assert.equal(joined, expected, `${build}: parts against orbitcp run`);
    }
    const flows = JSON.parse(expected).flows;
    assert.deepEqual(flows.map((f) => f.id), [0, 1, 2]);
    assert.ok(flows.every((f) => f.delivered_bytes > 0), 'every flow delivered something');
  });
}

test('a 64-bit seed given as text runs every part with it', async () => {
  const api = await wasm();
  const seed = '18446744073709551557';
  const joined = await byParts(api, ALONE, seed, false);
  assert.equal(JSON.parse(joined).seed, seed);
  assert.equal(joined, finish(new api.SteppedRun(ALONE, seed), false));
  assert.notEqual(joined, await byParts(api, ALONE, undefined, false), 'the seed changes the run');
});

test('without flows_alone a run is one simulation, and its one part is the run', async () => {
  const api = await wasm();
  const together = JSON.stringify({ ...JSON.parse(ALONE), flows_alone: false });
  assert.equal(api.simulation_count(together), 1);
  assert.equal(await byParts(api, together, undefined, false), finish(new api.SteppedRun(together, undefined), false));
});

test('a part beyond the simulations and parts that are not results are refused by name', async () => {
  const api = await wasm();
  const thrown = (fn) => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    assert.fail('expected the call to throw');
  };
  assert.deepEqual(thrown(() => api.SteppedRun.part(ALONE, undefined, 3)), {
    path: 'flows',
    message: 'no simulation 3 (the scenario runs 3)',
  });
  const orbit = await wasm('pkg-orbit');
  assert.equal(api.combine_results, undefined, 'the first load does not read results back');
  const bad = thrown(() => orbit.combine_results(ALONE, undefined, '[1, 2]'));
  assert.equal(bad.path, '');
  assert.match(bad.message, /^the runs' results: /);
  assert.deepEqual(thrown(() => api.simulation_count('{')).path, '');
});
