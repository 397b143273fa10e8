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
//   - per plan, per pool with allocations, a capacity-over-time chart
//     (capacity_chart.h) in inline SVG: capacity as a line, the allocations
//     stacked by GPUs over their windows (open-ended ones to the edge),
//     coloured by demand slice, the production floor as a dashed line, and
//     each finding about the pool as a red interval labelled with the
//     finding's id (`F3`), a link to its card;
//   - per training demand with a window and both sizes, a strip: the run
//     at its preferred and at its minimum viable size against the end of
//     its business window, the findings about the demand marked;
//   - a card per finding and per error: the source line with the span
//     marked, the secondary locations, `because` and `fix`, and the
//     derivation (evidence and clause traces) in a collapsible block, with
//     links back to the chart marks;
//   - filters by severity, rule, pool and plan (a little plain JS), and a
//     printable layout (`@media print`).
// Nothing is fetched: no network, no fonts, works from `file://`. Every
// text that comes from the inputs (fact values, ids, file names, messages)
// is escaped with HtmlText (escape.h), and the filters carry indexes, never
// that text, so input cannot add markup or script to the page: its one
// `<script>` is the report's own.
//
// Large runs stay a few MB: charts are drawn first for the pools with
// findings, up to HtmlOptions::max_charts, the other pools listed in a
// table; cards are written up to HtmlOptions::max_cards, the rest counted.
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
