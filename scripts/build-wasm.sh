#!/usr/bin/env bash
# Builds the core for the browser (wasm-pack --target web) as two modules:
#   web/src/wasm/pkg        without the orbit code: the site's first load, every chain scenario;
#   web/src/wasm/pkg-orbit  with it (the "orbits" feature): loaded only for constellation
#                           scenarios and the globe (web/src/wasm/cores.ts).
# Each module is skipped when its inputs hash to the same value as its last successful build,
# because even a no-op wasm-pack run re-runs wasm-bindgen and costs time on 2 cores. Both share
# the target directory, so the second build reuses the first's compiled dependencies.
# With --testing it builds instead target/wasm-testing/pkg-orbit: the orbit module with the
# "testing" feature, whose extra exports only the Node tests call (wasm-core/tests-node/wasm.mjs).
# Usage: scripts/build-wasm.sh [--force] [--testing]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

export PATH="$HOME/.cargo/bin:$PATH"

# Everything that can change the .wasm: the crate (minus the Node tests, which only read it),
# the lock file, the workspace manifest (release profile), the tool versions and the features.
inputs_hash() {
  {
    find wasm-core -path wasm-core/tests-node -prune -o -path wasm-core/target -prune \
      -o -path wasm-core/pkg -prune -o -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    for f in Cargo.lock Cargo.toml rust-toolchain rust-toolchain.toml; do
      if [[ -f "$f" ]]; then sha256sum "$f"; fi
    done
    rustc --version
    wasm-pack --version 2>/dev/null || echo "no wasm-pack"
    echo "script-v5 simd128 strip fat-lto features=$1"
  } | sha256sum | cut -d' ' -f1
}

# build OUT_DIR NAME FEATURES OPT_LEVEL: one module, NAME.js and NAME_bg.wasm; FEATURES is a
# comma-separated list (may be empty).
build() {
  local out="$1" name="$2" features="$3" opt_level="$4"
  local wasm="$out/${name}_bg.wasm" stamp="$out/.build-stamp"
  local hash
  hash="$(inputs_hash "$name $features opt-level=$opt_level")"
  if [[ "$FORCE" != 1 && -f "$wasm" && -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
    echo "ok: wasm build is up to date ($wasm)"
    return 0
  fi
  if ! command -v wasm-pack >/dev/null 2>&1; then
    echo "error: wasm-pack is not installed; run: bash scripts/setup.sh" >&2
    exit 1
  fi
  echo "building: $wasm (wasm-pack --release --target web, features: ${features:-none}; the first build also installs wasm-bindgen-cli, ~3 min)"
  rm -f "$stamp"
  local feature_args=()
  if [[ -n "$features" ]]; then feature_args=(--features "$features"); fi
  # simd128: the GF(256) region kernels use wasm SIMD (every current browser and Node 20 have it).
  # GF arithmetic is exact and no float code is reassociated, so results stay equal to native.
  # strip: without it the module carries a section of function names (150 KB, 32 KB gzipped)
  # that only a debugger reads; panic messages do not need it.
  # Fat LTO with one codegen unit, and the opt-level given: see the calls below.
  CARGO_PROFILE_RELEASE_STRIP=symbols CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL="$opt_level" RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
    wasm-pack build wasm-core --release --target web --out-dir "../$out" --out-name "$name" --no-default-features \
    ${feature_args[@]+"${feature_args[@]}"}
  if [[ ! -f "$wasm" ]]; then
    echo "error: wasm-pack finished but $wasm is missing" >&2
    exit 1
  fi
  echo "$hash" > "$stamp"
  echo "ok: built $wasm ($(wc -c < "$wasm") bytes)"
}

FORCE=0
TESTING=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    --testing) TESTING=1 ;;
    *) echo "usage: scripts/build-wasm.sh [--force] [--testing]" >&2; exit 2 ;;
  esac
done
# Distinct names, so that the site's assets (and what a page fetched) tell the two apart.
# The first-load module is optimized for size: opt-level "s" makes it 18 % smaller gzipped than
# "3" (297 against 358 KB) and runs chain presets about as fast as the earlier thin-LTO "3"
# build (BENCHMARKS.md, "The first load"). The orbit module carries the long constellation runs
# and is fetched only for them, so it is optimized for speed. Optimization levels change no
# result: Rust does no fast-math, and tests-node/determinism.test.mjs compares both with the CLI.
if [[ "$TESTING" == 1 ]]; then
  # Built as the orbit module is, so it reuses that build's compiled dependencies.
  build target/wasm-testing/pkg-orbit orbitcp_core_orbit orbits,testing 3
  exit 0
fi
build web/src/wasm/pkg orbitcp_core "" s
build web/src/wasm/pkg-orbit orbitcp_core_orbit orbits 3
