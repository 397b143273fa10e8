#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the embedding example (embed.cc) on the CI example's config: the
# findings it counts must be the ones capops-lint reports for that config,
# and the baseline it writes must list the unwaived ones.
# Usage: check_embed.sh EMBED CAPOPS_LINT SOURCE_DIR
set -uo pipefail
embed=$1
lint=$2
src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 1
config=examples/ci/.capops.yaml

"$embed" "$config" "$work/baseline.yaml" >"$work/out" 2>"$work/err"
rc=$?
# The command line's own count of the same lint, for comparison.
"$lint" --config "$config" --format json >"$work/lint.json" 2>/dev/null
summary() { sed -n "s/^ *\"$1\": \([0-9]*\),*$/\1/p" "$work/lint.json"; }
total=$(summary violations)
waived=$(summary waived)
entries=$(grep -c '^  - {rule:' "$work/baseline.yaml")
expected="$total findings, $waived waived, in 2 plan files
$waived new, $entries baselined"
fail=0
if [[ $rc -ne 0 ]]; then echo "embed exited $rc: $(cat "$work/err")"; fail=1; fi
if [[ "$(cat "$work/out")" != "$expected" ]]; then
  echo "embed printed:"; cat "$work/out"; echo "expected:"; echo "$expected"; fail=1
fi
if [[ $total -lt 2 || $waived -lt 1 || $entries -ne $((total - waived)) ]]; then
  echo "the example config should give unwaived and waived findings: $total, $waived, $entries"; fail=1
fi
exit $fail
