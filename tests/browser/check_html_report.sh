#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HTML report in a real browser: Debian's chromium renders the report of
# the scenario example headless, runs its script, and dumps the DOM, which is
# then checked with libxml2's HTML parser (xmllint):
#   - one chart per pool the plan allocates from;
#   - a card for every finding the short report lists, and a red mark on a
#     chart for every card placed on a pool, linking to it;
#   - the mark of the tuning run's missing supply on train-eu, at the
#     interval the finding names;
#   - the script ran (`data-ready`) and wrote nothing to the console,
#     nothing is wider than the 1280 px window (`data-wide`), and the only
#     <script> is the report's own;
# then the same for a plan that puts `<script>` and `<img>` in its ids, fact
# values and file name.
# Usage: check_html_report.sh CAPOPS_LINT SOURCE_DIR. Exit 77 (skipped) without chromium.
set -uo pipefail

lint=$1
src=$2
source "$(dirname "$0")/browser.sh"

example=$src/examples/visual-inspection
"$lint" --no-config --format html -o "$tmp/report.html" "$example/plan.yaml"
expect "exit code of the HTML lint" 1 $?
"$lint" --no-config --format short "$example/plan.yaml" >"$tmp/short.txt"
findings=$(grep -c . "$tmp/short.txt")

if render "$tmp/report.html"; then
  expect "script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "elements wider than 1280 px" 0 "$(xpath 'string(//body/@data-wide)')"
  expect "script elements" 1 "$(xpath 'count(//script)')"
  expect "finding cards" "$findings" "$(xpath 'count(//article[contains(@class, "card")])')"

  pools=$(grep -o 'pool: [^,}]*' "$example/plan.yaml" | sed 's/pool: //' | sort -u)
  expect "charts" "$(wc -l <<<"$pools")" "$(xpath 'count(//figure[@class="chart"])')"
  while read -r pool; do
    expect "charts of pool $pool" 1 "$(xpath "count(//figure[@class=\"chart\"][figcaption/b=\"$pool\"])")"
    bands=$(xpath "count(//figure[figcaption/b=\"$pool\"]//*[contains(@class, \"band\")])")
    [[ $bands -ge 1 ]] || fail "pool $pool: no allocation drawn"
  done <<<"$pools"

  placed=$(xpath 'count(//article[@data-pool!=""])')
  [[ $placed -ge 3 ]] || fail "only $placed cards are placed on a pool"
  expect "placed cards without a mark" 0 "$(xpath 'count(//article[@data-pool!=""][not(@id = //a[@class="mark"]/@data-card)])')"
  expect "marks without a card" 0 "$(xpath 'count(//a[@class="mark"][not(@data-card = //article/@id)])')"
  tune=$(xpath 'count(//figure[figcaption/b="train-eu"]//a[@class="mark"][contains(title, "CAP-SUP-005") and contains(title, "a-tune") and contains(title, "from 2027-04-19 to 2027-04-22")])')
  expect "train-eu marks of a-tune's missing supply from 2027-04-19 to 2027-04-22" 1 "$tune"
  expect "CAP-GOV-001 cards" 1 "$(xpath 'count(//article[.//code="CAP-GOV-001"])')"
fi

# Hostile ids, values and file name.
cat >"$tmp/inventory.yaml" <<'EOF'
apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100-80, model: H100-SXM, memory: 80GiB, interconnect: nvlink4}
pools:
  - {id: "<script>document.body.dataset.pwned=1</script>", accelerator: h100-80, hosts: 1, gpus_per_host: 4, region: "<img src=x onerror=document.body.dataset.pwned=2>", role: research}
EOF
hostile="$tmp/<script>alert(3)<img src=x>.yaml"
cat >"$hostile" <<'EOF'
apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: "<script>alert(2)</script>", owner: me}
demands:
  - {id: "<script>d</script>", slice: exploration, gpus: 8, window: {start: 2027-04-12, end: 2027-04-20}}
allocations:
  - {id: "<svg onload=alert(4)>", demand: "<script>d</script>", pool: "<script>document.body.dataset.pwned=1</script>", gpus: 8}
EOF
"$lint" --no-config --format html -o "$tmp/hostile.html" "$hostile"
expect "exit code of the hostile lint" 1 $?
if render "$tmp/hostile.html"; then
  expect "hostile: script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "hostile: script elements" 1 "$(xpath 'count(//script)')"
  expect "hostile: img elements" 0 "$(xpath 'count(//img)')"
  expect "hostile: svg elements" 1 "$(xpath 'count(//svg)')"
  expect "hostile: injected script ran" "" "$(xpath 'string(//body/@data-pwned)')"
fi

finish "the HTML report renders in chromium as expected"
