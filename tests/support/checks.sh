# SPDX-License-Identifier: Apache-2.0
# What the shell checks share (sourced): a temporary directory `$tmp`
# removed on exit, `fail MESSAGE` to count a failed check and go on,
# `expect WHAT EXPECTED ACTUAL`, `lint_report ARGS…` to run capops-lint
# (`$lint`) for a report, and `finish SUMMARY`, which exits 1 after any
# failure, else prints SUMMARY and exits 0.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect() {  # expect WHAT EXPECTED ACTUAL
  [[ $2 == "$3" ]] || fail "$1: expected $2, got ${3:-nothing}"
}
lint_report() {  # exit 0 or 1 are reports; anything else is a failure of the tool, which ends the check
  local code=0
  "$lint" "$@" || code=$?
  if ((code > 1)); then
    fail "capops-lint $* exited $code"
    finish
  fi
}
finish() {
  if ((failures)); then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "$*"
  exit 0
}
