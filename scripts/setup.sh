#!/usr/bin/env bash
# Installs what the build and the tests need, skipping whatever is already there, so that a
# fresh clone works with `npm start` / `npm test` alone and a second run costs a few seconds.
# Only package registries are reachable on our machines (crates.io, npm, PyPI, Debian):
# nothing here may download a prebuilt binary from elsewhere.
#
# Usage: scripts/setup.sh [--need-chromium] [--need-python]
#   --need-chromium (or ORBITCP_NEED_CHROMIUM=1): fail when Chromium cannot be installed,
#   for callers that run browser tests; without it a missing Chromium only warns when we
#   cannot install it (not root).
#   --need-python (or ORBITCP_NEED_PYTHON=1): also make the virtualenv .venv/ that the Python
#   package is built and tested in (python/requirements-dev.txt, and Ray if it installs).
#   --need-ns3 (or ORBITCP_NEED_NS3=1): also unpack ns-3.44's C++ headers and libraries from
#   PyPI's `ns3` wheel into tools/ns3/.ns-3.44, the oracle of the ns-3 cross-check (tools/ns3/),
#   and install g++ from Debian if it is missing.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
# cargo install puts binaries here, and a fresh login shell may not have it on PATH yet.
export PATH="$HOME/.cargo/bin:$PATH"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

NEED_CHROMIUM="${ORBITCP_NEED_CHROMIUM:-0}"
NEED_PYTHON="${ORBITCP_NEED_PYTHON:-0}"
NEED_NS3="${ORBITCP_NEED_NS3:-0}"
for arg in "$@"; do
  case "$arg" in
    --need-chromium) NEED_CHROMIUM=1 ;;
    --need-python) NEED_PYTHON=1 ;;
    --need-ns3) NEED_NS3=1 ;;
    *) echo "setup: unknown argument: $arg (known: --need-chromium, --need-python, --need-ns3)" >&2; exit 2 ;;
  esac
done

START=$SECONDS
ok() { echo "ok: $*"; }
installing() { echo "installing: $*"; }
die() { echo "setup FAILED: $*" >&2; exit 1; }

# Another shell (or another agent) may be installing the same thing; a second concurrent
# install wastes the 2 cores at best and fights over a lock at worst, so wait for it.
# In -f patterns, the [x] bracket keeps the pattern from matching the command line of a
# shell that merely mentions it.
wait_for_process() { # pgrep arguments..., then what (last)
  local what="${*: -1}" waited=0
  local -a pgrep_args=("${@:1:$#-1}")
  while pgrep "${pgrep_args[@]}" >/dev/null 2>&1; do
    if (( waited == 0 )); then echo "waiting: $what is already running in another process"; fi
    sleep 5
    waited=$((waited + 5))
    if (( waited >= 1200 )); then die "gave up after 20 min waiting for $what"; fi
  done
}

# --- Rust (rustup itself is a precondition of every machine we run on) -------------------
command -v rustup >/dev/null 2>&1 || die "rustup not found; install Rust with rustup first"
command -v cargo >/dev/null 2>&1 || die "cargo not found on PATH (looked in ~/.cargo/bin too)"

installed_components="$(rustup component list --installed)"
for comp in rustfmt clippy; do
  if grep -q "^${comp}" <<<"$installed_components"; then
    ok "$comp"
  else
    installing "$comp (rustup component add)"
    rustup component add "$comp" || die "rustup component add $comp"
  fi
done

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  ok "wasm32 target"
else
  installing "wasm32 target (rustup target add wasm32-unknown-unknown)"
  rustup target add wasm32-unknown-unknown || die "rustup target add wasm32-unknown-unknown"
fi

# --- wasm-pack: from crates.io; the npm package downloads a binary and fails here ---------
have_wasm_pack() { command -v wasm-pack >/dev/null 2>&1 || [[ -x "$HOME/.cargo/bin/wasm-pack" ]]; }
if ! have_wasm_pack; then
  # Anchored on spaces: wasm-pack's own `cargo install ... --root ~/.cache/.wasm-pack/...`
  # of wasm-bindgen-cli must not count.
  wait_for_process -f '[c]argo install( .*)? wasm-pack( |$)' "cargo install wasm-pack"
fi
if have_wasm_pack; then
  ok "wasm-pack"
