#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The rule catalogue and the schema reference in a real browser: Debian's
# chromium renders `capops-lint doc`'s pages headless, runs their script and
# dumps the DOM, which is checked with xmllint:
#   - every rule of the pack has its section, under its area, and the script
#     ran without console output;
#   - nothing is wider than the 1280 px window and no CPL source or table
#     cell scrolls sideways (`data-wide`, `data-scrolled`);
#   - the search box, prefilled from `?q=`, shows exactly the rules whose
#     text holds every word: by id, by a word of the rationale, by a field
#     read (the same rules the schema page lists as its readers), none for
#     nonsense;
#   - the schema page renders the same way, a row per field;
#   - the shared fixtures page renders the same way, and every link from a
#     rule to a fixture lands on that fixture's section.
# Usage: check_doc_site.sh CAPOPS_LINT SOURCE_DIR. Exit 77 (skipped) without chromium.
set -uo pipefail

lint=$1
src=$2
source "$(dirname "$0")/browser.sh"

"$lint" doc -o "$tmp/site" "$src/policies/capops-ai" >/dev/null
expect "exit code of doc" 0 $?
rules=$("$lint" rules --format json "$src/policies/capops-ai" | grep -c '"id": "CAP-')
[[ $rules -ge 37 ]] || fail "the pack lists only $rules rules"

visible='//section[@class="rule"][not(@hidden)]'
if render "$tmp/site/index.html"; then
  expect "script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "elements wider than 1280 px" 0 "$(xpath 'string(//body/@data-wide)')"
  expect "code or cells scrolled sideways" 0 "$(xpath 'string(//body/@data-scrolled)')"
  expect "script elements" 1 "$(xpath 'count(//script)')"
  expect "rule sections" "$rules" "$(xpath 'count(//section[@class="rule"])')"
  expect "rules shown without a search" "$rules" "$(xpath "count($visible)")"
  expect "CAP-ALC-001 in the allocation area" 1 \
    "$(xpath 'count(//section[@id="area-allocation"]/section[@id="CAP-ALC-001"])')"
fi

# search QUERY EXPECTED_IDS: the rules shown for ?q=QUERY, in page order.
search() {
  render "$tmp/site/index.html?q=$1" || return
  local shown
  shown=$(xpath "$visible/@id" | sed 's/ id="\([^"]*\)"/\1\n/g' | grep . | tr '\n' ' ')
  expect "rules shown for ?q=$1" "$2" "${shown% }"
  expect "count the page gives for ?q=$1" "$(wc -w <<<"$2")" "$(xpath 'string(//body/@data-shown)')"
  expect "nav entries shown for ?q=$1" "$(wc -w <<<"$2")" "$(xpath 'count(//nav//li[@data-rule][not(@hidden)])')"
}

search "cap-alc-004" "CAP-ALC-004"
# An id finds its rule and the rules whose text refers to it (CAP-ALC-010's doc does).
search "cap-alc-001" "CAP-ALC-001 CAP-ALC-010"
search "REPLACEMENT+capacity+recovery" "CAP-ALC-001"
search "zzzz-no-such-rule" ""
# A field: the rules the schema page says read it.
render "$tmp/site/schema.html" && {
  expect "schema: script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "schema: elements wider than 1280 px" 0 "$(xpath 'string(//body/@data-wide)')"
  expect "schema: cells scrolled sideways" 0 "$(xpath 'string(//body/@data-scrolled)')"
  [[ $(xpath 'count(//tr[@id])') -ge 80 ]] || fail "schema: fewer than 80 field rows"
  readers=$(xpath '//tr[@id="Pool.hosts"]/td[5]//a/text()' | tr '\n' ' ')
  [[ -n $readers ]] || fail "schema: no rule reads Pool.hosts"
  search "pool.hosts" "${readers% }"
}

# The shared fixtures: each once, in a section the rules' links land on.
render "$tmp/site/fixtures.html" && {
  expect "fixtures: script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  expect "fixtures: elements wider than 1280 px" 0 "$(xpath 'string(//body/@data-wide)')"
  expect "fixtures: code scrolled sideways" 0 "$(xpath 'string(//body/@data-scrolled)')"
  anchors=$(xpath '//section[@class="fixture"]/@id' | sed 's/ id="\([^"]*\)"/\1\n/g' | grep . | sort)
  [[ $(wc -l <<<"$anchors") -ge 10 ]] || fail "fixtures: fewer than 10 shared fixtures"
  expect "fixtures: the scenario's plan" 1 \
    "$(xpath 'count(//section[@id="fixture-capops-ai-scenario-plan.yaml"]//pre)')"
  render "$tmp/site/index.html" && {
    targets=$(xpath '//a[starts-with(@href, "fixtures.html#")]/@href' |
      sed 's/ href="fixtures.html#\([^"]*\)"/\1\n/g' | grep . | sort -u)
    [[ -n $targets ]] || fail "no rule links to a shared fixture"
    missing=$(comm -23 <(echo "$targets") <(echo "$anchors"))
    expect "links to fixtures without their section" "" "$missing"
  }
}

finish "the rule catalogue, the schema reference and the shared fixtures render in chromium as expected"
