// SPDX-License-Identifier: Apache-2.0
// The HTML report's stylesheet and script, written inline into every page
// (internal to engine/report): no file, font or library is fetched.
#pragma once

namespace capops::report {

inline constexpr const char* kHtmlStyle = R"css(
:root { --error: #c0262d; --warning: #b36b00; --info: #2563a8; --line: #d0d4da; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0 16px 40px; max-width: 1200px; color: #1c1f24; }
h1 { font-size: 22px; margin: 18px 0 6px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 15px; margin: 0 0 6px; overflow-wrap: anywhere; }
code, pre { font: 12.5px/1.4 ui-monospace, monospace; }
pre { background: #f5f6f8; padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.meta dt { color: #5a6270; } .meta dd { margin: 0; overflow-wrap: anywhere; }
.counts .sev-error { color: var(--error); font-weight: 600; }
.counts .sev-warning { color: var(--warning); font-weight: 600; }
.counts .sev-info { color: var(--info); font-weight: 600; }
.filters { position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid var(--line);
  display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; z-index: 1; }
.filters select { max-width: 220px; }
.chart { margin: 8px 0; }
.chart > summary, .strip > summary, .rule-group > summary { font-size: 13px; color: #3a404a; overflow-wrap: anywhere; cursor: pointer; padding: 2px 0; }
.note { color: #4a515c; font-size: 13px; }
.overview, .summary { border-collapse: collapse; font-size: 12.5px; width: 100%; }
.overview td, .overview th, .summary td, .summary th { border-bottom: 1px solid var(--line); padding: 1px 8px; text-align: left; vertical-align: middle; overflow-wrap: anywhere; }
.overview .num { text-align: right; }
.overview .over { color: var(--error); font-weight: 700; }
.spark { width: 240px; height: 30px; display: block; }
.spark .usage { stroke-width: 1; } .spark .capacity { stroke-width: 1; stroke: #9aa1ab; }
.spark .tick { fill: var(--error); }
.n { font-weight: 600; } .n.sev-error { color: var(--error); } .n.sev-warning { color: var(--warning); }
.n.sev-info { color: var(--info); } .n.sev-waived, .n.none { color: #8a919b; font-weight: 400; }
.rule-group { margin: 6px 0; } .rule-group > summary code { font-weight: 700; }
.chart-svg { width: 100%; height: auto; display: block; border: 1px solid var(--line); background: #fff; }
.axis line { stroke: #9aa1ab; stroke-width: 1; } .axis text, .capacity-label { font-size: 11px; fill: #4a515c; }
.band { stroke: #fff; stroke-width: 0.6; } .band.alternative { opacity: 0.45; }
.slice-exploration { fill: #7cb7e8; background: #7cb7e8; } .slice-training { fill: #4f6fd1; background: #4f6fd1; }
.slice-tuning { fill: #9a7ad6; background: #9a7ad6; } .slice-inference { fill: #3fa66b; background: #3fa66b; }
.slice-other { fill: #a0a6ae; background: #a0a6ae; }
.run-label { font-size: 12px; fill: #1c1f24; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.business-end { stroke: var(--error); stroke-width: 2; stroke-dasharray: 3 3; }
.strip { margin: 8px 0; }
.strip-svg { width: 100%; height: auto; display: block; border: 1px solid var(--line); }
.usage { fill: none; stroke: #1c1f24; stroke-width: 1.2; }
.capacity { stroke: #1c1f24; stroke-width: 2; }
.floor { fill: none; stroke: #e07b00; stroke-width: 2; stroke-dasharray: 6 4; }
.floor-label { font-size: 11px; fill: #a85a00; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.supply { fill: rgba(63, 166, 107, 0.16); stroke: none; }
.supply-edge { fill: none; stroke: #17703f; stroke-width: 1.6; stroke-dasharray: 2 2; pointer-events: none; }
.run-label.inside { fill: #fff; stroke: none; }
.mark rect { fill: rgba(200, 30, 40, 0.45); }
.mark rect.sev-warning { fill: rgba(179, 107, 0, 0.5); } .mark rect.sev-info { fill: rgba(37, 99, 168, 0.45); }
.mark rect.sev-waived { fill: rgba(120, 126, 135, 0.35); }
.mark:hover rect, .mark:focus rect { fill: var(--error); }
.mark-label text { font-size: 11px; font-weight: 700; fill: var(--error); }
.lane-rule { stroke: var(--line); }
.legend { font-size: 12px; color: #4a515c; }
.key { display: inline-block; width: 14px; height: 10px; margin: 0 4px 0 10px; vertical-align: middle; }
.key.capacity { background: #1c1f24; height: 3px; } .key.floor { border-top: 3px dashed #e07b00; height: 0; }
.key.supply { background: rgba(63, 166, 107, 0.25); border-top: 2px dashed #17703f; }
.key.mark { background: rgba(200, 30, 40, 0.45); height: 6px; }
.ghost rect { fill: rgba(28, 31, 36, 0.07); stroke: #1c1f24; stroke-width: 1.4; stroke-dasharray: 5 3; }
.ghost:hover rect, .ghost:focus rect { fill: rgba(28, 31, 36, 0.18); }
.key.ghost { background: rgba(28, 31, 36, 0.07); border: 1.4px dashed #1c1f24; }
.card { border: 1px solid var(--line); border-left: 5px solid var(--info); border-radius: 4px; padding: 10px 12px; margin: 12px 0; }
.card.sev-error { border-left-color: var(--error); } .card.sev-warning { border-left-color: var(--warning); }
.card:target { box-shadow: 0 0 0 3px rgba(200, 30, 40, 0.35); }
.card .fid { font-weight: 700; } .card .sev { text-transform: uppercase; font-size: 11px; color: #5a6270; }
.card .where, .card .at { color: #4a515c; font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.card p { margin: 4px 0; overflow-wrap: anywhere; }
.waived { color: #5a6270; font-style: italic; }
.explain summary, .clause summary { cursor: pointer; color: #2563a8; overflow-wrap: anywhere; }
.evidence { margin: 4px 0; padding-left: 20px; overflow-wrap: anywhere; }
@media print {
  .filters { display: none; }
  body { max-width: none; font-size: 11px; }
  .chart, .strip, .card, .overview tr { break-inside: avoid; }
  .card:target { box-shadow: none; }
  a { color: inherit; text-decoration: none; }
}
)css";

// Filters cards, marks and ghosts, charts and the overview's lines by the selects
// (indexes, never input text), keeps each rule's count and each cluster's
// label (`F11 +27`) to what is shown; opens the <details> a link leads into,
// and every one for printing; and records on <body> that it ran
// (`data-ready`). It does no layout work of its own: the page opens as fast
// as the browser lays it out.
inline constexpr const char* kHtmlScript = R"js(
(function () {
  var selects = document.querySelectorAll('.filters select');
  var cards = document.querySelectorAll('.card');
  function has(list, want) { return !want || (' ' + (list || '') + ' ').indexOf(' ' + want + ' ') >= 0; }
  function apply() {
    var want = {};
    selects.forEach(function (s) { want[s.name] = s.value; });
    var shown = {}, count = 0;
    cards.forEach(function (c) {
      var ok = ['severity', 'rule', 'pool', 'plan'].every(function (k) { return has(c.dataset[k], want[k]); });
      c.hidden = !ok;
      if (ok) { shown[c.id] = true; count++; }
    });
    document.querySelectorAll('a.mark, a.ghost').forEach(function (m) { m.style.display = shown[m.dataset.card] ? '' : 'none'; });
    document.querySelectorAll('a.mark-label').forEach(function (l) {
      var on = l.dataset.members.split(' ').filter(function (n) { return shown['finding-' + n]; });
      l.style.display = on.length ? '' : 'none';
      if (!on.length) return;
      l.setAttribute('href', '#finding-' + on[0]);
      l.querySelector('text').textContent = 'F' + (Number(on[0]) + 1) + (on.length > 1 ? ' +' + (on.length - 1) : '');
    });
    document.querySelectorAll('.chart, .strip, .overview tbody tr').forEach(function (c) {
      c.hidden = !(has(c.dataset.pool, want.pool) && has(c.dataset.plan, want.plan));
    });
    document.querySelectorAll('.rule-group').forEach(function (g) {
      var n = g.querySelectorAll('.card:not([hidden])').length, total = g.querySelector('.count').dataset.total;
      g.hidden = n === 0;
      g.querySelector('.count').textContent = (n == total ? total : n + ' of ' + total) + (total == 1 ? ' finding' : ' findings');
    });
    document.querySelector('.filters .shown').textContent = count + ' shown';
  }
  selects.forEach(function (s) { s.addEventListener('change', apply); });
  if ([].some.call(selects, function (s) { return s.value; })) apply();
  else document.querySelector('.filters .shown').textContent = cards.length + ' shown';
  function reveal() {
    var target = location.hash && document.getElementById(location.hash.slice(1));
    for (var e = target; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;
    if (target) target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  if (location.hash) reveal();
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  document.body.setAttribute('data-ready', '1');
})();
)js";

}  // namespace capops::report
