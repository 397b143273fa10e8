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
/// its label (`F3`), a one-line title and its severity (`error` …).
struct MarkText {
  std::string label;
  std::string title;
  std::string severity;
};

/// Writes `chart` as an <svg> spanning its own horizon (Horizon(chart);
/// open-ended bands run to its edges). The findings are drawn in a lane of
/// their own above the plot, never over the allocations: a thin bar per
/// finding over its interval, linking to `#finding-N` with the id
/// `mark-<chart_id>-N` (N the finding's index), and one label per cluster
/// of bars whose labels would collide (`F11 +27`), none past the chart's
/// edges. Each ghost (where a finding's first fix would put an
/// allocation) is a dashed bar from the baseline over its window, over the
/// bands, linking to `#finding-N` with the id `ghost-<chart_id>-N` and the
/// fix's description as its title.
void WriteChartSvg(const PoolChart& chart, const std::string& chart_id,
                   const std::vector<MarkText>& findings, std::ostream& out);

/// Writes a training strip as an <svg> over its own horizon: the preferred
/// and the minimum viable run as bars, the business window's end as a
/// line, the findings about the demand in the lane above (ids
/// `mark-<strip_id>-N`).
void WriteStripSvg(const TrainingStrip& strip, const std::string& strip_id,
                   const std::vector<MarkText>& findings, std::ostream& out);

/// Writes a one-line picture of `chart` for the pool overview: the GPUs in
/// use as a step line against the capacity, over the chart's horizon, with
/// a tick under each finding's interval.
void WriteSparkSvg(const PoolChart& chart, std::ostream& out);

/// `[start, end)` in words: "from 2027-04-15 to 2027-04-17", "at all times" …
std::string WindowText(const eval::Interval& window);

}  // namespace capops::report
