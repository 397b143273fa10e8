#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The engine as an embedder meets it: `cmake --install` into a fresh prefix,
# then examples/embed configured on its own against that prefix
# (find_package(capops)), built with the same compiler and flags, and run as
# examples/embed/check_embed.sh runs the in-tree build. Its compile lines
# must name the installed headers only, never the source tree.
# With FROM=deb, the prefix is the capops and capops-dev packages (cpack -G
# DEB) unpacked instead: the packaged engine, as `apt install capops-dev`
# gives it, from DEBS when set (tests/package/build_debs.sh made them), else
# made here (exit 77, skipped, without cpack or dpkg-deb).
# Usage: check_installed_engine.sh BUILD_DIR SOURCE_DIR CAPOPS_LINT CXX BUILD_TYPE CXX_FLAGS LINKER_FLAGS [LAUNCHER]
set -uo pipefail

build=$1 src=$2 lint=$3 cxx=$4 build_type=$5 cxx_flags=$6 linker_flags=$7 launcher=${8:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

if [[ ${FROM:-install} == deb ]]; then
  command -v dpkg-deb >/dev/null || { echo "skipped: dpkg-deb is not installed"; exit 77; }
  debs=${DEBS:-$tmp/debs}
  if [[ -z ${DEBS:-} ]]; then
    "$(dirname "$0")/build_debs.sh" "$build" "$debs" >"$tmp/cpack.log"
    status=$?
    ((status == 77)) && { cat "$tmp/cpack.log"; exit 77; }
    ((status == 0)) || fail "cpack: $(cat "$tmp/cpack.log")"
  fi
  for deb in "$debs"/capops_*.deb "$debs"/capops-dev_*.deb; do
    [[ -s $deb ]] || fail "cpack wrote no $deb"
    dpkg-deb -x "$deb" "$tmp/root" || fail "dpkg-deb -x $deb"
  done
  ln -s root/usr "$tmp/prefix"
else
  cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || fail "install: $(cat "$tmp/install.log")"
fi
for f in lib/cmake/capops/capopsConfig.cmake include/capops/engine/workspace/session.h lib/capops/libcapops_report.a; do
  [[ -e $tmp/prefix/$f ]] || fail "the install has no $f"
done
[[ -e $tmp/prefix/include/capops/engine/cli ]] && fail "the install carries the command line's headers"

cmake -S "$src/examples/embed" -B "$tmp/embed" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"} \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$tmp/configure.log" 2>&1 || fail "configure: $(cat "$tmp/configure.log")"
cmake --build "$tmp/embed" >"$tmp/build.log" 2>&1 || fail "build: $(tail -20 "$tmp/build.log")"
grep -q -- "-I$tmp/prefix/include/capops\|-isystem $tmp/prefix/include/capops" "$tmp/embed/compile_commands.json" ||
  fail "the embed example is not compiled against the installed headers: $(cat "$tmp/embed/compile_commands.json")"
grep -q -- "$src/engine\|-I$src " "$tmp/embed/compile_commands.json" &&
  fail "the embed example reaches into the source tree: $(cat "$tmp/embed/compile_commands.json")"
"$src/examples/embed/check_embed.sh" "$tmp/embed/capops_embed_example" "$lint" "$src" || fail "the installed-engine embed example"
echo "an installed capops (${FROM:-install}) builds and runs the embedding example"
