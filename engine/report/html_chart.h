// SPDX-License-Identifier: Apache-2.0
// One capacity chart as inline SVG (internal to engine/report; html_report.h
// describes the page it is part of).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/report/capacity_chart.h"

namespace capops::report {

/// What a chart's marks link to and say: for each finding of the report,
/// its label (`F3`) and a one-line title.
struct MarkText {
  std::string label;
  std::string title;
};

/// Writes `chart` as an <svg> spanning the days of `horizon` (open-ended
/// bands run to its edges). Marks link to `#finding-N` and have the id
/// `mark-<chart_id>-N`, N the finding's index.
void WriteChartSvg(const PoolChart& chart, const eval::Interval& horizon,
                   const std::string& chart_id, const std::vector<MarkText>& findings,
                   std::ostream& out);

/// Writes a training strip as an <svg>: the preferred and the minimum
/// viable run as bars, the business window's end as a line, the findings
/// about the demand as marks (ids `mark-<strip_id>-N`).
void WriteStripSvg(const TrainingStrip& strip, const eval::Interval& horizon,
                   const std::string& strip_id, const std::vector<MarkText>& findings,
                   std::ostream& out);

/// `[start, end)` in words: "from 2027-04-15 to 2027-04-17", "at all times" …
std::string WindowText(const eval::Interval& window);

}  // namespace capops::report
