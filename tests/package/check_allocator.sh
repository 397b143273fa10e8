#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The programs run on the allocator the build chose (CMakeLists.txt,
# CAPOPS_MALLOC): with jemalloc, each needs libjemalloc.so.2 and jemalloc
# is the allocator live in the process (it answers for MALLOC_CONF, which
# it alone reads: an option it does not know is reported at start);
# with the system's, neither.
# Usage: check_allocator.sh ALLOCATOR PROGRAM...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
allocator=$1
shift
[[ $allocator == jemalloc || $allocator == system ]] || fail "unknown allocator \`$allocator\`"
for program in "$@"; do
  name=$(basename "$program")
  needed=$(readelf -d "$program" | grep -c 'NEEDED.*\[libjemalloc\.so\.2\]')
  MALLOC_CONF=capops_probe:1 "$program" --version >/dev/null 2>"$tmp/err"
  expect "$name --version exit code" 0 $?
  live=$(grep -c '<jemalloc>: Invalid conf pair: capops_probe:1' "$tmp/err")
  if [[ $allocator == jemalloc ]]; then
    expect "$name: libjemalloc.so.2 among the libraries it needs" 1 "$needed"
    expect "$name: jemalloc live in the process" 1 "$live"
  else
    expect "$name: libjemalloc.so.2 among the libraries it needs" 0 "$needed"
    expect "$name: jemalloc live in the process" 0 "$live"
  fi
done
finish "allocator: $allocator in $# program(s)"
