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
.chart { margin: 14px 0; }
.chart figcaption { font-size: 13px; color: #3a404a; overflow-wrap: anywhere; }
.chart-svg { width: 100%; height: auto; display: block; border: 1px solid var(--line); background: #fff; }
.axis line { stroke: #9aa1ab; stroke-width: 1; } .axis text, .capacity-label { font-size: 11px; fill: #4a515c; }
.band { stroke: #fff; stroke-width: 0.6; } .band.alternative { opacity: 0.45; }
.slice-exploration { fill: #7cb7e8; background: #7cb7e8; } .slice-training { fill: #4f6fd1; background: #4f6fd1; }
.slice-tuning { fill: #9a7ad6; background: #9a7ad6; } .slice-inference { fill: #3fa66b; background: #3fa66b; }
.slice-other { fill: #a0a6ae; background: #a0a6ae; }
.run-label { font-size: 12px; fill: #1c1f24; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.business-end { stroke: var(--error); stroke-width: 2; stroke-dasharray: 3 3; }
.strip { margin: 10px 0; } .strip figcaption { font-size: 13px; color: #3a404a; overflow-wrap: anywhere; }
.strip-svg { width: 100%; height: auto; display: block; border: 1px solid var(--line); }
.usage { fill: none; stroke: #1c1f24; stroke-width: 1.2; }
.capacity { stroke: #1c1f24; stroke-width: 2; }
.floor { fill: none; stroke: #e07b00; stroke-width: 2; stroke-dasharray: 6 4; }
.floor-label { font-size: 11px; fill: #a85a00; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.supply { fill: rgba(63, 166, 107, 0.16); stroke: none; }
.supply-edge { fill: none; stroke: #17703f; stroke-width: 1.6; stroke-dasharray: 2 2; pointer-events: none; }
.run-label.inside { fill: #fff; stroke: none; }
.mark rect { fill: rgba(200, 30, 40, 0.16); stroke: var(--error); stroke-width: 1.2; }
.mark text { font-size: 11px; font-weight: 700; fill: var(--error); }
.mark:hover rect, .mark:focus rect { fill: rgba(200, 30, 40, 0.3); }
.legend { font-size: 12px; color: #4a515c; }
.key { display: inline-block; width: 14px; height: 10px; margin: 0 4px 0 10px; vertical-align: middle; }
.key.capacity { background: #1c1f24; height: 3px; } .key.floor { border-top: 3px dashed #e07b00; height: 0; }
.key.supply { background: rgba(63, 166, 107, 0.25); border-top: 2px dashed #17703f; }
.key.mark { background: rgba(200, 30, 40, 0.3); border: 1px solid var(--error); }
.more-pools table { border-collapse: collapse; font-size: 12.5px; }
.more-pools td, .more-pools th { border-bottom: 1px solid var(--line); padding: 2px 8px; text-align: left; }
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
  .chart, .strip, .card { break-inside: avoid; }
  .card:target { box-shadow: none; }
  a { color: inherit; text-decoration: none; }
}
)css";

// Filters cards, marks and charts by the selects (indexes, never input
// text); opens every derivation for printing; and records on <body> that it
// ran (`data-ready`) and how many elements overflow the window's width
// (`data-wide`), which the browser test reads.
inline constexpr const char* kHtmlScript = R"js(
(function () {
  var selects = document.querySelectorAll('.filters select');
  function has(list, want) { return !want || (' ' + (list || '') + ' ').indexOf(' ' + want + ' ') >= 0; }
  function apply() {
    var want = {};
    selects.forEach(function (s) { want[s.name] = s.value; });
    var shown = {}, count = 0;
    document.querySelectorAll('.card').forEach(function (c) {
      var ok = ['severity', 'rule', 'pool', 'plan'].every(function (k) { return has(c.dataset[k], want[k]); });
      c.hidden = !ok;
      if (ok) { shown[c.id] = true; count++; }
    });
    document.querySelectorAll('a.mark').forEach(function (m) { m.style.display = shown[m.dataset.card] ? '' : 'none'; });
    document.querySelectorAll('.chart').forEach(function (c) {
      c.hidden = !(has(c.dataset.pool, want.pool) && has(c.dataset.plan, want.plan));
    });
    document.querySelector('.filters .shown').textContent = count + ' shown';
  }
  selects.forEach(function (s) { s.addEventListener('change', apply); });
  apply();
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  var width = document.documentElement.clientWidth, wide = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    if (e.getBoundingClientRect().right > width + 1) wide++;
  });
  document.body.setAttribute('data-wide', String(wide));
  document.body.setAttribute('data-ready', '1');
})();
)js";

}  // namespace capops::report
