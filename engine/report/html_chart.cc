// SPDX-License-Identifier: Apache-2.0
// Capacity charts as inline SVG: axes, stacked allocation bands, the usage
// outline, capacity and floor lines, the findings' lane above the plot, and
// the overview's one-line pictures. Entry points: WriteChartSvg, WriteSparkSvg.
#include "engine/report/html_chart.h"

#include <algorithm>
#include <cstdio>

#include "engine/common/escape.h"

namespace capops::report {

namespace {

using eval::Interval;

// The chart's frame: the findings' lane on top, then the plot, then the
// date labels. Within the plot the horizon keeps kPad from either side, so
// that what starts or ends at its edges is seen to.
constexpr double kWidth = 960, kHeight = 236;
constexpr double kLeft = 44, kRight = 12, kTop = 38, kBottom = 26, kPad = 14;
constexpr double kLaneLabel = 13, kLaneBar = 18, kLaneBarHeight = 7;  // the lane's rows
constexpr size_t kTicks = 6;
constexpr double kMinTickGap = 110;                     // between date labels
constexpr double kTickCharWidth = 6.5;                  // a long label (a date-time) needs more
constexpr double kLabelCharWidth = 7.2, kLabelGap = 8;  // lane labels: 11px bold, and between

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// Where a picture's plot is: x from `left` to `right`, y from `top` to `bottom`.
struct Frame {
  double left, right, top, bottom;
};

constexpr Frame kChartFrame{kLeft, kWidth - kRight, kTop, kHeight - kBottom};

// Time and GPU coordinates on one picture.
class Scale {
 public:
  // Without a horizon (nothing dated) every window is open: all of the frame.
  Scale(const std::optional<Interval>& horizon, int64_t top_gpus, const Frame& frame, double pad)
      : horizon_(horizon.value_or(Interval{0, 0})),
        dated_(horizon.has_value()),
        span_(std::max<int64_t>(1, horizon_.end - horizon_.start)),
        gpus_(static_cast<double>(std::max<int64_t>(1, top_gpus))),
        frame_(frame),
        pad_(pad) {}

  // Seconds since 1970 to x; open sides run to the frame's edges.
  double X(int64_t t) const {
    if (t == Interval::kOpenStart) return frame_.left;
    if (t == Interval::kOpenEnd) return frame_.right;
    double f = static_cast<double>(t - horizon_.start) / static_cast<double>(span_);
    f = std::clamp(f, 0.0, 1.0);
    return frame_.left + pad_ + f * (frame_.right - frame_.left - 2 * pad_);
  }
  double Y(int64_t gpus) const {
    return frame_.bottom - static_cast<double>(gpus) / gpus_ * (frame_.bottom - frame_.top);
  }
  const Interval& horizon() const { return horizon_; }
  bool dated() const { return dated_; }
  int64_t span() const { return span_; }
  const Frame& frame() const { return frame_; }

