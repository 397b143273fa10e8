#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What happens to a report that cannot be written, as the shell sees it:
#   - stdout on a full disk (/dev/full) or closed (>&-): exit 2 with a
#     message, never a clean exit 0 for a report nobody received;
#   - a reader that stops early (`| head`): the run ends quietly by SIGPIPE,
#     as any Unix tool does, with nothing on stderr.
# Usage: stdout_failures.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail
lint=$1
src=$2
example=$src/examples/visual-inspection
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

"$lint" "$example/plan.yaml" >/dev/full 2>"$work/err"
rc=$?
if [[ $rc -ne 2 ]] || ! grep -q "cannot write the output" "$work/err"; then
  echo "stdout on a full disk: exit $rc, stderr: $(cat "$work/err")"; fail=1
fi

"$lint" "$example/plan.yaml" >&- 2>"$work/err"
rc=$?
if [[ $rc -ne 2 ]]; then echo "closed stdout: exit $rc"; fail=1; fi

# Enough report to fill a pipe: many copies of the example plan.
mkdir "$work/plans"
cp "$example/inventory.yaml" "$work/plans/"
for i in $(seq 1 40); do cp "$example/plan.yaml" "$work/plans/p$i.yaml"; done
"$lint" --explain "$work/plans" 2>"$work/err" | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
if [[ $rc -ne 141 ]]; then echo "| head: expected SIGPIPE (141), got exit $rc"; fail=1; fi
if [[ -s "$work/err" ]]; then echo "| head: stderr not empty: $(head -c 300 "$work/err")"; fail=1; fi

if [[ $fail -eq 0 ]]; then echo "stdout failures: ok"; fi
exit $fail
