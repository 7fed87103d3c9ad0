// The browser's two builds of the core (scripts/build-wasm.sh), each instantiated once per test
// file and shared by its tests: instantiating per test would only measure the loader.
//   'pkg'        the first-load module, without the orbit code (chain scenarios);
//   'pkg-orbit'  the module with it, which the app loads for constellation scenarios;
// and a third that the site never loads, for the exports that only these tests call:
//   'pkg-orbit-testing'  the orbit module with the "testing" feature
//                        (scripts/build-wasm.sh --testing).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The builds the site loads. */
export const BUILDS = ['pkg', 'pkg-orbit'];
const DIRS = {
  pkg: join(root, 'web', 'src', 'wasm', 'pkg'),
  'pkg-orbit': join(root, 'web', 'src', 'wasm', 'pkg-orbit'),
  'pkg-orbit-testing': join(root, 'target', 'wasm-testing', 'pkg-orbit'),
};
const NAMES = { pkg: 'orbitcp_core', 'pkg-orbit': 'orbitcp_core_orbit', 'pkg-orbit-testing': 'orbitcp_core_orbit' };
const loaded = new Map();

/** The exports of a build of the core (default: the first-load one), after instantiating it
 * (once). */
export async function wasm(build = 'pkg') {
  assert.ok(build in DIRS, `unknown wasm build ${build}`);
  if (!loaded.has(build)) {
    const pkgDir = DIRS[build];
    const wasmPath = join(pkgDir, `${NAMES[build]}_bg.wasm`);
    const how = build === 'pkg-orbit-testing' ? 'bash scripts/build-wasm.sh --testing' : 'bash scripts/build-wasm.sh';
    assert.ok(existsSync(wasmPath), `${wasmPath} is missing: run ${how}`);
    const mod = await import(pathToFileURL(join(pkgDir, `${NAMES[build]}.js`)).href);
    await mod.default({ module_or_path: readFileSync(wasmPath) });
    loaded.set(build, mod);
  }
  return loaded.get(build);
}
