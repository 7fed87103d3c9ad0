#!/usr/bin/env bash
# Runs every check of the project, in order, and stops at the first failure.
# `npm test` and CI (.ci/run) both land here, so this file is the definition of "green".
#
# Usage: scripts/test.sh [STEP...]   (no argument: all steps; e.g. `scripts/test.sh clippy`)
#
# To add a check: write a `step_NAME` function below and add NAME to STEPS, in the place where
# it should run (cheap and likely-to-fail checks first).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

STEPS=(
  fmt
  clippy
  cargo_test
  ns3_crosscheck
  wasm
  node_determinism
  python
  web_types
  typecheck
  lint
  imports
  sizes
  web_unit
  web_build
  e2e
)

step_fmt() {
  cargo fmt --all --check
  # The Python package's crate is a workspace of its own (Cargo.toml), so --all does not see it.
  cargo fmt --manifest-path python/Cargo.toml --check
}

step_clippy() {
  cargo clippy --workspace --all-targets -- -D warnings
  # api.rs only exists on wasm32, so the native pass above never sees it.
  # With simd128, as scripts/build-wasm.sh builds it, so the wasm SIMD kernels are linted too.
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
    cargo clippy -p orbitcp-core --lib --target wasm32-unknown-unknown --no-default-features \
    -- -D warnings
  # The second wasm module, with the orbit code (scripts/build-wasm.sh builds both).
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
    cargo clippy -p orbitcp-core --lib --target wasm32-unknown-unknown --no-default-features \
    --features orbits -- -D warnings
}

step_cargo_test() {
  # Release: the golden and property tests simulate a lot.
  cargo test --workspace --release
}

step_ns3_crosscheck() {
  # ns-3 itself (Debian's ns-3.37, installed by setup.sh) against the ns3 TCP profile on the same
  # dumbbell: NewReno, CUBIC and BBR at RTT 500 ms, 10 runs each (docs/tcp.md, "The ns3 profile
  # and ns-3 itself"); the points the profile does not yet match are listed as known gaps there.
  cargo build --release --bin orbitcp
  python3 tools/ns3/crosscheck.py --orbitcp "$TARGET_DIR/release/orbitcp"
}

step_wasm() {
  bash scripts/build-wasm.sh
  node scripts/check-wasm-imports.mjs web/src/wasm/pkg/orbitcp_core_bg.wasm
  node scripts/check-wasm-imports.mjs web/src/wasm/pkg-orbit/orbitcp_core_orbit_bg.wasm
}

step_node_determinism() {
  cargo build --release --bin orbitcp
  ORBITCP_CLI="$TARGET_DIR/release/orbitcp" node --test wasm-core/tests-node/*.test.mjs
}

step_python() {
  # The package (python/) against the CLI: run, sweep on local threads, Dask and Ray.
  cargo build --release --bin orbitcp
  bash scripts/build-python.sh
  # Linted here rather than in step_clippy: pyo3's build needs the venv's interpreter.
  PYO3_PYTHON="$ROOT/.venv/bin/python" cargo clippy --manifest-path python/Cargo.toml --release -- -D warnings
  ORBITCP_CLI="$TARGET_DIR/release/orbitcp" "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
  # The Hypatia oracle (tools/hypatia-oracle): its files and stored paths are what it computes.
  "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider tools/hypatia-oracle
}

step_web_types() {
  # The TypeScript scenario and result types must be what the Rust schemas generate today.
  node scripts/gen-types.mjs --check
  # The landing's thumbnails: one per preset, generated from the preset's current text.
  node scripts/gen-thumbnails.mjs --check
}

step_typecheck() {
  npx tsc --noEmit -p tsconfig.json
  npx tsc --noEmit -p tsconfig.node.json
}

step_lint() {
  npx eslint .
}

step_imports() {
  # The one-way import rule: no module imports one that imports it back (ARCHITECTURE.md).
  node scripts/check-imports.mjs
}

step_sizes() {
  # No source file over 600 lines (tests and generated files aside) without a stated reason.
  node scripts/check-sizes.mjs
}

step_web_unit() {
  npx vitest run --config web/vite.config.ts
}

step_web_build() {
  # --configLoader runner: the default loader bundles the config into node_modules/.vite-temp,
  # and in a git worktree whose node_modules links to another checkout's, the config's
  # import.meta.url (and so the root it sets) would then be that checkout's.
  npx vite build --config web/vite.config.ts --configLoader runner
}

step_e2e() {
  ORBITCP_CLI="$TARGET_DIR/release/orbitcp" npx playwright test
}

if (( $# > 0 )); then
  selected=("$@")
else
  selected=("${STEPS[@]}")
fi
for name in "${selected[@]}"; do
  if ! declare -F "step_$name" >/dev/null; then
    echo "test.sh: unknown step '$name' (known: ${STEPS[*]})" >&2
    exit 2
  fi
done

# The e2e step drives Debian's Chromium: a missing one is an error, not a skip. The python
# step needs the virtualenv, which costs a minute of downloads the first time.
setup_args=()
if [[ " ${selected[*]} " == *" e2e "* ]]; then setup_args+=(--need-chromium); fi
if [[ " ${selected[*]} " == *" python "* ]]; then setup_args+=(--need-python); fi
if [[ " ${selected[*]} " == *" ns3_crosscheck "* ]]; then setup_args+=(--need-ns3); fi
bash scripts/setup.sh ${setup_args[@]+"${setup_args[@]}"}

START=$SECONDS
n=0
for name in "${selected[@]}"; do
  n=$((n + 1))
  printf '\n==== [%d/%d] %s ====\n' "$n" "${#selected[@]}" "$name"
  step_start=$SECONDS
  # Not `if ! step_x`: bash ignores set -e inside anything run as a condition, so a failing
  # first command of a step would be hidden by a passing last one. A subshell keeps -e on.
  set +e
  (set -e; "step_$name")
  status=$?
  set -e
  if (( status != 0 )); then
    printf '\n==== FAILED: %s (step %d/%d, exit %d) ====\n' "$name" "$n" "${#selected[@]}" "$status" >&2
    exit 1
  fi
  printf -- '---- ok: %s (%d s)\n' "$name" "$((SECONDS - step_start))"
done
printf '\n==== all %d steps passed in %d s ====\n' "${#selected[@]}" "$((SECONDS - START))"
