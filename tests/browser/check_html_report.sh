#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The HTML report in a real browser: Debian's chromium renders the report of
# the scenario example headless, runs its script, and dumps the DOM, which is
# then checked with libxml2's HTML parser (xmllint):
#   - one chart per pool the plan allocates from, and a line per pool in
#     the overview;
#   - a card for every finding the short report lists, grouped by rule with
#     the group's count, and a red mark on a chart for every card placed on
#     a pool, linking to it;
#   - the mark of the tuning run's missing supply on train-eu, at the
#     interval the finding names, in the findings' lane above the plot;
#   - every date a card gives is the interval of a mark it links to;
#   - the script ran (`data-ready`) and wrote nothing to the console, and
#     the only <script> is the report's own, which does no layout work;
#   - on a copy with report_geometry.js added: no two labels of a chart
#     overlap, none reaches past its chart, nothing is wider than the
#     1280 px window;
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

grep -q getBoundingClientRect "$tmp/report.html" && fail "the report's own script measures the layout"
if render "$tmp/report.html"; then
  expect "script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "script elements" 1 "$(xpath 'count(//script)')"
  expect "finding cards" "$findings" "$(xpath 'count(//article[contains(@class, "card")])')"
  expect "cards outside a rule's group" 0 "$(xpath 'count(//article[not(parent::details[@class="rule-group"])])')"
  expect "groups whose count is not their cards'" 0 \
    "$(xpath 'count(//details[@class="rule-group"][count(article) != .//span[@class="count"]/@data-total])')"
  expect "shown" "$findings shown" "$(xpath 'string(//span[@class="shown"])')"

  pools=$(grep -o 'pool: [^,}]*' "$example/plan.yaml" | sed 's/pool: //' | sort -u)
  expect "charts" "$(wc -l <<<"$pools")" "$(xpath 'count(//details[@class="chart"])')"
  expect "overview lines" "$(wc -l <<<"$pools")" "$(xpath 'count(//table[@class="overview"]/tbody/tr)')"
  while read -r pool; do
    expect "charts of pool $pool" 1 "$(xpath "count(//details[@class=\"chart\"][summary/b=\"$pool\"])")"
    bands=$(xpath "count(//details[summary/b=\"$pool\"]//*[contains(@class, \"band\")])")
    [[ $bands -ge 1 ]] || fail "pool $pool: no allocation drawn"
  done <<<"$pools"
  # Every bar of the lane is above the plot: no finding drawn over the allocations.
  expect "marks below the lane" 0 "$(xpath 'count(//a[@class="mark"]/*[local-name()="rect"][@y > 30])')"
  # A card's dates are those of the marks it links to.
  while read -r card; do
    [[ -n $card ]] || continue
    while read -r link; do
      [[ -n $link ]] || continue
      when=$(xpath "string(//article[@id=\"$card\"]//p[@class=\"when\"][a/@href=\"#$link\"])" | sed 's/ (.*//')
      title=$(xpath "string(//a[@id=\"$link\"]/title)")
      [[ $title == *"$when"* ]] || fail "card $card says $when, its mark $link says: $title"
    done < <(xpath "//article[@id=\"$card\"]//p[@class=\"when\"]/a/@href" | sed 's/ href="#\([^"]*\)"/\1\n/g')
  done < <(xpath '//article[.//p[@class="when"]]/@id' | sed 's/ id="\([^"]*\)"/\1\n/g')

  placed=$(xpath 'count(//article[@data-pool!=""])')
  [[ $placed -ge 3 ]] || fail "only $placed cards are placed on a pool"
  expect "placed cards without a mark" 0 "$(xpath 'count(//article[@data-pool!=""][not(@id = //a[@class="mark"]/@data-card)])')"
  expect "marks without a card" 0 "$(xpath 'count(//a[@class="mark"][not(@data-card = //article/@id)])')"
  tune=$(xpath 'count(//details[summary/b="train-eu"]//a[@class="mark"][contains(title, "CAP-SUP-005") and contains(title, "a-tune") and contains(title, "from 2027-04-19 to 2027-04-22")])')
  expect "train-eu marks of a-tune's missing supply from 2027-04-19 to 2027-04-22" 1 "$tune"
  expect "CAP-GOV-001 cards" 1 "$(xpath 'count(//article[.//code="CAP-GOV-001"])')"
fi
check_geometry "$tmp/report.html" "the scenario's report"

# The rule filter set to CAP-SUP-005, on a copy with a script that picks it:
# its cards shown, its group alone shown with its count, and the charts'
# labels down to the findings shown (a-tune's cluster of two relabelled).
sed 's|</body></html>$||' "$tmp/report.html" >"$tmp/filtered.html"
cat >>"$tmp/filtered.html" <<'EOF'
<script>
(function () {
  var select = document.querySelector('select[name="rule"]');
  [].forEach.call(select.options, function (o) { if (o.textContent === 'CAP-SUP-005') select.value = o.value; });
  select.dispatchEvent(new Event('change'));
  var labels = [].filter.call(document.querySelectorAll('a.mark-label'), function (l) { return l.style.display !== 'none'; });
  document.body.dataset.labels = labels.map(function (l) { return l.querySelector('text').textContent; }).join(',');
})();
</script>
</body></html>
EOF
sup005=$(xpath 'count(//article[.//code="CAP-SUP-005"])')
[[ $sup005 -ge 2 ]] || fail "only $sup005 CAP-SUP-005 cards"
if render "$tmp/filtered.html"; then
  expect "filtered: cards shown" "$sup005" "$(xpath 'count(//article[not(@hidden)])')"
  expect "filtered: count" "$sup005 shown" "$(xpath 'string(//span[@class="shown"])')"
  expect "filtered: groups shown" 1 "$(xpath 'count(//details[@class="rule-group"][not(@hidden)])')"
  expect "filtered: the group's count" "$sup005 findings" \
    "$(xpath 'string(//details[@class="rule-group"][not(@hidden)]//span[@class="count"])')"
  expect "filtered: the labels shown, one per finding shown" \
    "$(xpath '//article[not(@hidden)]//span[@class="fid"]/text()' | sort | tr '\n' ' ')" \
    "$(xpath 'string(//body/@data-labels)' | tr ',' '\n' | sort | tr '\n' ' ')"
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
  expect "hostile: svg elements (its overview line and its chart)" 2 "$(xpath 'count(//svg)')"
  expect "hostile: injected script ran" "" "$(xpath 'string(//body/@data-pwned)')"
fi

finish "the HTML report renders in chromium as expected"
