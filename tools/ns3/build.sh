#!/bin/sh
# Builds tools/ns3/dumbbell against the system's ns-3 (Debian: apt-get install libns3-dev
# libgsl-dev). Skips the build when the binary is newer than its source. Exits 2 when ns-3 is
# not installed, so that a caller can tell "no oracle here" from a failed build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/dumbbell"
if ! pkg-config --exists ns3-core 2>/dev/null; then
  echo "ns-3 is not installed (apt-get install -y libns3-dev libgsl-dev)" >&2
  exit 2
fi
if [ -x "$out" ] && [ "$out" -nt "$here/dumbbell.cc" ]; then
  exit 0
fi
# shellcheck disable=SC2046
g++ -O2 -std=c++17 -o "$out" "$here/dumbbell.cc" \
  $(pkg-config --cflags --libs ns3-core ns3-network ns3-internet ns3-point-to-point ns3-applications ns3-traffic-control)
