// SPDX-License-Identifier: Apache-2.0
// The HTML report (`capops-lint --format html -o report.html PLAN…`): one
// self-contained page, for people who would rather look at a picture than
// read findings line by line.
//
//   lint::SessionOptions options;            // keep_facts: the charts draw them;
//   options.keep_facts = options.trace = true;  // trace: each card's derivation
//   const lint::Report& r = lint::LintSession(options).Run();
//   report::WriteHtml(r, {"1.0.0"}, out);
//
// The page has
//   - a header: the plans, the ruleset digest, the version, the counts by
//     severity, the waived and baselined counts;
//   - the pool overview: a line per pool with allocations, the pools with
//     the most severe findings first — its capacity, peak, allocations and
//     findings by severity, and a small picture of its use against its
//     capacity, the findings ticked under it;
//   - per pool, in the overview's order, a capacity-over-time chart
//     (capacity_chart.h) in inline SVG, in a <details> (open when the page
//     has few): over the pool's own horizon, capacity as a line, the
//     allocations stacked by GPUs over their windows (open-ended ones to
//     the edge), coloured by demand slice, the production floor as a dashed
//     line, and the findings in a lane above the plot — a thin bar per
//     finding over its interval, linking to its card, and one label per
//     cluster of bars (`F11 +27`); and, for a finding with computed repairs
//     (lint::Report::first_fix_facts), a ghost where its first repair would
//     put the allocation (a moved window, a smaller bar, another pool's
//     chart), dashed, titled with the repair, and in the legend;
//   - per training demand with a window and both sizes, a strip: the run
//     at its preferred and at its minimum viable size against the end of
//     its business window, the findings about the demand in its lane;
//   - a table of the findings by rule, with the pools they are on;
//   - the cards, grouped by rule with the group's counts: per finding and
//     per error, the source line with the span marked, the secondary
//     locations, `because` and `fix`, the computed repairs (the first
//     linking to its ghost), the intervals drawn with links to
//     the marks, and the derivation (evidence and clause traces) in a
//     collapsible block;
//   - filters by severity, rule, pool and plan (a little plain JS that
//     does no layout work: the page opens as fast as the browser lays it
//     out), and a printable layout (`@media print`, every <details> opened).
// Nothing is fetched: no network, no fonts, works from `file://`. Every
// text that comes from the inputs (fact values, ids, file names, messages)
// is escaped with HtmlText (escape.h), and the filters carry indexes, never
// that text, so input cannot add markup or script to the page: its one
// `<script>` is the report's own.
//
// Large runs stay a few MB: charts are drawn for the first
// HtmlOptions::max_charts pools of the overview, the others have their
// line; cards are written up to HtmlOptions::max_cards, the rest counted.
#pragma once

#include <ostream>
#include <string>

#include "engine/lint/project.h"

namespace capops::report {

struct HtmlOptions {
  std::string version;      // the tool's version
  size_t max_charts = 120;  // charts drawn; the other pools are listed
  size_t max_cards = 2000;  // finding cards written; the others counted
};

/// Writes the page for a report whose status is not kUsage. The charts
/// need `report.facts` (SessionOptions::keep_facts); without them the page
/// has the cards alone.
void WriteHtml(const lint::Report& report, const HtmlOptions& options, std::ostream& out);

}  // namespace capops::report
