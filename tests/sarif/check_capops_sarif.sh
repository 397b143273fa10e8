#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `sarif.validate`: capops-lint's SARIF for the examples (violations,
# a waived finding, fact-file errors) passes tests/sarif/validate.sh; with
# the catalogue's address (`--rules-url`, as code scanning setups give it)
# it passes with no warning at all, with `--explain`'s code flows too, and
# with `fixes`: the did-you-means of fact-file errors and the repairs
# computed for capacity findings, as artifact changes; and with an
# acquisition advised, which is no fix (a SARIF fix must change a file)
# but the result's `properties.acquisition` and a `help:` in its message.
#
#   tests/sarif/check_capops_sarif.sh build/engine/capops-lint   (from the repository root)
set -euo pipefail
lint="$1"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../support/checks.sh"
out=$tmp
run() { lint_report "$@"; }
run --no-config --format sarif --output "$out/violations.sarif" examples/visual-inspection/plan.yaml
run --config examples/ci/.capops.yaml --format sarif --output "$out/waived.sarif"
run --no-config --format sarif --output "$out/errors.sarif" tests/golden/plan-schema-errors/plan.yaml
run --no-config --format sarif --output "$out/repairs.sarif" policies/capops-ai/fixtures/CAP-SUP-005/repairable.yaml
run --no-config --max-repair-lints 16 --format sarif --output "$out/advice.sarif" \
  policies/capops-ai/fixtures/CAP-SUP-005/acquire.yaml
grep -q '"acquisition"' "$out/advice.sarif" || fail "advice.sarif: no acquisition advised"
grep -q '"artifactChanges"' "$out/advice.sarif" && fail "advice.sarif: advice given as a fix"
for fixed in errors repairs; do
  grep -q '"artifactChanges"' "$out/$fixed.sarif" || fail "$fixed.sarif: no fixes"
  grep -q '"deletedRegion"' "$out/$fixed.sarif" || fail "$fixed.sarif: no deleted region"
  grep -q '"insertedContent"' "$out/$fixed.sarif" || fail "$fixed.sarif: no inserted content"
done
"$here/validate.sh" "$out"/*.sarif
mkdir "$out/strict"
run --config examples/ci/.capops.yaml --rules-url https://example.org/capops/index.html \
  --format sarif --output "$out/strict/published.sarif"
# With --explain, each result carries its clause trace as a code flow.
run --config examples/ci/.capops.yaml --rules-url https://example.org/capops/index.html --explain \
  --format sarif --output "$out/strict/explained.sarif"
grep -q '"codeFlows"' "$out/strict/explained.sarif"
run --no-config --rules-url https://example.org/capops/index.html --format sarif \
  --output "$out/strict/repairs.sarif" policies/capops-ai/fixtures/CAP-SUP-005/repairable.yaml
run --no-config --rules-url https://example.org/capops/index.html --max-repair-lints 16 \
  --format sarif --output "$out/strict/advice.sarif" policies/capops-ai/fixtures/CAP-SUP-005/acquire.yaml
"$here/validate.sh" --no-warnings "$out/strict/published.sarif" "$out/strict/explained.sarif" \
  "$out/strict/repairs.sarif" "$out/strict/advice.sarif"
((failures == 0)) || finish
echo "sarif: $(find "$out" -name '*.sarif' | wc -l) files valid"
