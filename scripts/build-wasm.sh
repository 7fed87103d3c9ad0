#!/usr/bin/env bash
# Builds the core for the browser (wasm-pack --target web) into web/src/wasm/pkg.
# Skips the build when the inputs hash to the same value as the last successful build,
# because even a no-op wasm-pack run re-runs wasm-bindgen and costs time on 2 cores.
# Usage: scripts/build-wasm.sh [--force]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PKG_DIR="web/src/wasm/pkg"
WASM="$PKG_DIR/orbitcp_core_bg.wasm"
STAMP="$PKG_DIR/.build-stamp"

export PATH="$HOME/.cargo/bin:$PATH"

# Everything that can change the .wasm: the crate (minus the Node tests, which only read it),
# the lock file, the workspace manifest (release profile), and the tool versions.
inputs_hash() {
  {
    find wasm-core -path wasm-core/tests-node -prune -o -path wasm-core/target -prune \
      -o -path wasm-core/pkg -prune -o -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    for f in Cargo.lock Cargo.toml rust-toolchain rust-toolchain.toml; do
      if [[ -f "$f" ]]; then sha256sum "$f"; fi
    done
    rustc --version
    wasm-pack --version
    echo "script-v3 simd128 strip"
  } | sha256sum | cut -d' ' -f1
}

hash="$(inputs_hash)"
if [[ "${1:-}" != "--force" && -f "$WASM" && -f "$STAMP" && "$(cat "$STAMP")" == "$hash" ]]; then
  echo "ok: wasm build is up to date ($WASM)"
  exit 0
fi

if ! command -v wasm-pack >/dev/null 2>&1; then
  echo "error: wasm-pack is not installed; run: bash scripts/setup.sh" >&2
  exit 1
fi

echo "building: wasm (wasm-pack --release --target web; the first build also installs wasm-bindgen-cli, ~3 min)"
rm -f "$STAMP"
# simd128: the GF(256) region kernels use wasm SIMD (every current browser and Node 20 have it).
# GF arithmetic is exact and no float code is reassociated, so results stay equal to native.
# strip: without it the module carries a section of function names (150 KB, 32 KB gzipped) that
# only a debugger reads; panic messages do not need it.
CARGO_PROFILE_RELEASE_STRIP=symbols RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
  wasm-pack build wasm-core --release --target web --out-dir ../web/src/wasm/pkg --no-default-features
if [[ ! -f "$WASM" ]]; then
  echo "error: wasm-pack finished but $WASM is missing" >&2
  exit 1
fi
echo "$hash" > "$STAMP"
echo "ok: built $WASM ($(wc -c < "$WASM") bytes)"
