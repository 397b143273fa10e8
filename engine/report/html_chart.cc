// SPDX-License-Identifier: Apache-2.0
// Capacity charts as inline SVG: axes, stacked allocation bands, the usage
// outline, capacity and floor lines, and finding marks. Entry point:
// WriteChartSvg.
#include "engine/report/html_chart.h"

#include <algorithm>
#include <cstdio>

#include "engine/common/escape.h"

namespace capops::report {

namespace {

using eval::Interval;

constexpr double kWidth = 960, kHeight = 220;
constexpr double kLeft = 44, kRight = 12, kTop = 22, kBottom = 26;
constexpr size_t kTicks = 6;
constexpr double kMinTickGap = 110;     // between date labels
constexpr double kTickCharWidth = 6.5;  // a long label (a date-time) needs more

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// Time and GPU coordinates on one chart.
class Scale {
 public:
  Scale(const Interval& horizon, int64_t top_gpus)
      : horizon_(horizon),
        span_(std::max<int64_t>(1, horizon.end - horizon.start)),
        gpus_(static_cast<double>(std::max<int64_t>(1, top_gpus))) {}

  // Seconds since 1970 to x; open sides run to the chart's edges.
  double X(int64_t t) const {
    if (t == Interval::kOpenStart) return kLeft;
    if (t == Interval::kOpenEnd) return kWidth - kRight;
    double f = static_cast<double>(t - horizon_.start) / static_cast<double>(span_);
    return kLeft + std::clamp(f, 0.0, 1.0) * (kWidth - kLeft - kRight);
  }
  double Y(int64_t gpus) const {
    return kHeight - kBottom - static_cast<double>(gpus) / gpus_ * (kHeight - kTop - kBottom);
  }
  const Interval& horizon() const { return horizon_; }
  int64_t span() const { return span_; }

