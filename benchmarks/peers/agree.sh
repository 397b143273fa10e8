#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The peer of the seed-rule benchmark (seed_rules.js) finds what capops-lint
# finds with the same three rules: over generated corpora with defects (two
# seeds), the same rule and allocation for every finding. A comparison of
# their speed means nothing unless they check the same things.
#
#   benchmarks/peers/agree.sh build/benchmarks/gen_corpus build/engine/capops-lint
set -euo pipefail
gen=${1:?usage: agree.sh GEN_CORPUS CAPOPS_LINT}
lint=${2:?usage: agree.sh GEN_CORPUS CAPOPS_LINT}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v node >/dev/null; then
  echo "skipped: node is not installed (scripts/install-deps installs it)"
  exit 77
fi
"$here/../../tests/support/npm_ci.sh" "$here"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'rules: {enable: [CAP-ALC-001, CAP-SUP-001, CAP-CMP-001]}\n' >"$work/seed.capops.yaml"
status=0
for seed in 1 2; do
  dir=$work/corpus-$seed
  "$gen" --allocations 1000 --pools 100 --seed "$seed" --defects 0.1 -o "$dir" >/dev/null
  node "$here/seed_rules.js" "$dir/plan.yaml" "$dir/inventory.yaml" 2>/dev/null | sort >"$work/peer"
  rc=0
  "$lint" --no-config --config "$work/seed.capops.yaml" --format json --max-repair-lints 0 \
    --inventory "$dir/inventory.yaml" "$dir/plan.yaml" >"$work/report.json" || rc=$?
  if ((rc > 1)); then
    echo "seed $seed: capops-lint exited $rc" >&2
    exit 1
  fi
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const v of r.violations) {
      const a = v.evidence.find((e) => e.name === "a");
      console.log(`${v.rule} ${a ? a.value : "?"}`);
    }' "$work/report.json" | sort >"$work/engine"
  for rule in CAP-ALC-001 CAP-SUP-001 CAP-CMP-001; do
    if ! grep -q "^$rule " "$work/engine"; then
      echo "seed $seed: no $rule finding: the corpus does not exercise the rule" >&2
      status=1
    fi
  done
  if diff -u "$work/engine" "$work/peer" >&2; then
    echo "seed $seed: $(wc -l <"$work/engine") findings, the same in both"
  else
    echo "seed $seed: the peer and capops-lint disagree (- capops-lint, + peer)" >&2
    status=1
  fi
done
exit $status
