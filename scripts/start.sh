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

echo "building: the web app (wasm core, generated types, vite build)"
bash scripts/build-wasm.sh
node scripts/gen-types.mjs
npx vite build --config web/vite.config.ts --configLoader runner --logLevel warn

PORT="${PORT:-5173}"
echo
echo "orbitcp is running at http://127.0.0.1:${PORT}/  (Ctrl-C stops it)"
echo "(the native CLI is at $TARGET_DIR/release/orbitcp; 'npm run dev' serves with live reload)"
exec npx vite preview --config web/vite.config.ts --configLoader runner --host 127.0.0.1 --port "$PORT" --strictPort