 private:
  Interval horizon_;
  int64_t span_;  // seconds, at least one
  double gpus_;
};

// The moment of tick `t` of kTicks on `s`'s axis: a whole day when the
// horizon runs from a plain date to a plain date, else a whole hour (a
// minute, on a horizon under six hours), printed at the horizon's offset.
DateTime Tick(const Scale& s, size_t t) {
  const Interval& h = s.horizon();
  constexpr int64_t kDay = DateTime::kSecondsPerDay;
  if (h.Start().date_only() && h.End().date_only()) {
    int64_t days = std::max<int64_t>(1, s.span() / kDay);
    return DateTime::Day(h.start / kDay +
                         static_cast<int64_t>(static_cast<double>(days) * t / kTicks));
  }
  int64_t unit = s.span() >= 6 * 3600 ? 3600 : 60;
  int64_t at = h.start + static_cast<int64_t>(static_cast<double>(s.span()) * t / kTicks);
  at -= ((at % unit) + unit) % unit;
  return {std::max(at, h.start), h.start_offset};
}

std::string Rect(double x0, double y0, double x1, double y1) {
  return "x=\"" + Num(std::min(x0, x1)) + "\" y=\"" + Num(std::min(y0, y1)) + "\" width=\"" +
         Num(std::max(0.5, std::abs(x1 - x0))) + "\" height=\"" + Num(std::abs(y1 - y0)) + "\"";
}

// A step function as a path: flat over each step, vertical between.
std::string StepPath(const std::vector<Step>& steps, const Scale& s) {
  std::string d;
  for (const Step& step : steps) {
    std::string y = Num(s.Y(step.amount));
    d += (d.empty() ? "M" : " L") + Num(s.X(step.window.start)) + " " + y;
    d += " L" + Num(s.X(step.window.end)) + " " + y;
  }
  return d;
}

// The stylesheet's class for a slice: known slices by name, any other
// (user text) as `other`.
const char* SliceClass(const std::string& slice) {
  for (const char* known : {"exploration", "training", "tuning", "inference"}) {
    if (slice == known) return known;
  }
  return "other";
}

// Date labels under `baseline`, spread over the horizon, none too close.
void WriteDayTicks(const Scale& s, double baseline, double label_y, std::ostream& out) {
  double last = -kWidth;  // where the last tick's label is centred
  for (size_t t = 0; t <= kTicks; ++t) {
    DateTime when = Tick(s, t);
    std::string text = DayText(when);
    double x = s.X(when.seconds);
    double gap = std::max(kMinTickGap, kTickCharWidth * static_cast<double>(text.size()));
    if (x - last < gap) continue;
    last = x;
    const char* anchor = t == 0 ? "start" : t == kTicks ? "end" : "middle";
    out << "<line x1=\"" << Num(x) << "\" x2=\"" << Num(x) << "\" y1=\"" << Num(baseline)
        << "\" y2=\"" << Num(baseline + 4) << "\"/><text x=\"" << Num(x) << "\" y=\""
        << Num(label_y) << "\" text-anchor=\"" << anchor << "\">" << text << "</text>";
  }
}

void WriteAxes(const Scale& s, int64_t top, std::ostream& out) {
  out << "<g class=\"axis\">";
  for (int64_t g : {int64_t{0}, top}) {
    out << "<line x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\"" << Num(s.Y(g))
        << "\" y2=\"" << Num(s.Y(g)) << "\"/><text x=\"" << kLeft - 4 << "\" y=\""
        << Num(s.Y(g) + 4) << "\" text-anchor=\"end\">" << g << "</text>";
  }
  WriteDayTicks(s, s.Y(0), kHeight - 8, out);
  out << "</g>";
}

// The confirmed supply behind the pool: a shaded area behind the bands
// (`outline` false), or its edge over them, where it falls short of them.
void WriteSupply(const PoolChart& chart, const Scale& s, bool outline, std::ostream& out) {
  if (chart.supply.empty()) return;
  std::string steps = StepPath(chart.supply, s), base = Num(s.Y(0));
  if (outline) {
    out << "<path class=\"supply-edge\" d=\"" << steps << "\"/>";
    return;
  }
  out << "<path class=\"supply\" d=\"M" << Num(s.X(chart.supply.front().window.start)) << " "
      << base << " " << steps.replace(0, 1, "L") << " L" << Num(s.X(chart.supply.back().window.end))
      << " " << base
      << " Z\"><title>confirmed supply cited by the pool's allocations</title></path>";
}

void WriteBands(const PoolChart& chart, const Scale& s, std::ostream& out) {
  out << "<g class=\"bands\">";
  for (const Segment& seg : chart.segments) {
    const Band& b = chart.bands[seg.band];
    out << "<rect class=\"band slice-" << SliceClass(b.slice)
        << (b.alternative ? " alternative" : "") << "\" data-allocation=\"" << seg.band << "\" "
        << Rect(s.X(seg.window.start), s.Y(seg.base), s.X(seg.window.end), s.Y(seg.base + b.gpus))
        << "><title>" << HtmlText(b.allocation) << " (" << HtmlText(b.demand) << ", "
        << HtmlText(b.slice) << "): " << b.gpus << " GPUs " << WindowText(b.window)
        << (b.alternative ? ", a fallback placement" : "") << "</title></rect>";
  }
  out << "</g><path class=\"usage\" d=\"" << StepPath(chart.usage, s)
      << "\"><title>GPUs allocated</title></path>";
}

void WriteLines(const PoolChart& chart, const Scale& s, std::ostream& out) {
  double y = s.Y(chart.capacity);
  out << "<line class=\"capacity\" x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\""
      << Num(y) << "\" y2=\"" << Num(y) << "\"><title>capacity: " << chart.capacity
      << " GPUs</title></line>";
  out << "<text class=\"capacity-label\" x=\"" << kWidth - kRight << "\" y=\"" << Num(y - 3)
      << "\" text-anchor=\"end\">capacity " << chart.capacity << "</text>";
  if (chart.floor.empty()) return;
  out << "<path class=\"floor\" d=\"" << StepPath(chart.floor, s)
      << "\"><title>production floor kept for inference</title></path>";
  // Labelled under the line at its highest step, so that a floor equal to
  // the capacity still reads as a floor.
  const Step& high =
      *std::max_element(chart.floor.begin(), chart.floor.end(),
                        [](const Step& a, const Step& b) { return a.amount < b.amount; });
  double x = std::max(s.X(high.window.start) + 60, s.X(high.window.end));
  out << "<text class=\"floor-label\" x=\"" << Num(std::min(x, kWidth - kRight)) << "\" y=\""
      << Num(s.Y(high.amount) + 12) << "\" text-anchor=\"end\">floor " << high.amount << "</text>";
}

// Red intervals from `top` to `bottom`, each labelled and linked to its card.
void WriteMarks(const std::vector<Mark>& marks, const Scale& s, const std::string& chart_id,
                const std::vector<MarkText>& findings, double top, double bottom,
                std::ostream& out) {
  std::vector<double> label_ends;  // per label row, where its last label ends
  for (const Mark& m : marks) {
    const MarkText& text = findings[m.finding];
    double x0 = s.X(m.window.start), x1 = s.X(m.window.end);
    double width = 8.0 * static_cast<double>(text.label.size()) + 6;
    double label = std::min(x0 + 2, kWidth - kRight - width);  // inside the chart
    size_t row = 0;  // labels of overlapping marks go on rows of their own
    while (row < label_ends.size() && label_ends[row] > label) ++row;
    if (row == label_ends.size()) label_ends.push_back(0);
    label_ends[row] = label + width;
    out << "<a class=\"mark\" href=\"#finding-" << m.finding << "\" id=\"mark-" << chart_id << "-"
        << m.finding << "\" data-card=\"finding-" << m.finding << "\"><rect "
        << Rect(x0, top, x1, bottom) << "/><text x=\"" << Num(label) << "\" y=\""
        << Num(top - 6 + 11.0 * static_cast<double>(row)) << "\">" << HtmlText(text.label)
        << "</text><title>" << HtmlText(text.title) << " — " << WindowText(m.window)
        << (m.from_step ? "" : " (drawn over what it is about)") << "</title></a>";
  }
}

}  // namespace

std::string WindowText(const Interval& w) {
  bool start = w.start != Interval::kOpenStart, end = w.end != Interval::kOpenEnd;
  if (start && end) return "from " + DayText(w.Start()) + " to " + DayText(w.End());
  if (start) return "from " + DayText(w.Start()) + " on";
  if (end) return "until " + DayText(w.End());
  return "at all times";
}

void WriteChartSvg(const PoolChart& chart, const Interval& horizon, const std::string& chart_id,
                   const std::vector<MarkText>& findings, std::ostream& out) {
  int64_t top = std::max(chart.capacity, chart.peak);
  for (const Step& f : chart.floor) top = std::max(top, f.amount);
  for (const Step& f : chart.supply) top = std::max(top, f.amount);
  Scale scale(horizon, top + std::max<int64_t>(1, top / 8));
  out << "<svg class=\"chart-svg\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" role=\"img\" aria-label=\"GPUs of pool over time\">";
  WriteAxes(scale, top, out);
  WriteSupply(chart, scale, false, out);
  WriteBands(chart, scale, out);
  WriteSupply(chart, scale, true, out);
  WriteLines(chart, scale, out);
  WriteMarks(chart.marks, scale, chart_id, findings, kTop, scale.Y(0), out);
  out << "</svg>";
}

void WriteStripSvg(const TrainingStrip& strip, const Interval& horizon, const std::string& strip_id,
                   const std::vector<MarkText>& findings, std::ostream& out) {
  constexpr double kHeightStrip = 100, kBar = 16, kBaseline = 76;
  Scale scale(horizon, 1);
  out << "<svg class=\"strip-svg\" viewBox=\"0 0 " << kWidth << " " << kHeightStrip
      << "\" role=\"img\" aria-label=\"training run against its business window\"><g "
         "class=\"axis\">";
  WriteDayTicks(scale, kBaseline, kHeightStrip - 8, out);
  out << "</g>";
  struct Row {
    const Interval& run;
    const char* what;
    int64_t gpus;
    double y;
  };
  for (const Row& r :
       {Row{strip.preferred_run, "preferred", strip.preferred_gpus, kTop},
        Row{strip.minimum_run, "minimum viable", strip.minimum_gpus, kTop + kBar + 8}}) {
    double x0 = scale.X(r.run.start), x1 = scale.X(r.run.end);
    std::string label = std::string(r.what) + " · " + std::to_string(r.gpus) + " GPUs · until " +
                        DayText(r.run.End());
    // After the bar where it fits, else before it, else inside it: never over
    // the bar's end, which is what the strip is read for.
    double width = 7.0 * static_cast<double>(CodePoints(label));
    const char* where = x1 + 4 + width <= kWidth - kRight ? "after"
                        : x0 - 4 - width >= kLeft         ? "before"
                                                          : "inside";
    double x = where[0] == 'a' ? x1 + 4 : where[0] == 'b' ? x0 - 4 : x0 + 4;
    out << "<rect class=\"run slice-training\" " << Rect(x0, r.y, x1, r.y + kBar) << "><title>"
        << r.what << ", " << r.gpus << " GPUs: " << WindowText(r.run)
        << "</title></rect><text class=\"run-label " << where << "\" x=\"" << Num(x) << "\" y=\""
        << Num(r.y + 12) << "\" text-anchor=\"" << (where[0] == 'b' ? "end" : "start") << "\">"
        << label << "</text>";
  }
  if (strip.business_end) {
    double x = scale.X(strip.business_end->seconds);
    out << "<line class=\"business-end\" x1=\"" << Num(x) << "\" x2=\"" << Num(x) << "\" y1=\""
        << kTop - 8 << "\" y2=\"" << kBaseline << "\"><title>business window ends "
        << DayText(*strip.business_end) << "</title></line>";
  }
  WriteMarks(strip.marks, scale, strip_id, findings, kTop, kTop + 2 * kBar + 8, out);
  out << "</svg>";
}

}  // namespace capops::report
