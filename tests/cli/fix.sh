#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `capops-lint --fix` and `--fix-dry-run` as the shell runs them, checked
# with the tools a user would apply the diff with:
#   - the dry run's hunks are those `diff -u` gives between the plan and
#     what --fix writes, and `patch` applies the dry run to the same text;
#   - the dry run writes nothing; --fix exits as the findings that remain;
#   - a plan on standard input is refused (exit 2), nothing read as a fix.
# Usage: fix.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail
lint=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
command -v patch >/dev/null && command -v diff >/dev/null || {
  echo "patch or diff missing: skipped"
  exit 77
}
cd "$tmp" || exit 1
cp "$src/policies/capops-ai/fixtures/CAP-SUP-005/repairable.yaml" plan.yaml
# A misspelt field and a duration without its unit, beside the repairs.
sed -i 's/{id: tune, slice: training,/{id: tune, slcie: training,/; s/duration: 2d}}$/duration: 2}}/' plan.yaml
cp plan.yaml before.yaml

"$lint" --no-config --fix-dry-run plan.yaml >dry.diff 2>dry.err
expect "exit code, --fix-dry-run" 1 $?
cmp -s plan.yaml before.yaml || fail "--fix-dry-run wrote the plan"
grep -q '^-.*slcie' dry.diff || fail "the dry run does not fix the misspelt field: $(cat dry.diff)"
grep -q '^+.*evidence: \[r-may\]' dry.diff || fail "the dry run does not cite r-may: $(cat dry.diff)"

"$lint" --no-config --fix plan.yaml >fix.out 2>fix.err
expect "exit code, --fix" 1 $?
grep -q "applied" fix.err || fail "--fix says nothing of what it applied: $(cat fix.err)"
grep -q "slcie" fix.out && fail "--fix reports what it fixed: $(grep -m1 slcie fix.out)"

diff -u before.yaml plan.yaml | tail -n +3 >real.diff
tail -n +3 dry.diff | cmp -s - real.diff || fail "the dry run's hunks differ from diff -u's: $(diff <(tail -n +3 dry.diff) real.diff)"
cp before.yaml patched.yaml
sed 's|^\(---\|+++\) plan.yaml$|\1 patched.yaml|' dry.diff | patch -s patched.yaml >patch.out 2>&1 ||
  fail "patch refused the dry run: $(cat patch.out)"
cmp -s patched.yaml plan.yaml || fail "the dry run, patched in, is not what --fix wrote"

"$lint" --no-config --fix - <before.yaml >stdin.out 2>stdin.err
expect "exit code, --fix on standard input" 2 $?
grep -q "cannot write back a plan read from standard input" stdin.err || fail "stdin: $(cat stdin.err)"

finish "fix: the dry run is diff -u's and patch applies it; --fix on stdin refused"
