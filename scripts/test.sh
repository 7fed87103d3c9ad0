#!/usr/bin/env bash
# Runs every check of the project, in order, and stops at the first failure.
# `npm test` and CI (.ci/run) both land here, so this file is the definition of "green".
#
# Usage: scripts/test.sh [STEP...]   (no argument: all of PLAN; e.g. `scripts/test.sh clippy`)
# Steps named on the command line run one after another, in the order given. Every run ends with
# each step's wall time, so that a step grown slow shows.
#
# To add a check: write a `step_NAME` function below and add NAME to PLAN, in the place where
# it should run (cheap and likely-to-fail checks first).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The whole run, in order. An entry "a+b+c" runs a, and b then c alongside it: a is a long step
# that leaves one of our 2 cores idle for much of its time (cargo runs the test binaries one
# after another, and the long property tests are one test each), so checks that need little
# CPU fit beside it. Steps joined so must not need each other's output, and only one of them may
# build much with cargo: another would wait for its lock on the target directory.
PLAN=(
  fmt
  sizes
  imports
  clippy
  wasm
  # The web checks need the wasm modules (their types and the lessons test), not the CLI.
  cargo_test+typecheck+lint+web_unit+web_build
  # Both build the CLI first (the second finds it built); then python builds with cargo while
  # the ns-3 runs take one core.
  python+ns3_crosscheck
  node_determinism
  web_types
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
  # The Node tests' module, with the exports only they call (scripts/build-wasm.sh --testing).
  RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
    cargo clippy -p orbitcp-core --lib --target wasm32-unknown-unknown --no-default-features \
    --features orbits,testing -- -D warnings
}

step_cargo_test() {
  # Release: the golden and property tests simulate a lot.
  # The property tests draw their cases from a fixed seed, so that a run of `npm test` (and CI)
  # gives the same verdict every time; set PROPTEST_RNG_SEED to another number to explore new
  # cases. A failure found that way is saved in tests/*.proptest-regressions: commit it with
  # the fix, and every later run replays it first.
  PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261128}" cargo test --workspace --release
}

