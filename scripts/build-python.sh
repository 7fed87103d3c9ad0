#!/usr/bin/env bash
# Builds the Python package (python/, pyo3 + maturin) into the virtualenv .venv/ (made by
# `scripts/setup.sh --need-python`), as an editable install: python/orbitcp/*.py are used in
# place, the compiled core is python/orbitcp/_native*.so.
# Skips the build when the inputs hash to the same value as the last successful build and the
# module still imports, because even a no-op maturin run re-links and re-installs the wheel.
# Usage: scripts/build-python.sh [--force]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
STAMP="$VENV/.orbitcp-wheel"
PY="$VENV/bin/python"

export PATH="$HOME/.cargo/bin:$PATH"

if [[ ! -x "$PY" || ! -x "$VENV/bin/maturin" ]]; then
  echo "error: $VENV with maturin is missing; run: bash scripts/setup.sh --need-python" >&2
  exit 1
fi

# Everything that can change the extension: its crate, the core crate (minus the Node tests),
# the tool versions and the interpreter it is built for. python/orbitcp/*.py and the tests are
# not inputs: the editable install reads them in place.
inputs_hash() {
  {
    find python/src python/Cargo.toml python/Cargo.lock python/pyproject.toml -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    find wasm-core -path wasm-core/tests-node -prune -o -path wasm-core/target -prune \
      -o -path wasm-core/pkg -prune -o -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha256sum
    rustc --version
    "$VENV/bin/maturin" --version
    "$PY" -c 'import sys; print(sys.version)'
    echo "$ROOT script-v1"
  } | sha256sum | cut -d' ' -f1
}

hash="$(inputs_hash)"
if [[ "${1:-}" != "--force" && -f "$STAMP" && "$(cat "$STAMP")" == "$hash" ]] \
  && (cd /tmp && "$PY" -c 'import orbitcp._native') 2>/dev/null; then
  echo "ok: python package is up to date ($VENV)"
  exit 0
fi

echo "building: python package (maturin develop --release; the first build compiles the core, ~4 min on 2 cores)"
rm -f "$STAMP"
VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" "$VENV/bin/maturin" develop --release --quiet -m python/Cargo.toml
(cd /tmp && "$PY" -c 'import orbitcp._native') || { echo "error: maturin finished but orbitcp does not import" >&2; exit 1; }
echo "$hash" > "$STAMP"
echo "ok: built the orbitcp package into $VENV"
