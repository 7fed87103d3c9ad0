// The browser's build of the core (web/src/wasm/pkg), instantiated once per test file and shared
// by its tests: instantiating it per test would only measure the loader.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'src', 'wasm', 'pkg');
let loaded;

/** The wasm module's exports, after instantiating it (once). */
export async function wasm() {
  if (!loaded) {
    const wasmPath = join(pkgDir, 'orbitcp_core_bg.wasm');
    assert.ok(existsSync(wasmPath), `${wasmPath} is missing: run bash scripts/build-wasm.sh`);
    const mod = await import(pathToFileURL(join(pkgDir, 'orbitcp_core.js')).href);
    await mod.default({ module_or_path: readFileSync(wasmPath) });
    loaded = mod;
  }
  return loaded;
}
