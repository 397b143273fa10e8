#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The generated corpus (benchmarks/gen_corpus) against the real capops-lint
# and the whole shipped pack:
#   - by default the plans break no rule: exit 0, no finding at all, at
#     several sizes and seeds and split into several plans;
#   - with --defects 0.05, most rules of the pack fire (at least MIN_RULES
#     distinct ones) and the run exits 1;
#   - the same options give the same bytes, another seed other bytes;
#   - a --defects that is not a number from 0 to 1 is a usage error (exit 2)
#     that names the flag.
# Usage: check.sh GEN_CORPUS CAPOPS_LINT
set -u
gen=$1 lint=$2
MIN_RULES=50
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

generate() {  # DIR ARGS…: writes a corpus, quietly
  local dir=$1; shift
  "$gen" "$@" -o "$dir" >/dev/null || fail "gen_corpus $* exited $?"
}

for args in "300 30 1" "300 30 2" "2000 200 1" "2000 200 2" "900 90 3 --plans 3"; do
  set -- $args
  dir="$tmp/clean-$1-$3${4:+-split}"
  generate "$dir" --allocations "$1" --pools "$2" --seed "$3" ${4:-} ${5:-}
  "$lint" --no-config --format short "$dir" >"$dir.out" 2>&1
  code=$?
  if [ "$code" -ne 0 ] || [ -s "$dir.out" ]; then
    fail "clean corpus ($args): exit $code, findings:"
    head -n 20 "$dir.out"
  fi
done

dir="$tmp/defects"
generate "$dir" --allocations 2000 --pools 200 --defects 0.05
"$lint" --no-config --format short "$dir" >"$dir.out" 2>&1
code=$?
rules=$(grep -o 'CAP-[A-Z]*-[0-9]*' "$dir.out" | sort -u | wc -l)
[ "$code" -eq 1 ] || fail "--defects 0.05: exit $code, not 1"
[ "$rules" -ge "$MIN_RULES" ] || fail "--defects 0.05: $rules distinct rules fire, not at least $MIN_RULES"
if grep -q 'could not be evaluated' "$dir.out"; then fail "--defects 0.05: a rule was not evaluated"; fi
echo "--defects 0.05 at 2,000 allocations: $rules distinct rules fire"

generate "$tmp/a" --allocations 500 --pools 50 --seed 7 --plans 2 --defects 0.01
generate "$tmp/b" --allocations 500 --pools 50 --seed 7 --plans 2 --defects 0.01
generate "$tmp/c" --allocations 500 --pools 50 --seed 8 --plans 2 --defects 0.01
generate "$tmp/d" --allocations 500 --pools 50 --seed 7 --plans 2 --defects 0
generate "$tmp/e" --allocations 500 --pools 50 --seed 7 --plans 2
diff -r "$tmp/a" "$tmp/b" >/dev/null || fail "the same options gave different bytes"
diff -r "$tmp/a" "$tmp/c" >/dev/null && fail "another seed gave the same bytes"
diff -r "$tmp/d" "$tmp/e" >/dev/null || fail "--defects 0 differs from the default"

for bad in -0.1 1.5 nan NaN inf 0x1p-2 abc "" 0.5x; do
  out=$("$gen" --allocations 10 --pools 12 --defects "$bad" -o "$tmp/bad" 2>&1)
  code=$?
  [ "$code" -eq 2 ] || fail "--defects '$bad': exit $code, not 2"
  case $out in *"--defects"*) ;; *) fail "--defects '$bad': the message does not name the flag: $out" ;; esac
  [ -e "$tmp/bad" ] && fail "--defects '$bad' wrote a corpus"
done
out=$("$gen" --allocations 10 --pools 12 -o "$tmp/bad" --defects 2>&1)
[ $? -eq 2 ] || fail "--defects without a value is not a usage error"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "ok"
