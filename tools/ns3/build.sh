#!/bin/sh
# Builds tools/ns3/dumbbell against ns-3.44, the release the PyPI wheel `ns3==3.44.post0` ships
# with its C++ headers and libraries; scripts/setup.sh --need-ns3 unpacks it into
# tools/ns3/.ns-3.44 (no Python bindings are used). Skips the build when the binary is newer
# than its source. Exits 2 when that ns-3 is not there, so that a caller can tell "no oracle
# here" from a failed build.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=3.44
# The libraries are named libns3.44-core.so and so on.
lib="ns3.${version#3.}"
prefix="$here/.ns-$version/ns3"
out="$here/dumbbell"
if [ ! -f "$prefix/lib64/lib$lib-core.so" ]; then
  echo "ns-$version is not unpacked in $prefix (scripts/setup.sh --need-ns3)" >&2
  exit 2
fi
if [ -x "$out" ] && [ "$out" -nt "$here/dumbbell.cc" ] && [ "$out" -nt "$here/build.sh" ]; then
  exit 0
fi
libs=""
for m in core network internet point-to-point applications traffic-control; do
  libs="$libs -l$lib-$m"
done
# shellcheck disable=SC2086
g++ -O2 -std=c++20 -DNS3_VERSION_STRING="\"$version\"" -o "$out" "$here/dumbbell.cc" \
  -I"$prefix/include" -L"$prefix/lib64" -Wl,-rpath,"$prefix/lib64" $libs
