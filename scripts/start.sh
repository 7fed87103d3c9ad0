#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and shows the simulator running.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

bash scripts/setup.sh

echo "building: release CLI (cargo build --release)"
cargo build --release --bin orbitcp

# ---- NEXT MILESTONE: serve the web app here --------------------------------------------
# Replace the block below with: bash scripts/build-wasm.sh, then the Vite dev server
# (npm --prefix web run dev, or npx vite web) on 127.0.0.1, printing the URL to open.
# Until the web app exists, start runs the default scenario with the native CLI.
SCENARIO="scenarios/default.json"
if [[ ! -f "$SCENARIO" ]]; then
  echo "start: $SCENARIO not found; nothing to run yet" >&2
  exit 1
fi
echo "running: orbitcp run --summary $SCENARIO"
"$TARGET_DIR/release/orbitcp" run --summary "$SCENARIO"
# ---- end of the block the web app replaces --------------------------------------------
