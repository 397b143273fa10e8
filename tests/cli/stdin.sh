#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `capops-lint -` as the shell gives it standard input:
#   - closed (<&-) or a directory (< /): exit 2, saying so, nothing read;
#   - a pipe past the file size limit (20 MB of /dev/zero, limit 16 MiB):
#     refused as a file would be (exit 1, naming --max-file-size), after
#     reading one byte past the limit, not the whole stream;
#   - a pipe from a plan, and a regular file as stdin, lint as the file does.
# Usage: stdin.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail
lint=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../support/checks.sh"
example=$src/examples/visual-inspection
cd "$tmp" || exit 1

"$lint" --no-config - <&- >"$tmp/out" 2>"$tmp/err"
expect "exit code, stdin closed" 2 $?
grep -q "error: standard input is closed" "$tmp/err" || fail "stdin closed: $(cat "$tmp/err")"

"$lint" --no-config - </ >"$tmp/out" 2>"$tmp/err"
expect "exit code, stdin a directory" 2 $?
grep -q "error: standard input is a directory" "$tmp/err" || fail "stdin a directory: $(cat "$tmp/err")"

head -c 20000000 /dev/zero | "$lint" --no-config - >"$tmp/out" 2>"$tmp/err"
expect "exit code, 20 MB on stdin" 1 "${PIPESTATUS[1]}"
grep -q "file is larger than 16777216 bytes" "$tmp/out" || fail "20 MB on stdin: $(head -c 300 "$tmp/out")"
grep -q -- "--> <stdin>:1:1" "$tmp/out" || fail "20 MB on stdin is not located at <stdin>"

"$lint" --no-config --format short "$example/plan.yaml" >"$tmp/file.out"
cat "$example/plan.yaml" | "$lint" --no-config --format short --stdin-filename "$example/plan.yaml" - >"$tmp/pipe.out"
expect "exit code, a plan piped" 1 "${PIPESTATUS[1]}"
cmp -s "$tmp/file.out" "$tmp/pipe.out" || fail "a piped plan is not linted as its file: $(diff "$tmp/file.out" "$tmp/pipe.out" | head -5)"
"$lint" --no-config --format short --stdin-filename "$example/plan.yaml" - <"$example/plan.yaml" >"$tmp/redirect.out"
cmp -s "$tmp/file.out" "$tmp/redirect.out" || fail "a plan redirected from its file is not linted as the file"

finish "stdin: closed, a directory, past the limit, piped and redirected"
