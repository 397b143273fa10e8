#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The first repair of a finding drawn as a ghost on the HTML report's chart,
# in Debian's chromium (headless), the DOM checked with xmllint:
#   - CAP-SUP-005's movable fixture: `a-early` moved to 2027-04-23 is a
#     ghost titled with the repair, whose left edge is where `a-first`'s
#     bar ends (a-first holds r-apr until 2027-04-23), in the page as
#     written and as chromium lays it out; dashed and translucent as laid
#     out; linked from its card and in the legend; hidden with its finding
#     by the rule filter;
#   - the ranked fixture, whose first repair cites a record: the repair is
#     on the card, and no ghost is drawn, nor its legend entry.
# Usage: check_ghost_bars.sh CAPOPS_LINT SOURCE_DIR. Exit 77 (skipped) without chromium.
set -uo pipefail

lint=$1
src=$2
source "$(dirname "$0")/browser.sh"

fixtures=$src/policies/capops-ai/fixtures/CAP-SUP-005
lint_report --no-config --format html --max-repair-lints 16 -o "$tmp/movable.html" "$fixtures/movable.yaml"
lint_report --no-config --format html --max-repair-lints 16 -o "$tmp/ranked.html" "$fixtures/ranked.yaml"

# A copy that opens the charts, records where chromium lays out the ghost
# and a-first's bar and how the ghost is painted, then filters by rule.
sed 's|</body></html>$||' "$tmp/movable.html" >"$tmp/laid-out.html"
cat >>"$tmp/laid-out.html" <<'EOF'
<script>
(function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var b = document.body.dataset;
  var ghost = [].find.call(document.querySelectorAll('a.ghost'), function (g) {
    return g.querySelector('title').textContent.indexOf('move `a-early`') === 0;
  });
  var band = [].find.call(document.querySelectorAll('rect.band'), function (r) {
    return r.querySelector('title').textContent.indexOf('a-first ') === 0;
  });
  if (!ghost || !band) return;
  var g = ghost.querySelector('rect'), style = getComputedStyle(g);
  var box = g.getBoundingClientRect(), bar = band.getBoundingClientRect();
  b.ghostWidth = box.width > 1 ? 'some' : 'none';
  b.ghostAtBandEnd = Math.abs(box.left - bar.right) <= 1 ? 'yes' : box.left + ' vs ' + bar.right;
  b.ghostDashed = style.strokeDasharray !== 'none' ? 'yes' : 'no';
  var fill = style.fill.match(/rgba\(.*,\s*([\d.]+)\)/);
  b.ghostTranslucent = fill && Number(fill[1]) < 0.5 ? 'yes' : style.fill;
  var select = document.querySelector('select[name="rule"]');
  function only(rule) {
    [].forEach.call(select.options, function (o) { if (o.textContent === rule) select.value = o.value; });
    select.dispatchEvent(new Event('change'));
    return ghost.style.display === 'none' ? 'hidden' : 'shown';
  }
  b.ghostOtherRule = only('CAP-FIN-003');
  b.ghostOwnRule = only('CAP-SUP-005');
})();
</script>
</body></html>
EOF

title="move \`a-early\` to start 2027-04-23"
if render "$tmp/movable.html"; then
  expect "movable: script ran" 1 "$(xpath 'string(//body/@data-ready)')"
  ghost="//details[summary/b=\"train-eu\"]//a[@class=\"ghost\"][starts-with(*[local-name()=\"rect\"]/title, \"$title\")]"
  expect "movable: ghosts of a-early's move" 1 "$(xpath "count($ghost)")"
  expect "movable: ghosts drawn (a-early and a-block)" 2 "$(xpath 'count(//a[@class="ghost"])')"
  x=$(xpath "string($ghost/*[local-name()=\"rect\"]/@x)")
  band='//*[local-name()="rect"][contains(@class, "band")][starts-with(title, "a-first ")]'
  end=$(xpath "$band/@x + $band/@width")
  [[ -n $x && -n $end ]] || fail "movable: no ghost or no a-first bar to compare (x=$x, end=$end)"
  awk -v x="$x" -v e="$end" 'BEGIN { d = x - e; exit !(d < 0.11 && d > -0.11) }' ||
    fail "movable: the ghost starts at x=$x, a-first's bar ends at $end"
  card=$(xpath "string($ghost/@data-card)")
  expect "movable: the ghost's finding is CAP-SUP-005" 1 \
    "$(xpath "count(//article[@id=\"$card\"][.//code=\"CAP-SUP-005\"])")"
  id=$(xpath "string($ghost/@id)")
  expect "movable: the card's first repair links to its ghost" 1 \
    "$(xpath "count(//article[@id=\"$card\"]//p[@class=\"repair\"][1]/a[@href=\"#$id\"])")"
  expect "movable: legend entries for the ghost" 1 "$(xpath 'count(//p[@class="legend"]/span[@class="key ghost"])')"
fi
if render "$tmp/laid-out.html"; then
  expect "laid out: the ghost has a width" some "$(body_attr data-ghost-width)"
  expect "laid out: the ghost starts where a-first's bar ends" yes "$(body_attr data-ghost-at-band-end)"
  expect "laid out: the ghost is dashed" yes "$(body_attr data-ghost-dashed)"
  expect "laid out: the ghost is translucent" yes "$(body_attr data-ghost-translucent)"
  expect "laid out: the ghost under another rule's filter" hidden "$(body_attr data-ghost-other-rule)"
  expect "laid out: the ghost under its own rule's filter" shown "$(body_attr data-ghost-own-rule)"
fi
if render "$tmp/ranked.html"; then
  expect "ranked: the citation on the card" 1 \
    "$(xpath 'count(//article[.//code="CAP-SUP-005"]//p[@class="repair"][starts-with(., "repair cite `r-spare`")])')"
  expect "ranked: ghosts" 0 "$(xpath 'count(//*[contains(@class, "ghost")])')"
fi

finish "the first repairs are drawn as ghosts in chromium as expected"
