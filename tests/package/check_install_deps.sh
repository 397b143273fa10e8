#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/install-deps, read with --list (nothing is installed): --minimal
# is what building needs and a part of the default, without the test tools
# (browsers, other compilers, shells, npm, package checkers); the default
# holds every tool a test of this tree runs; a flag it does not know is a
# usage error (exit 2).
# Usage: check_install_deps.sh SOURCE_DIR
set -uo pipefail
src=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
deps=$src/scripts/install-deps

minimal=$("$deps" --list --minimal) || fail "install-deps --list --minimal exited $?"
full=$("$deps" --list) || fail "install-deps --list exited $?"
for p in build-essential cmake antlr4 libantlr4-runtime-dev libfyaml-dev libcli11-dev catch2 libssl-dev libjemalloc-dev; do
  grep -qx -- "$p" <<<"$minimal" || fail "--minimal leaves out $p, which the build needs"
done
for p in chromium clang clang-format zsh fish npm lintian pre-commit libbenchmark-dev; do
  grep -qx -- "$p" <<<"$minimal" && fail "--minimal installs $p, which only tests need"
  grep -qx -- "$p" <<<"$full" || fail "the default leaves out $p, which a test runs"
done
while read -r p; do
  grep -qx -- "$p" <<<"$full" || fail "--minimal installs $p, the default does not"
done <<<"$minimal"
"$deps" --no-such-flag >/dev/null 2>"$tmp/err"
expect "exit code of an unknown flag" 2 $?
grep -q -- "--no-such-flag" "$tmp/err" || fail "the unknown flag is not named: $(cat "$tmp/err")"
finish "install-deps: $(wc -l <<<"$minimal") packages to build, $(wc -l <<<"$full") to test"