step_ns3_crosscheck() {
  # ns-3 itself (ns-3.44 from PyPI's ns3 wheel, unpacked by setup.sh) against the ns3 TCP
  # profile on the same dumbbell: NewReno, CUBIC and BBR at RTT 500 ms, p = 0, 0.1 % and 1 %,
  # 10 runs each, within ±15 % lossless and ±25 % lossy (docs/tcp.md, "The ns3 profile and ns-3
  # itself").
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
  # The site's modules come from the wasm step; the tests' own module is built here.
  bash scripts/build-wasm.sh --testing
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
  # The one-way import rule: imports run down the core's layers, and no module imports one that
  # imports it back (ARCHITECTURE.md). Then the checker itself, against fixture trees.
  node scripts/check-imports.mjs
  node --test scripts/tests/*.test.mjs
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

# --- The driver ---------------------------------------------------------------------------

# Every step in PLAN's order, for validation and the usage message.
ALL_STEPS=()
for entry in "${PLAN[@]}"; do
  IFS='+' read -r -a parts <<<"$entry"
  ALL_STEPS+=("${parts[@]}")
done

if (( $# > 0 )); then
  plan=("$@")
else
  plan=("${PLAN[@]}")
fi
selected=()
for entry in "${plan[@]}"; do
  IFS='+' read -r -a parts <<<"$entry"
  for name in "${parts[@]}"; do
    if ! declare -F "step_$name" >/dev/null; then
      echo "test.sh: unknown step '$name' (known: ${ALL_STEPS[*]})" >&2
      exit 2
    fi
    selected+=("$name")
  done
done

# The e2e step drives Debian's Chromium: a missing one is an error, not a skip. The python
# step needs the virtualenv, which costs a minute of downloads the first time.
setup_args=()
if [[ " ${selected[*]} " == *" e2e "* ]]; then setup_args+=(--need-chromium); fi
if [[ " ${selected[*]} " == *" python "* ]]; then setup_args+=(--need-python); fi
if [[ " ${selected[*]} " == *" ns3_crosscheck "* ]]; then setup_args+=(--need-ns3); fi
bash scripts/setup.sh ${setup_args[@]+"${setup_args[@]}"}

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/orbitcp-test.XXXXXX")"
TIMES="$LOG_DIR/times"   # one line per finished step: name, seconds, exit status, lane
: >"$TIMES"
LANE_PIDS=()
stop_lanes() {
  local pid
  for pid in ${LANE_PIDS[@]+"${LANE_PIDS[@]}"}; do
    # Each lane is a process group of its own (set -m below): this ends its cargo, node or
    # Chromium too, not only the shell that started them.
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  for pid in ${LANE_PIDS[@]+"${LANE_PIDS[@]}"}; do wait "$pid" 2>/dev/null || true; done
  LANE_PIDS=()
}
trap 'stop_lanes; rm -rf "$LOG_DIR"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run_lane LANE STEP...: the steps one after another, each in a subshell with -e on, and stops
# at the first that fails, with its status. Not `if ! step_x`: bash ignores set -e inside
# anything run as a condition, so a failing first command of a step would be hidden by a
# passing last one.
run_lane() {
  set +e
  local lane="$1" name start status
  shift
  for name in "$@"; do
    printf '\n==== %s%s ====\n' "$name" "${lane:+ (alongside $lane)}"
    start=$SECONDS
    (set -e; "step_$name")
    status=$?
    echo "$name $((SECONDS - start)) $status ${lane:--}" >>"$TIMES"
    if (( status != 0 )); then return "$status"; fi
    printf -- '---- ok: %s (%d s)\n' "$name" "$((SECONDS - start))"
  done
}

print_times() {
  local name seconds status lane total=0
  printf '\n==== step times (wall clock) ====\n'
  while read -r name seconds status lane; do
    total=$((total + seconds))
    printf '  %-18s %5d s%s%s\n' "$name" "$seconds" \
      "$( [[ "$lane" != - ]] && printf '   (alongside %s)' "$lane" )" \
      "$( (( status != 0 )) && printf '   FAILED, exit %d' "$status" )"
  done <"$TIMES"
  printf '  %-18s %5d s   (the steps add up to %d s)\n' "wall" "$((SECONDS - START))" "$total"
}

fail() { # name status
  print_times
  printf '\n==== FAILED: %s (exit %d) ====\n' "$1" "$2" >&2
  exit 1
}

# run_entry STEP[+STEP...]: one step in the foreground; or the first in the foreground and the
# others, one after another, alongside it, with their output held in a file and shown when the
# entry ends (so that lines do not interleave). The first failure of either stops the other.
run_entry() {
  local -a parts
  IFS='+' read -r -a parts <<<"$1"
  if (( ${#parts[@]} == 1 )); then
    set +e
    run_lane "" "${parts[0]}"
    local status=$?
    set -e
    if (( status != 0 )); then fail "${parts[0]}" "$status"; fi
    return 0
  fi
  local side_log="$LOG_DIR/alongside.log"
  set +e
  set -m
  run_lane "" "${parts[0]}" </dev/null &
  local front=$!
  run_lane "${parts[0]}" "${parts[@]:1}" </dev/null >"$side_log" 2>&1 &
  local side=$!
  set +m
  LANE_PIDS=("$front" "$side")
  local finished status failed=0
  wait -n -p finished "$front" "$side"
  status=$?
  if (( status != 0 )); then
    failed=$status
  else
    wait "$(( finished == front ? side : front ))"
    status=$?
    if (( status != 0 )); then failed=$status; fi
  fi
  stop_lanes
  set -e
  printf '\n---- output of %s, run alongside %s:\n' "${parts[*]:1}" "${parts[0]}"
  cat "$side_log"
  if (( failed != 0 )); then
    # The step that failed is the one whose status is not 0 (a lane stopped by the other's
    # failure writes no line).
    local name seconds step_status lane
    while read -r name seconds step_status lane; do
      if (( step_status != 0 )); then fail "$name" "$step_status"; fi
    done <"$TIMES"
    fail "${parts[*]}" "$failed"
  fi
}

START=$SECONDS
for entry in "${plan[@]}"; do
  run_entry "$entry"
done
print_times
printf '\n==== all %d steps passed in %d s ====\n' "${#selected[@]}" "$((SECONDS - START))"