else
  installing "wasm-pack (cargo install, ~2 min)"
  cargo install wasm-pack --locked || die "cargo install wasm-pack --locked"
  have_wasm_pack || die "cargo install wasm-pack finished but wasm-pack is not in ~/.cargo/bin"
fi

# --- Chromium for browser tests: Debian's package (npx playwright install cannot download) --
if [[ -x /usr/bin/chromium ]]; then
  ok "chromium"
elif [[ "$(id -u)" == 0 ]]; then
  wait_for_process -x 'apt(-get)?|dpkg' "apt/dpkg"
  if [[ -x /usr/bin/chromium ]]; then
    ok "chromium (installed by the other apt run)"
  else
    installing "chromium (apt-get install, ~1 min)"
    # Lock::Timeout: wait for an apt run we could not see starting, rather than failing.
    apt-get -o DPkg::Lock::Timeout=600 update -qq || die "apt-get update"
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium >/dev/null \
      || die "apt-get install -y chromium"
    [[ -x /usr/bin/chromium ]] || die "chromium installed but /usr/bin/chromium is missing"
  fi
else
  msg="chromium is missing and we are not root; install it with: sudo apt-get update && sudo apt-get install -y chromium"
  if [[ "$NEED_CHROMIUM" == 1 ]]; then
    die "$msg"
  fi
  echo "skip: $msg (not needed by this command)"
fi

# --- tshark for the pcap test (wasm-core/tests-node/pcap.test.mjs): Debian's package --------
# The test fails without it, so a machine that cannot install it says so here.
if command -v tshark >/dev/null 2>&1; then
  ok "tshark"
elif [[ "$(id -u)" == 0 ]]; then
  wait_for_process -x 'apt(-get)?|dpkg' "apt/dpkg"
  if command -v tshark >/dev/null 2>&1; then
    ok "tshark (installed by the other apt run)"
  else
    installing "tshark (apt-get install, ~1 min)"
    # Preseeded: the package asks whether non-root users may capture; we only read files.
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
    apt-get -o DPkg::Lock::Timeout=600 update -qq || die "apt-get update"
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq tshark >/dev/null || die "apt-get install -y tshark"
    command -v tshark >/dev/null 2>&1 || die "tshark installed but not on PATH"
  fi
else
  echo "skip: tshark is missing and we are not root; install it with: sudo apt-get update && sudo apt-get install -y tshark (the pcap test needs it)"
fi

# --- ns-3 for the TCP cross-check (tools/ns3/): ns-3.44 from PyPI, built against with g++ -----
# PyPI's `ns3` wheel carries ns-3's C++ headers and shared libraries beside its Python
# bindings; only the C++ part is used, so the wheel is fetched for one fixed platform and
# unpacked, not installed. Debian 12 packages only ns-3.37, whose BBR stalls on the
# cross-check's dumbbell (docs/tcp.md, "The ns3 profile and ns-3 itself").
NS3_WHEEL_VERSION="3.44.post0"
NS3_DIR="$ROOT/tools/ns3/.ns-3.44"
if [[ "$NEED_NS3" == 1 ]]; then
  if command -v g++ >/dev/null 2>&1; then
    ok "g++"
  elif [[ "$(id -u)" == 0 ]]; then
    wait_for_process -x 'apt(-get)?|dpkg' "apt/dpkg"
    installing "g++ (apt-get install, ~1 min)"
    apt-get -o DPkg::Lock::Timeout=600 update -qq || die "apt-get update"
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq g++ >/dev/null || die "apt-get install -y g++"
  else
    die "g++ is missing and we are not root; install it with: sudo apt-get install -y g++"
  fi
  if [[ -f "$NS3_DIR/ns3/lib64/libns3.44-core.so" ]]; then
    ok "ns-3.44 (tools/ns3/.ns-3.44)"
  else
    installing "ns-3.44 (PyPI wheel ns3==$NS3_WHEEL_VERSION, ~70 MB)"
    wheel_dir="$(mktemp -d)"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
      --platform manylinux_2_28_x86_64 --dest "$wheel_dir" "ns3==$NS3_WHEEL_VERSION" \
      || die "pip download ns3==$NS3_WHEEL_VERSION"
    rm -rf "$NS3_DIR.partial"
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
      "$wheel_dir"/ns3-*.whl "$NS3_DIR.partial" || die "unpacking the ns3 wheel"
    rm -rf "$NS3_DIR" "$wheel_dir"
    mv "$NS3_DIR.partial" "$NS3_DIR"
    [[ -f "$NS3_DIR/ns3/lib64/libns3.44-core.so" ]] || die "the ns3 wheel holds no libns3.44-core.so"
  fi
