#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest `schema.json-schema`: `capops-lint schema --format json-schema`
# checked by a real JSON Schema validator (ajv, draft 2020-12, from the npm
# packages of tests/sarif/):
#   - every shipped example, every fact fixture of the pack and what
#     `capops-lint init` writes is valid;
#   - a misspelt field, a wrong enum value and a unit-less size are not;
#   - an enum offers one spelling of each member and accepts the others;
#   - a plan of date-times is valid, and a time without its offset is not.
# That the schema and capops-lint's own validation agree, document by
# document, is check_agreement.sh's (CTest `schema.agreement`).
# Usage: check_json_schema.sh CAPOPS_LINT SOURCE_DIR
set -uo pipefail

lint=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
"$here/../support/npm_ci.sh" "$src/tests/sarif" || exit 1
source "$(dirname "$0")/../support/checks.sh"

"$lint" schema --format json-schema -o "$tmp/capops.schema.json" || { echo "FAIL: capops-lint schema"; exit 1; }
validate() { node "$here/validate_facts.js" "$tmp/capops.schema.json" "$@"; }

# Valid: the examples and the pack's fixtures.
mapfile -t shipped < <(cd "$src" && find examples policies -name '*.yaml' ! -path 'examples/ci/*' | sort)
(cd "$src" && validate "${shipped[@]}") >"$tmp/shipped.txt" 2>&1
[[ $(grep -c ': valid$' "$tmp/shipped.txt") -eq ${#shipped[@]} && ${#shipped[@]} -ge 50 ]] ||
  fail "shipped facts the schema rejects: $(grep -v ': valid$' "$tmp/shipped.txt" | head -5)"

# Valid: what `capops-lint init` writes, against the schema it writes beside it.
"$lint" init "$tmp/init" >/dev/null || fail "capops-lint init"
node "$here/validate_facts.js" "$tmp/init/capops.schema.json" "$tmp/init/plan.yaml" "$tmp/init/inventory.yaml" >"$tmp/init.txt" 2>&1
[[ $(grep -c ': valid$' "$tmp/init.txt") -eq 2 ]] || fail "init's files do not pass their schema: $(cat "$tmp/init.txt")"

# Invalid: one mistake each.
inventory() { printf 'apiVersion: capops.dev/v1\nkind: Inventory\naccelerator_types:\n  - {id: l4, model: L4, %s, interconnect: pcie4}\n' "$1"; }
inventory 'memroy: 24GiB' >"$tmp/misspelt.yaml"
inventory 'memory: 24' >"$tmp/unitless.yaml"
inventory 'memory: 24GiB' >"$tmp/enum.yaml"
printf 'pools:\n  - {id: p, accelerator: l4, hosts: 1, gpus_per_host: 4, region: eu, role: lab}\n' >>"$tmp/enum.yaml"
inventory 'memory: 24GiB' >"$tmp/good.yaml"
validate "$tmp"/{misspelt,unitless,enum,good}.yaml >"$tmp/mistakes.txt" 2>&1
grep -q "misspelt.yaml: invalid: .*must NOT have additional properties" "$tmp/mistakes.txt" || fail "a misspelt field passes: $(cat "$tmp/mistakes.txt")"
grep -q "unitless.yaml: invalid: .*/memory must be string" "$tmp/mistakes.txt" || fail "a unit-less size passes: $(cat "$tmp/mistakes.txt")"
grep -q "enum.yaml: invalid: .*/role must be equal to one of the allowed values" "$tmp/mistakes.txt" || fail "a wrong enum value passes: $(cat "$tmp/mistakes.txt")"
grep -q "good.yaml: valid" "$tmp/mistakes.txt" || fail "the same inventory without a mistake fails: $(cat "$tmp/mistakes.txt")"

# Enums: one spelling of each member is offered (an editor completes from
# `enum`), and the other spellings capops reads as the same member pass.
inventory 'memory: 24GiB' >"$tmp/alias.yaml"
printf 'pools:\n  - {id: p, accelerator: l4, hosts: 1, gpus_per_host: 4, region: eu, role: production_replacement}\n' >>"$tmp/alias.yaml"
validate "$tmp/alias.yaml" | grep -q "alias.yaml: valid" || fail "an alias capops reads is refused: $(validate "$tmp/alias.yaml")"
twice=$(node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const out = [];
  (function walk(n) {
    if (Array.isArray(n)) return n.forEach(walk);
    if (!n || typeof n !== "object") return;
    if (Array.isArray(n.enum)) {
      const seen = n.enum.map(v => String(v).replace(/_/g, "-"));
      if (new Set(seen).size !== seen.length) out.push(n.enum.join(","));
    }
    Object.values(n).forEach(walk);
  })(s);
  console.log(out.join("; "));' "$tmp/capops.schema.json")
[[ -z $twice ]] || fail "an enum offers one member in two spellings: $twice"
# Editors show the Markdown descriptions and the error messages: each a string.
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const memory = s.$defs.AcceleratorType.properties.memory;
  if (!/`80GiB`/.test(memory.errorMessage) || !memory.markdownDescription) process.exit(1);' \
  "$tmp/capops.schema.json" || fail "a size has no error message or Markdown description"

# Dates: plain dates and date-times with their offsets pass; a time without
# its offset, or with one of a whole day, does not.
hours=$src/tests/golden/hour-windows/plan.yaml
sed 's/2027-04-20T09:00+02:00/2027-04-20T09:00/' "$hours" >"$tmp/no-offset.yaml"
sed 's/2027-04-20T09:00+02:00/2027-04-20T09:00:00+24:00/' "$hours" >"$tmp/day-offset.yaml"
validate "$hours" "$tmp"/{no-offset,day-offset}.yaml >"$tmp/dates.txt" 2>&1
grep -q "hour-windows/plan.yaml: valid$" "$tmp/dates.txt" || fail "date-times fail the schema: $(cat "$tmp/dates.txt")"
grep -q "no-offset.yaml: invalid: .*/start must match pattern" "$tmp/dates.txt" || fail "a time without its offset passes: $(cat "$tmp/dates.txt")"
grep -q "day-offset.yaml: invalid: .*/start must match" "$tmp/dates.txt" || fail "an offset of a day passes: $(cat "$tmp/dates.txt")"

finish "schema: ${#shipped[@]} shipped fact files valid, 3 mistakes caught, aliases accepted and not offered, date-times checked"
