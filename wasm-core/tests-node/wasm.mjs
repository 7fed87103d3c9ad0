// The browser's two builds of the core (scripts/build-wasm.sh), each instantiated once per test
// file and shared by its tests: instantiating per test would only measure the loader.
//   'pkg'        the first-load module, without the orbit code (chain scenarios);
//   'pkg-orbit'  the module with it, which the app loads for constellation scenarios.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const wasmDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src', 'wasm');
export const BUILDS = ['pkg', 'pkg-orbit'];
const NAMES = { pkg: 'orbitcp_core', 'pkg-orbit': 'orbitcp_core_orbit' };
const loaded = new Map();

/** The exports of a build of the core (default: the first-load one), after instantiating it
 * (once). */
export async function wasm(build = 'pkg') {
  assert.ok(BUILDS.includes(build), `unknown wasm build ${build}`);
  if (!loaded.has(build)) {
    const pkgDir = join(wasmDir, build);
    const wasmPath = join(pkgDir, `${NAMES[build]}_bg.wasm`);
    assert.ok(existsSync(wasmPath), `${wasmPath} is missing: run bash scripts/build-wasm.sh`);
    const mod = await import(pathToFileURL(join(pkgDir, `${NAMES[build]}.js`)).href);
    await mod.default({ module_or_path: readFileSync(wasmPath) });
    loaded.set(build, mod);
  }
  return loaded.get(build);
}
