// The import checker (scripts/check-imports.mjs) against small core trees in fixtures/imports/,
// whose folders are named after the core's modules so that the real layer order applies. Run by
// scripts/test.sh (imports).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const checker = join(here, '..', 'check-imports.mjs');

/** The checker's exit status and error output on the fixture tree `name`. */
function check(name) {
  const r = spawnSync(process.execPath, [checker, '--rust', '--core-src', join(here, 'fixtures/imports', name)], {
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

test('two folders that import each other fail though no file imports itself back', () => {
  const { status, stderr } = check('folder-cycle');
  assert.equal(status, 1);
  assert.doesNotMatch(stderr, /folder-cycle: \d+ import cycle/, 'the file graph has no cycle');
  assert.match(stderr, /\(modules\): 1 import cycle/);
  assert.match(stderr, /orbit\/view\.rs imports scenario\/parse\.rs: scenario is above orbit/);
});

test('an import up the layer order fails without any cycle', () => {
  const { status, stderr } = check('upward');
  assert.equal(status, 1);
  assert.doesNotMatch(stderr, /import cycle/);
  assert.match(stderr, /net\/mod\.rs imports engine\/mod\.rs: engine is above net/);
});

test('a module the layer order does not place fails', () => {
  const { status, stderr } = check('unplaced');
  assert.equal(status, 1);
  assert.match(stderr, /gadget is in no layer of CORE_LAYERS/);
});

test('imports that run down the layers pass, and a test module may import upwards', () => {
  const { status, stderr } = check('ordered');
  assert.equal(stderr, '');
  assert.equal(status, 0);
});
