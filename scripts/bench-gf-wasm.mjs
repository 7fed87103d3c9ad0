// Measures the core's GF(256) region multiply-add and RLNC encode/decode in wasm under Node, and
// checks the wasm SIMD kernel against the portable one. The core has no clocks, so the exports
// (wasm-core/src/coding/wasm_bench.rs) do a fixed amount of work and return a checksum; this
// script times them with performance.now().
//
// Usage: node scripts/bench-gf-wasm.mjs [pkg-dir]
//   The measuring exports are behind the `wasm-bench` feature (the site's build leaves them
//   out). Build a package with them, with the simd128 kernel (as the site uses) or without:
//   RUSTFLAGS="-C target-feature=+simd128" wasm-pack build wasm-core --release --target web \
//     --out-dir /tmp/pkg-simd --no-default-features --features wasm-bench
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const dir = resolve(process.argv[2] ?? 'web/src/wasm/pkg');
const core = await import(pathToFileURL(`${dir}/orbitcp_core.js`).href);
core.initSync({ module: readFileSync(`${dir}/orbitcp_core_bg.wasm`) });

const kernel = core.gf_kernel();
console.log(`pkg: ${dir}`);
console.log(`kernel: ${kernel} (node ${process.version})`);

// Correctness first: every coefficient and every length 0..=160, three operations each.
const bad = core.gf_region_self_check(160);
console.log(`self-check (${kernel} vs portable, lengths 0..=160, all coefficients): ${bad} mismatches`);
if (bad !== 0) process.exit(1);

/** Best of `reps` timings of fn(), in seconds. */
function best(fn, reps = 5) {
  fn(); // warm-up (compilation, allocation)
  let t = Infinity;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    t = Math.min(t, (performance.now() - t0) / 1000);
  }
  return t;
}

const gb = (bytes, s) => (bytes / s / 1e9).toFixed(2);

console.log('\nregion multiply-add dst ^= c*src (GB/s of src)');
for (const bytes of [1024, 4096, 16384, 65536]) {
  const iters = Math.ceil(64e6 / bytes);
  const s = best(() => core.gf_region_work(bytes, iters));
  console.log(`  ${String(bytes).padStart(6)} B  ${gb(bytes * iters, s).padStart(7)} GB/s`);
}

const L = 1400;
console.log(`\nRLNC, ${L}-byte symbols (GB/s of block bytes k*L)`);
for (const k of [16, 32, 64, 128]) {
  const encIters = Math.ceil(64e6 / (k * L));
  const se = best(() => core.rlnc_encode_work(k, L, encIters));
  const decIters = Math.max(1, Math.ceil(4e6 / (k * k * L / 32)));
  const sd = best(() => core.rlnc_decode_work(k, L, decIters), 3);
  console.log(
    `  k=${String(k).padStart(3)}  encode ${gb(k * L * encIters, se).padStart(6)} GB/s` +
      `  decode (dense) ${gb(k * L * decIters, sd).padStart(6)} GB/s`,
  );
}
