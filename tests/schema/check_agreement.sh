#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `schema.agreement`: the published JSON Schema (`capops-lint schema
# --format json-schema`, checked by ajv) and capops-lint's own validation
# give one verdict per document.
#   - tests/schema/agreement/*.yaml: one small plan per kind of value the two
#     could judge apart (numbers, counts and ranges, sizes, durations, dates,
#     enums and enum keys, text, references, ids, required and default
#     fields), valid ones and invalid ones; each says on its second line
#     what it is (`# expect: valid` or `# expect: invalid`), and both
#     validators must say so;
#   - tests/bad-inputs/*.yaml: both validators give the same verdict.
# A document both read is valid to capops-lint when its lint reports no
# error, whatever its rule findings. Only the cases listed in
# known_disagreements.txt may disagree, each with the reason a JSON Schema
# cannot say what capops-lint says (capops-lint's verdict still holds for
# the corpus); a listed case that agrees fails too, so the list stays true.
# A bad input that ajv's YAML reader cannot read is no schema question and
# is left out. Plans are linted against examples/visual-inspection/inventory.yaml.
# Usage: check_agreement.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail

lint=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
"$here/../support/npm_ci.sh" "$src/tests/sarif" || exit 1
source "$here/../support/checks.sh"

"$lint" schema --format json-schema -o "$tmp/capops.schema.json" || { echo "FAIL: capops-lint schema"; exit 1; }

corpus=("$here"/agreement/*.yaml)
bad=("$src"/tests/bad-inputs/*.yaml)
((${#corpus[@]} >= 30)) || fail "the corpus has ${#corpus[@]} documents"

declare -A ajv  # file → valid, invalid or not YAML: one validator run for all
while IFS= read -r line; do
  ajv[${line%%: *}]=$(sed 's/^.*: \(valid\|invalid\|not YAML\)\(: .*\)\{0,1\}$/\1/' <<<"$line")
done < <(node "$here/validate_facts.js" "$tmp/capops.schema.json" "${corpus[@]}" "${bad[@]}" 2>&1)

# capops-lint's verdict on each file: valid, invalid, or no-report when it
# wrote none. Its JSON reports are read by one node run for all the files.
mkdir -p "$tmp/reports"
n=0
for file in "${corpus[@]}" "${bad[@]}"; do
  n=$((n + 1))
  "$lint" --no-config --format json --inventory "$src/examples/visual-inspection/inventory.yaml" \
    "$file" >"$tmp/reports/$n.json" 2>/dev/null
done
declare -A capops
while IFS= read -r line; do
  capops[${line%%: *}]=${line##*: }
done < <(REPORTS="$tmp/reports" node -e '
  const fs = require("fs");
  const files = process.argv.slice(1);  // node -e: no script path before them
  files.forEach((file, i) => {
    let verdict = "no-report";
    try {
      const d = JSON.parse(fs.readFileSync(`${process.env.REPORTS}/${i + 1}.json`, "utf8"));
      verdict = d.errors.length ? "invalid" : "valid";
    } catch (e) {}
    console.log(`${file}: ${verdict}`);
  });' "${corpus[@]}" "${bad[@]}")
capops_verdict() { echo "${capops[$1]:-no-report}"; }

known=$here/known_disagreements.txt
disagree=()
checked=0
for file in "${corpus[@]}" "${bad[@]}"; do
  name=$(basename "$file" .yaml)
  schema=${ajv[$file]:-no verdict}
  expect=
  [[ $file == "$here"/agreement/* ]] && expect=$(sed -n '2s/^# expect: \(valid\|invalid\)$/\1/p' "$file")
  if [[ $file == "$here"/agreement/* && -z $expect ]]; then
    fail "$name: its second line is not \`# expect: valid\` or \`# expect: invalid\`"
    continue
  fi
  [[ -z $expect && $schema == "not YAML" ]] && continue
  capops=$(capops_verdict "$file")
  checked=$((checked + 1))
  [[ $capops == no-report ]] && { fail "$name: capops-lint wrote no JSON report"; continue; }
  [[ -n $expect && $capops != "$expect" ]] && fail "$name: capops-lint says $capops, the case expects $expect"
  [[ $capops == "$schema" ]] && continue
  disagree+=("$name")
  grep -q "^$name: " "$known" || fail "$name: capops-lint says $capops, the JSON Schema says $schema (not in $(basename "$known"))"
done
while IFS= read -r line; do
  name=${line%%:*}
  [[ -z $name || $name == \#* ]] && continue
  [[ " ${disagree[*]} " == *" $name "* ]] || fail "$name is listed in $(basename "$known") but no longer disagrees"
done <"$known"

finish "schema agreement: ${#corpus[@]} corpus documents and the bad inputs, $checked judged by both, the same verdict but for ${#disagree[@]} listed cases"
