#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The capops-lint steps of examples/ci/github-workflow.yml, run as written
# from a checkout-shaped directory (a copy of examples/ and policies/, the
# binary as build/engine/capops-lint):
#   - a step with `--fail-on never` exits 0, any other exits 0 or 1 (never 2);
#   - every file the upload steps name (`sarif_file:`, the artifact's
#     `path:` list) was written by a step before it: the SARIF is a SARIF
#     log, the HTML report has its charts and finding cards.
# Usage: check_workflow.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail

lint=$1
src=$2
workflow=$src/examples/ci/github-workflow.yml
source "$(dirname "$0")/../support/checks.sh"
cp -r "$src/examples" "$src/policies" "$tmp/"  # copies: the config's paths may not leave the repository
mkdir -p "$tmp/build/engine"
ln -s "$lint" "$tmp/build/engine/capops-lint"
cd "$tmp" || exit 1
mkdir .git  # the repository root: the config's paths stay inside it

steps=0
while read -r command; do
  steps=$((steps + 1))
  # The workflow's commands are plain words: no quoting to interpret.
  read -ra words <<<"$command"
  "${words[@]}" >"step-$steps.out" 2>"step-$steps.err"
  rc=$?
  if [[ " $command " == *" --fail-on never "* ]]; then
    [[ $rc -eq 0 ]] || fail "\`$command\` exited $rc with --fail-on never: $(cat "step-$steps.err")"
  elif [[ $rc -ne 0 && $rc -ne 1 ]]; then
    fail "\`$command\` exited $rc: $(cat "step-$steps.err")"
  fi
done < <(sed -n 's/^ *run: \(build\/engine\/capops-lint .*\)$/\1/p' "$workflow")
[[ $steps -ge 3 ]] || fail "only $steps capops-lint steps found in the workflow"

# The files the upload steps name: `sarif_file: F` and the lines of `path: |`.
uploads=$({ sed -n 's/^ *sarif_file: *//p' "$workflow"
          awk '/^ *path: \|/ { on = 1; next } on && /^ *[A-Za-z0-9_.-]+$/ { print $1; next } { on = 0 }' "$workflow"; } |
          sort -u)
[[ $(wc -w <<<"$uploads") -ge 2 ]] || fail "the workflow uploads only: $uploads"
for f in $uploads; do
  [[ -s $f ]] || { fail "the workflow uploads $f, which no step wrote"; continue; }
  case $f in
    *.sarif) grep -q '"version": "2.1.0"' "$f" || fail "$f is not a SARIF 2.1.0 log" ;;
    *.html)
      grep -q '<details class="chart"' "$f" || fail "$f has no capacity chart"
      grep -q '<article class="card' "$f" || fail "$f has no finding card" ;;
  esac
done

finish "the workflow's $steps capops-lint steps run and write what it uploads: $(echo $uploads)"