fi

# --- npm packages: only once package.json declares some ---------------------------------
command -v node >/dev/null 2>&1 || die "node not found (Node 20 is expected on our machines)"
command -v npm >/dev/null 2>&1 || die "npm not found"

has_npm_deps="$(node -e '
  const p = require("./package.json");
  const n = Object.keys({ ...p.dependencies, ...p.devDependencies, ...p.optionalDependencies }).length;
  process.stdout.write(n > 0 ? "1" : "0");
')"
# The marker written after a successful install holds the hash of the manifests it installed:
# a fresh checkout (a new git worktree) has newer files with the same content, which must not
# count as a change. Hashed after the install, since `npm install` rewrites package-lock.json.
NPM_STAMP="node_modules/.orbitcp-installed"
npm_manifests_hash() { cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1; }
if [[ "$has_npm_deps" == 0 ]]; then
  ok "npm packages (none declared)"
elif [[ -f "$NPM_STAMP" && "$(cat "$NPM_STAMP")" == "$(npm_manifests_hash)" ]]; then
  ok "npm packages"
elif [[ -L node_modules ]]; then
  # npm ci empties node_modules entry by entry, through the link: it would delete the packages
  # of the checkout the link points to, under whoever is using them.
  echo "skip: node_modules links to $(readlink node_modules), not installed from this package.json and package-lock.json (or installed before they were stamped); not running npm ci through the link. Run it in that checkout, or replace the link by a directory."
else
  if [[ -f package-lock.json ]]; then
    installing "npm packages (npm ci)"
    npm ci --no-audit --no-fund || die "npm ci"
  else
    installing "npm packages (npm install)"
    npm install --no-audit --no-fund || die "npm install"
  fi
  npm_manifests_hash > "$NPM_STAMP"
fi

# --- Python: a virtualenv for the orbitcp package (python/), from PyPI --------------------
# Only for callers that build or test the package: it is a minute of downloads the first time.
VENV=".venv"
PY_STAMP="$VENV/.orbitcp-deps"
if [[ "$NEED_PYTHON" == 1 ]]; then
  command -v python3 >/dev/null 2>&1 || die "python3 not found (Python 3.9 or newer is expected)"
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' \
    || die "python3 is $(python3 --version 2>&1); the package needs 3.9 or newer"
  # The interpreter is part of the stamp: a venv made by another Python is made again.
  py_hash="$( { sha256sum python/requirements-dev.txt; python3 -c 'import sys; print(sys.version)'; \
    echo "ray>=2.9,<3 setup-v1"; } | sha256sum | cut -d' ' -f1)"
  if [[ -x "$VENV/bin/python" && -f "$PY_STAMP" && "$(cat "$PY_STAMP")" == "$py_hash" ]]; then
    ok "python venv ($VENV)"
  else
    installing "python venv ($VENV: maturin, pytest, pandas, dask[distributed], ray; ~2 min)"
    rm -f "$PY_STAMP"
    # A venv is bound to the interpreter that made it: another python3 needs a new one.
    if [[ -x "$VENV/bin/python" ]] \
      && [[ "$("$VENV/bin/python" -c 'import sys; print(sys.version)')" != "$(python3 -c 'import sys; print(sys.version)')" ]]; then
      rm -rf "$VENV"
    fi
    if [[ ! -x "$VENV/bin/python" ]]; then
      python3 -m venv "$VENV" || die "python3 -m venv $VENV (Debian: apt-get install python3-venv)"
    fi
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-dev.txt \
      || die "pip install -r python/requirements-dev.txt"
    # Ray is optional: where its wheel does not install, engine="ray" says so and its tests skip.
    if ! "$VENV/bin/python" -m pip install -q --disable-pip-version-check "ray>=2.9,<3"; then
      echo "skip: ray does not install here; orbitcp.sweep(engine=\"ray\") will raise ImportError"
    fi
    echo "$py_hash" > "$PY_STAMP"
  fi
fi

echo "setup done in $((SECONDS - START)) s"