 private:
  Interval horizon_;
  bool dated_;
  int64_t span_;  // seconds, at least one
  double gpus_;
  Frame frame_;
  double pad_;
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

// Date labels under `baseline`, spread over the horizon, none closer to
// the last than kLabelGap, none past the frame.
void WriteDayTicks(const Scale& s, double baseline, double label_y, std::ostream& out) {
  if (!s.dated()) {
    const Frame& f = s.frame();
    out << "<text x=\"" << Num((f.left + f.right) / 2) << "\" y=\"" << Num(label_y)
        << "\" text-anchor=\"middle\">no dated window: held at all times</text>";
    return;
  }
  double last_end = -kWidth;  // where the last label written ends
  for (size_t t = 0; t <= kTicks; ++t) {
    DateTime when = Tick(s, t);
    std::string text = DayText(when);
    double x = s.X(when.seconds);
    double width = kTickCharWidth * static_cast<double>(text.size());
    const char* anchor = t == 0 ? "start" : t == kTicks ? "end" : "middle";
    double begin = t == 0 ? x : t == kTicks ? x - width : x - width / 2;
    if (begin < last_end + std::max(kLabelGap, kMinTickGap - width) ||
        begin < s.frame().left - kPad || begin + width > s.frame().right + 1) {
      continue;
    }
    last_end = begin + width;
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

// Where findings' first fixes would put allocations: a dashed, translucent
// bar from the baseline over the window each would hold, over the plan's
// own bands, linking to the finding's card.
void WriteGhosts(const PoolChart& chart, const Scale& s, const std::string& chart_id,
                 const std::vector<MarkText>& findings, std::ostream& out) {
  if (chart.ghosts.empty()) return;
  out << "<g class=\"ghosts\">";
  for (const Ghost& g : chart.ghosts) {
    const Band& b = g.band;
    out << "<a class=\"ghost\" href=\"#finding-" << g.finding << "\" id=\"ghost-" << chart_id << "-"
        << g.finding << "\" data-card=\"finding-" << g.finding << "\"><rect "
        << Rect(s.X(b.window.start), s.Y(0), s.X(b.window.end), s.Y(b.gpus)) << "><title>"
        << HtmlText(g.fix) << " — the first repair of " << HtmlText(findings[g.finding].label)
        << ", not the plan: " << HtmlText(b.allocation) << " would hold " << b.gpus << " GPUs "
        << WindowText(b.window) << "</title></rect></a>";
  }
  out << "</g>";
}

// The capacity line, labelled above its right end, and the production
// floor, labelled under its highest step, so that a floor equal to the
// capacity still reads as a floor; the floor's label ends left of the
// capacity's, so the two never overlap, whatever their heights.
void WriteLines(const PoolChart& chart, const Scale& s, std::ostream& out) {
  double y = s.Y(chart.capacity);
  std::string capacity = "capacity " + std::to_string(chart.capacity);
  out << "<line class=\"capacity\" x1=\"" << kLeft << "\" x2=\"" << kWidth - kRight << "\" y1=\""
      << Num(y) << "\" y2=\"" << Num(y) << "\"><title>capacity: " << chart.capacity
      << " GPUs</title></line>";
  out << "<text class=\"capacity-label\" x=\"" << kWidth - kRight - 2 << "\" y=\"" << Num(y - 3)
      << "\" text-anchor=\"end\">" << capacity << "</text>";
  if (chart.floor.empty()) return;
  out << "<path class=\"floor\" d=\"" << StepPath(chart.floor, s)
      << "\"><title>production floor kept for inference</title></path>";
  const Step& high =
      *std::max_element(chart.floor.begin(), chart.floor.end(),
                        [](const Step& a, const Step& b) { return a.amount < b.amount; });
  double room = kWidth - kRight - 2 - kTickCharWidth * static_cast<double>(capacity.size()) -
                2 * kLabelGap;  // where the capacity label begins, and a gap
  std::string floor = "floor " + std::to_string(high.amount);
  double x = std::max(s.X(high.window.start) + 60, s.X(high.window.end));
  x = std::max(std::min(x, room), kLeft + kTickCharWidth * static_cast<double>(floor.size()));
  // Under the line, unless that is under the plot's baseline and its dates.
  double under = s.Y(high.amount) + 12;
  double label_y = under <= s.Y(0) - 2 ? under : s.Y(high.amount) - 4;
  out << "<text class=\"floor-label\" x=\"" << Num(x) << "\" y=\"" << Num(label_y)
      << "\" text-anchor=\"end\">" << floor << "</text>";
}

// Findings drawn in a lane above the plot: a thin bar per finding over its
// interval, and one label per cluster of bars whose labels would collide.
class Lane {
 public:
  Lane(const Scale& s, const std::vector<MarkText>& findings) : s_(s), findings_(findings) {}

  void Write(const std::vector<Mark>& marks, const std::string& chart_id, std::ostream& out) {
    if (marks.empty()) return;
    std::vector<const Mark*> order;
    for (const Mark& m : marks) order.push_back(&m);
    std::stable_sort(order.begin(), order.end(), [&](const Mark* a, const Mark* b) {
      return s_.X(a->window.start) < s_.X(b->window.start);
    });
    for (const Mark* m : order) Add(*m);
    FitRight();
    double rule = kLaneBar + kLaneBarHeight + 3;
    out << "<g class=\"lane\"><line class=\"lane-rule\" x1=\"" << s_.frame().left << "\" x2=\""
        << s_.frame().right << "\" y1=\"" << Num(rule) << "\" y2=\"" << Num(rule) << "\"/>";
    for (const Mark* m : order) WriteBar(*m, chart_id, out);
    for (const Cluster& c : clusters_) WriteLabel(c, out);
    out << "</g>";
  }

 private:
  struct Cluster {
    double x = 0;                  // where its label begins
    std::vector<size_t> findings;  // in the order of their bars' starts
  };

  std::string LabelOf(const Cluster& c) const {
    std::string label = findings_[c.findings.front()].label;
    if (c.findings.size() > 1) label += " +" + std::to_string(c.findings.size() - 1);
    return label;
  }
  double WidthOf(const Cluster& c) const {
    return kLabelCharWidth * static_cast<double>(CodePoints(LabelOf(c))) + 2;
  }
  double EndOf(const Cluster& c) const { return c.x + WidthOf(c); }

  // A bar joins the last cluster when its own label would begin before that
  // cluster's label, grown by one, ends.
  void Add(const Mark& m) {
    double x = std::max(s_.X(m.window.start), s_.frame().left);
    if (!clusters_.empty()) {
      Cluster& last = clusters_.back();
      last.findings.push_back(m.finding);
      if (x < EndOf(last) + kLabelGap) return;
      last.findings.pop_back();
    }
    clusters_.push_back({x, {m.finding}});
  }

  // A label past the right edge moves left; one that then meets the label
  // before it joins that cluster, which moves left in turn.
  void FitRight() {
    double right = s_.frame().right;
    while (!clusters_.empty()) {
      Cluster& last = clusters_.back();
      last.x = std::min(last.x, right - WidthOf(last));
      if (clusters_.size() == 1) {
        last.x = std::max(last.x, s_.frame().left);
        return;
      }
      Cluster& before = clusters_[clusters_.size() - 2];
      if (last.x >= EndOf(before) + kLabelGap) return;
      before.findings.insert(before.findings.end(), last.findings.begin(), last.findings.end());
      clusters_.pop_back();
    }
  }

  void WriteBar(const Mark& m, const std::string& chart_id, std::ostream& out) const {
    const MarkText& text = findings_[m.finding];
    out << "<a class=\"mark\" href=\"#finding-" << m.finding << "\" id=\"mark-" << chart_id << "-"
        << m.finding << "\" data-card=\"finding-" << m.finding << "\"><rect class=\"sev-"
        << text.severity << "\" "
        << Rect(s_.X(m.window.start), kLaneBar, s_.X(m.window.end), kLaneBar + kLaneBarHeight)
        << "/><title>" << HtmlText(text.title) << " — " << WindowText(m.window)
        << (m.from_step ? "" : " (drawn over what it is about)") << "</title></a>";
  }

  void WriteLabel(const Cluster& c, std::ostream& out) const {
    out << "<a class=\"mark-label\" href=\"#finding-" << c.findings.front() << "\" data-members=\"";
    for (size_t i = 0; i < c.findings.size(); ++i) out << (i == 0 ? "" : " ") << c.findings[i];
    out << "\"><text x=\"" << Num(c.x) << "\" y=\"" << kLaneLabel << "\">" << HtmlText(LabelOf(c))
        << "</text><title>";
    constexpr size_t kNamed = 12;
    for (size_t i = 0; i < c.findings.size() && i < kNamed; ++i)
      out << (i == 0 ? "" : "; ") << HtmlText(findings_[c.findings[i]].title);
    if (c.findings.size() > kNamed) out << "; and " << c.findings.size() - kNamed << " more";
    out << "</title></a>";
  }

  const Scale& s_;
  const std::vector<MarkText>& findings_;
  std::vector<Cluster> clusters_;
};

}  // namespace

std::string WindowText(const Interval& w) {
  bool start = w.start != Interval::kOpenStart, end = w.end != Interval::kOpenEnd;
  if (start && end) return "from " + DayText(w.Start()) + " to " + DayText(w.End());
  if (start) return "from " + DayText(w.Start()) + " on";
  if (end) return "until " + DayText(w.End());
  return "at all times";
}

void WriteChartSvg(const PoolChart& chart, const std::string& chart_id,
                   const std::vector<MarkText>& findings, std::ostream& out) {
  int64_t top = std::max(chart.capacity, chart.peak);
  for (const Step& f : chart.floor) top = std::max(top, f.amount);
  for (const Step& f : chart.supply) top = std::max(top, f.amount);
  for (const Ghost& g : chart.ghosts) top = std::max(top, g.band.gpus);
  Scale scale(Horizon(chart), top + std::max<int64_t>(1, top / 8), kChartFrame, kPad);
  out << "<svg class=\"chart-svg\" viewBox=\"0 0 " << kWidth << " " << kHeight
      << "\" role=\"img\" aria-label=\"GPUs of pool over time\">";
  WriteAxes(scale, top, out);
  WriteSupply(chart, scale, false, out);
  WriteBands(chart, scale, out);
  WriteGhosts(chart, scale, chart_id, findings, out);
  WriteSupply(chart, scale, true, out);
  WriteLines(chart, scale, out);
  Lane(scale, findings).Write(chart.marks, chart_id, out);
  out << "</svg>";
}

void WriteStripSvg(const TrainingStrip& strip, const std::string& strip_id,
                   const std::vector<MarkText>& findings, std::ostream& out) {
  constexpr double kHeightStrip = 116, kBar = 16, kBaseline = 92;
  Scale scale(Horizon(strip), 1, {kLeft, kWidth - kRight, kTop, kBaseline}, kPad);
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
        << kTop - 4 << "\" y2=\"" << kBaseline << "\"><title>business window ends "
        << DayText(*strip.business_end) << "</title></line>";
  }
  Lane(scale, findings).Write(strip.marks, strip_id, out);
  out << "</svg>";
}

void WriteSparkSvg(const PoolChart& chart, std::ostream& out) {
  constexpr double kSparkWidth = 240, kSparkHeight = 30;
  int64_t top = std::max(chart.capacity, chart.peak);
  Scale s(Horizon(chart), top + std::max<int64_t>(1, top / 8), {1, kSparkWidth - 1, 3, 22}, 2);
  double y = s.Y(chart.capacity);
  out << "<svg class=\"spark\" viewBox=\"0 0 " << kSparkWidth << " " << kSparkHeight
      << "\" aria-hidden=\"true\"><path class=\"usage\" d=\"" << StepPath(chart.usage, s)
      << "\"/><line class=\"capacity\" x1=\"1\" x2=\"" << kSparkWidth - 1 << "\" y1=\"" << Num(y)
      << "\" y2=\"" << Num(y) << "\"/>";
  for (const Mark& m : chart.marks) {
    out << "<rect class=\"tick\" " << Rect(s.X(m.window.start), 25, s.X(m.window.end), 29) << "/>";
  }
  out << "</svg>";
}

}  // namespace capops::report
