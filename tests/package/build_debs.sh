#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `package.build-debs`: the capops and capops-dev packages, made once by
# cpack from the build tree into OUT_DIR (emptied first), for the tests that
# read them (package.deb, package.dev-deb: FIXTURES_REQUIRED debs).
# Exit 77 (skipped) without cpack or dpkg-deb.
# Usage: build_debs.sh BUILD_DIR OUT_DIR
set -uo pipefail

build=$1 out=$2
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    echo "skipped: $tool is not installed (scripts/install-deps installs it)"
    exit 77
  fi
done
rm -rf "$out" && mkdir -p "$out" || exit 1
if ! (cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1); then
  cat "$out/cpack.log"
  echo "FAIL: cpack failed"
  exit 1
fi
for name in capops capops-dev; do
  deb=$(ls "$out"/${name}_*.deb 2>/dev/null)
  [[ -n $deb && -s $deb ]] || { echo "FAIL: cpack wrote no $name .deb: $(ls "$out")"; exit 1; }
done
ls "$out"/*.deb
