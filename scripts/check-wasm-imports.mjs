// Fails when the core's .wasm imports anything from the host other than wasm-bindgen's glue.
// The core must stay free of I/O, clocks and OS randomness (architecture.md); an import from
// `env` is the usual sign that a dependency pulled one in (getrandom, a C shim, std::time).
// Usage: node scripts/check-wasm-imports.mjs [path/to/file.wasm]
import { readFileSync, existsSync } from 'node:fs';
import { basename } from 'node:path';

const wasmPath = process.argv[2] ?? 'web/src/wasm/pkg/orbitcp_core_bg.wasm';
if (!existsSync(wasmPath)) {
  console.error(`check-wasm-imports: ${wasmPath} not found; run: bash scripts/build-wasm.sh`);
  process.exit(1);
}

const imports = WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(wasmPath)));
// wasm-bindgen names its glue module `wbg` for --target web, and after the JS file for
// bundler targets; both are generated code, not the host.
const glue = new Set(['wbg', `./${basename(wasmPath).replace(/\.wasm$/, '.js')}`]);

console.log(`${wasmPath}: ${imports.length} import(s)`);
const bad = [];
for (const { module, name, kind } of imports) {
  const ok = glue.has(module);
  console.log(`  ${ok ? 'ok ' : 'BAD'} ${module}.${name} (${kind})`);
  if (!ok) bad.push(`${module}.${name}`);
}
if (bad.length > 0) {
  const fromEnv = bad.filter((s) => s.startsWith('env.'));
  console.error(
    `check-wasm-imports: FAILED: ${bad.length} import(s) from outside wasm-bindgen's glue` +
      (fromEnv.length ? ` (${fromEnv.length} from \`env\`)` : '') +
      `: ${bad.join(', ')}`,
  );
  process.exit(1);
}
console.log('check-wasm-imports: ok, nothing imported from env or any other host module');
