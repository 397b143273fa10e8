# What the shell checks share (sourced): a temporary directory `$tmp`
# removed on exit, `fail MESSAGE` to count a failed check and go on,
# `expect WHAT EXPECTED ACTUAL`, and `finish SUMMARY`, which exits 1 after
# any failure, else prints SUMMARY and exits 0.
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
finish() {
  if ((failures)); then
    echo "$failures check(s) failed"
    exit 1
  fi
  echo "$*"
  exit 0
}
