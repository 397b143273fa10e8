#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The capops and capops-dev packages, as Debian's lintian judges them: the
# test fails on any error or warning lintian reports (--fail-on). Its
# `info` and `pedantic` tags are printed for the log, not failed on. Those
# that stay, and why:
#   spelling-error-in-binary             pieces of words inside the binaries'
#                                        data (`defaul`, `ment`, `pacH`), not text
#   binary-has-unneeded-section,         the packages are built by CMake with the
#   hardening-no-bindnow,                project's flags, not dpkg-buildflags'
#   hardening-no-fortify-functions       (-z now, _FORTIFY_SOURCE), and CPack's
#                                        strip keeps `.comment`
#   unstripped-static-library            capops-dev's libraries keep their
#                                        symbols, for embedders who debug
#   package-contains-documentation-      the READMEs and expected-rules.txt of
#     outside-usr-share-doc              the example and the pack are data beside
#                                        them in share/capops, read by the tests
# No tag is overridden: a warning that must stay would go in an overrides
# file installed with the package, with its reason.
# Usage: check_lintian.sh DEBS_DIR (tests/package/build_debs.sh made them)
# Exit 77 (skipped) without lintian.
set -uo pipefail

debs=$1
command -v lintian >/dev/null || { echo "skipped: lintian is not installed (scripts/install-deps installs it)"; exit 77; }
packages=("$debs"/capops_*.deb "$debs"/capops-dev_*.deb)
for deb in "${packages[@]}"; do
  [[ -s $deb ]] || { echo "FAIL: no package $deb: $(ls "$debs")"; exit 1; }
done
# lintian says it should not run as root, on stderr; the tags go to stdout.
out=$(lintian --fail-on error,warning --display-info --pedantic --tag-display-limit 0 "${packages[@]}" 2>/dev/null)
status=$?
[[ -n $out ]] && echo "$out"
if ((status != 0)); then
  echo "FAIL: lintian reports errors or warnings (exit $status)"
  exit 1
fi
echo "lintian: no error or warning in $(basename -a "${packages[@]}" | tr '\n' ' ')"
