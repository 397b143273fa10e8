// SPDX-License-Identifier: Apache-2.0
// The HTML report: header, filters, charts and finding cards in one page.
// Entry point: WriteHtml.
#include "engine/report/html_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "engine/common/escape.h"
#include "engine/report/capacity_chart.h"
#include "engine/report/html_chart.h"
#include "engine/report/html_page_assets.h"
#include "engine/report/power_assert.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"

namespace capops::report {

namespace {

// A chart with what it is drawn for.
struct DrawnChart {
  size_t plan = 0;  // index into the page's plans
  PoolChart chart;
  eval::Interval horizon;
};

// A training strip with the plan it is drawn for.
struct DrawnStrip {
  size_t plan = 0;
  TrainingStrip strip;
  eval::Interval horizon;
};

// Values the filters offer, by index: the page's markup carries indexes,
// never the input's text, into attributes the script reads.
class Choices {
 public:
  size_t Of(const std::string& text) {
    auto [it, added] = index_.emplace(text, texts_.size());
    if (added) texts_.push_back(text);
    return it->second;
  }
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  std::map<std::string, size_t> index_;
  std::vector<std::string> texts_;
};

// What the page knows of each finding beyond the finding itself.
struct CardInfo {
  MarkText mark;
  std::set<size_t> pools, plans;
  std::vector<std::pair<std::string, std::string>>
      charts;        // chart id, what it shows: where it is marked
  std::string when;  // its interval in words, when drawn
};

std::string Indexes(const std::set<size_t>& set) {
  std::string out;
  for (size_t i : set) out += (out.empty() ? "" : " ") + std::to_string(i);
  return out;
}

class HtmlPage {
 public:
  HtmlPage(const lint::Report& report, const HtmlOptions& options, std::ostream& out)
      : report_(report), sources_(*report.sources), options_(options), out_(out) {}

  void Write();

 private:
  void IndexPlans();
  void BuildCharts();
  void WriteHeader();
  void WriteFilters();
  void WriteCharts();
  void WriteStrips();
  void WritePoolTable(const std::vector<const DrawnChart*>& rest);
  void WriteCards();
  void WriteViolationCard(size_t i, const eval::Violation& v);
  void WriteErrorCard(size_t i, const Diagnostic& d);
  void WriteLocation(const SourceLoc& loc, uint32_t length, char mark, const std::string& label);
  void WriteDerivation(const eval::Violation& v);
  void WriteSelect(const char* name, const char* label, const std::vector<std::string>& texts);

  const lint::Report& report_;
  const SourceManager& sources_;
  const HtmlOptions& options_;
  std::ostream& out_;
  Choices plans_, pools_, rules_;
  std::map<FileId, size_t> plan_of_file_;
  std::vector<DrawnChart> charts_;
  std::vector<DrawnStrip> strips_;
  std::vector<CardInfo> cards_;  // per violation
};

void HtmlPage::IndexPlans() {
  for (const std::string& path : report_.plan_files) plans_.Of(path);
  for (const PlanFacts& p : report_.facts) {
    plan_of_file_.emplace(p.document.file, plans_.Of(std::string(sources_.Path(p.document.file))));
  }
  cards_.resize(report_.findings.violations.size());
  for (size_t i = 0; i < cards_.size(); ++i) {
    const eval::Violation& v = report_.findings.violations[i];
    cards_[i].mark = {"F" + std::to_string(i + 1),
                      "F" + std::to_string(i + 1) + " " + v.rule_id + ": " + v.message};
    auto see = [&](const SourceLoc& loc) {
      if (auto it = plan_of_file_.find(loc.file); it != plan_of_file_.end())
        cards_[i].plans.insert(it->second);
    };
    see(v.loc);
    for (const eval::Evidence& e : v.evidence) see(e.loc);
    rules_.Of(v.rule_id);
  }
  for (const Diagnostic& d : report_.findings.errors.items())
    rules_.Of(d.code.empty() ? "error" : d.code);
}

// Every plan's charts, those with findings first, and its training strips.
void HtmlPage::BuildCharts() {
  std::vector<FileId> plan_files;
  for (const auto& [file, index] : plan_of_file_) plan_files.push_back(file);
  const auto& violations = report_.findings.violations;
  std::vector<DrawnChart> quiet;
  ChartOptions options;
  if (report_.engine != nullptr) options.confirmed_supply = ConfirmedSupply(*report_.engine);
  for (const PlanFacts& p : report_.facts) {
    size_t plan = plan_of_file_[p.document.file];
    std::vector<PoolChart> charts = BuildPoolCharts(p, violations, plan_files, options);
    std::vector<TrainingStrip> strips = BuildTrainingStrips(p, violations, plan_files);
    eval::Interval horizon = Horizon(charts, strips);
    for (PoolChart& c : charts) {
      DrawnChart drawn{plan, std::move(c), horizon};
      (drawn.chart.marks.empty() ? quiet : charts_).push_back(std::move(drawn));
    }
    for (TrainingStrip& t : strips) strips_.push_back({plan, std::move(t), horizon});
  }
  for (DrawnChart& c : quiet) charts_.push_back(std::move(c));
  auto note = [&](const Mark& m, size_t plan, std::optional<size_t> pool, std::string anchor,
                  std::string name) {
    CardInfo& card = cards_[m.finding];
    if (pool) card.pools.insert(*pool);
    card.plans.insert(plan);
    if (!anchor.empty()) card.charts.emplace_back(std::move(anchor), std::move(name));
    card.when = WindowText(m.window) +
                (m.from_step ? " (the rule's timeline step)" : " (drawn over what it is about)");
  };
  for (size_t id = 0; id < charts_.size(); ++id) {
    const PoolChart& chart = charts_[id].chart;
    size_t pool = pools_.Of(chart.pool);
    std::string anchor = id < options_.max_charts ? std::to_string(id) : "";
    for (const Mark& m : chart.marks)
      note(m, charts_[id].plan, pool, anchor, "the chart of " + chart.pool);
  }
  for (size_t id = 0; id < strips_.size(); ++id) {
    const TrainingStrip& t = strips_[id].strip;
    for (const Mark& m : t.marks)
      note(m, strips_[id].plan, std::nullopt, "s" + std::to_string(id), "the run of " + t.demand);
  }
}

void HtmlPage::WriteHeader() {
  Counts c = CountFindings(report_.findings);
  size_t waived =
      std::count_if(report_.findings.violations.begin(), report_.findings.violations.end(),
                    [](const eval::Violation& v) { return v.suppression.has_value(); });
  out_ << "<header><h1>capops-lint report</h1><dl class=\"meta\"><dt>plans</dt><dd>";
  for (const std::string& p : plans_.texts()) out_ << "<code>" << HtmlText(p) << "</code> ";
  out_ << "</dd><dt>ruleset</dt><dd><code>" << HtmlText(report_.findings.ruleset_digest)
       << "</code></dd><dt>capops</dt><dd>" << HtmlText(options_.version) << "</dd></dl>";
  out_ << "<p class=\"counts\"><span class=\"sev-error\">" << c.errors
       << " errors</span> <span class=\"sev-warning\">" << c.warnings
       << " warnings</span> <span class=\"sev-info\">" << c.infos << " info</span> · " << waived
       << " waived · " << report_.findings.baselined << " baselined · " << report_.findings.rules
       << " rules, " << report_.findings.plans << (report_.findings.plans == 1 ? " plan" : " plans")
       << " checked</p></header>\n";
}

void HtmlPage::WriteSelect(const char* name, const char* label,
                           const std::vector<std::string>& texts) {
  out_ << "<label>" << label << " <select name=\"" << name << "\"><option value=\"\">all</option>";
  for (size_t i = 0; i < texts.size(); ++i)
    out_ << "<option value=\"" << i << "\">" << HtmlText(texts[i]) << "</option>";
  out_ << "</select></label> ";
}

void HtmlPage::WriteFilters() {
  out_ << "<nav class=\"filters\"><label>severity <select name=\"severity\"><option "
          "value=\"\">all</option>"
          "<option>error</option><option>warning</option><option>info</option><option>waived</"
          "option></select></label> ";
  WriteSelect("rule", "rule", rules_.texts());
  WriteSelect("pool", "pool", pools_.texts());
  WriteSelect("plan", "plan", plans_.texts());
  out_ << "<span class=\"shown\"></span></nav>\n";
}

void HtmlPage::WritePoolTable(const std::vector<const DrawnChart*>& rest) {
  out_ << "<details class=\"more-pools\"><summary>" << rest.size()
       << " more pools with allocations, not "
          "drawn</summary><table><tr><th>plan</th><th>pool</th><th>capacity</th>"
          "<th>peak</th><th>allocations</th><th>findings</th></tr>";
  for (const DrawnChart* d : rest) {
    out_ << "<tr><td>" << HtmlText(plans_.texts()[d->plan]) << "</td><td>"
         << HtmlText(d->chart.pool) << "</td><td>" << d->chart.capacity << "</td><td>"
         << d->chart.peak << "</td><td>" << d->chart.bands.size() << "</td><td>";
    for (const Mark& m : d->chart.marks)
      out_ << "<a href=\"#finding-" << m.finding << "\">F" << m.finding + 1 << "</a> ";
    out_ << "</td></tr>";
  }
  out_ << "</table></details>\n";
}

void HtmlPage::WriteStrips() {
  if (strips_.empty()) return;
  std::vector<MarkText> marks;
  for (const CardInfo& c : cards_) marks.push_back(c.mark);
  out_ << "<h3>Training runs against their business windows</h3>";
  for (size_t id = 0; id < strips_.size() && id < options_.max_charts; ++id) {
    const DrawnStrip& d = strips_[id];
    out_ << "<figure class=\"strip\" id=\"strip-" << id << "\" data-plan=\"" << d.plan
         << "\"><figcaption>training <b>" << HtmlText(d.strip.demand)
         << "</b> · at its minimum viable size the run "
         << "takes its duration × preferred ÷ minimum GPUs · plan <code>"
         << HtmlText(plans_.texts()[d.plan]) << "</code></figcaption>";
    WriteStripSvg(d.strip, d.horizon, "s" + std::to_string(id), marks, out_);
    out_ << "</figure>\n";
  }
}

void HtmlPage::WriteCharts() {
  out_ << "<section id=\"charts\"><h2>Capacity over time</h2>";
  if (charts_.empty()) out_ << "<p>No pool with allocations to draw.</p>";
  std::vector<MarkText> marks;
  for (const CardInfo& c : cards_) marks.push_back(c.mark);
  std::vector<const DrawnChart*> rest;
  for (size_t id = 0; id < charts_.size(); ++id) {
    const DrawnChart& d = charts_[id];
    if (id >= options_.max_charts) {
      rest.push_back(&d);
      continue;
    }
    const PoolChart& c = d.chart;
    out_ << "<figure class=\"chart\" id=\"chart-" << id << "\" data-pool=\"" << pools_.Of(c.pool)
         << "\" data-plan=\"" << d.plan << "\"><figcaption>pool <b>" << HtmlText(c.pool)
         << "</b> · " << HtmlText(c.accelerator) << " · " << HtmlText(c.role) << " · capacity "
         << c.capacity << " GPUs · peak " << c.peak << " · " << c.bands.size()
         << " allocations · plan <code>" << HtmlText(plans_.texts()[d.plan]) << "</code>";
    if (c.segments_capped) out_ << " · too many allocations to stack: their total is drawn";
    out_ << "</figcaption>";
    WriteChartSvg(c, d.horizon, std::to_string(id), marks, out_);
    out_ << "</figure>\n";
  }
  if (!rest.empty()) WritePoolTable(rest);
  WriteStrips();
  out_
      << "<p class=\"legend\"><span class=\"key slice-exploration\"></span>exploration "
         "<span class=\"key slice-training\"></span>training <span class=\"key "
         "slice-tuning\"></span>tuning "
         "<span class=\"key slice-inference\"></span>inference <span class=\"key "
         "slice-other\"></span>other "
         "<span class=\"key capacity\"></span>capacity <span class=\"key "
         "floor\"></span>production floor <span class=\"key supply\"></span>confirmed supply cited "
         "<span class=\"key mark\"></span>finding</p></section>\n";
}

// A place in a file: `path:line:col` and the line with the span marked.
void HtmlPage::WriteLocation(const SourceLoc& loc, uint32_t length, char mark,
                             const std::string& label) {
  std::ostringstream snippet;
  WriteSnippet(sources_, loc, length, mark, label, GutterWidth({loc.line}), Style{}, snippet);
  out_ << "<div class=\"loc\"><div class=\"where\">" << HtmlText(Where(sources_, loc)) << "</div>";
  if (!snippet.str().empty())
    out_ << "<pre class=\"snippet\">" << HtmlText(snippet.str()) << "</pre>";
  out_ << "</div>";
}

void HtmlPage::WriteDerivation(const eval::Violation& v) {
  out_ << "<details class=\"explain\"><summary>derivation</summary><p>rule <code>"
       << HtmlText(v.rule_name) << "</code> at " << HtmlText(Where(sources_, v.policy_loc))
       << "</p>";
  if (!v.evidence.empty()) out_ << "<ul class=\"evidence\">";
  for (const eval::Evidence& e : v.evidence) {
    out_ << "<li><code>" << HtmlText(e.name) << "</code> = <code>" << HtmlText(e.value)
         << "</code>";
    if (e.loc.valid())
      out_ << " <span class=\"at\">" << HtmlText(Where(sources_, e.loc)) << "</span>";
    out_ << "</li>";
  }
  if (!v.evidence.empty()) out_ << "</ul>";
  for (const eval::TraceStep& step : v.trace) {
    std::ostringstream drawn;
    WritePowerAssert(sources_, step, "", Style{}, drawn);
    out_ << "<details class=\"clause\"><summary><code>" << HtmlText(step.clause) << "</code> → "
         << HtmlText(step.value) << "</summary><pre>" << HtmlText(drawn.str())
         << "</pre></details>";
  }
  out_ << "</details>";
}

void HtmlPage::WriteViolationCard(size_t i, const eval::Violation& v) {
  const CardInfo& card = cards_[i];
  std::string severity = SeverityName(v.severity);
  out_ << "<article class=\"card sev-" << severity << "\" id=\"finding-" << i
       << "\" data-severity=\"" << severity << (v.suppression ? " waived" : "") << "\" data-rule=\""
       << rules_.Of(v.rule_id) << "\" data-pool=\"" << Indexes(card.pools) << "\" data-plan=\""
       << Indexes(card.plans) << "\"><h3><span class=\"fid\">" << card.mark.label
       << "</span> <span class=\"sev\">" << severity << "</span> <code>" << HtmlText(v.rule_id)
       << "</code> " << HtmlText(v.message) << "</h3>";
  if (v.suppression) {
    out_ << "<p class=\"waived\">waived by " << HtmlText(v.suppression->owner) << " until "
         << HtmlText(v.suppression->expires) << ": " << HtmlText(v.suppression->justification)
         << "</p>";
  }
  if (!card.when.empty()) {
    out_ << "<p class=\"when\">" << HtmlText(card.when);
    for (const auto& [chart, shows] : card.charts) {
      out_ << " · <a href=\"#mark-" << chart << "-" << i << "\">on " << HtmlText(shows) << "</a>";
    }
    out_ << "</p>";
  }
  WriteLocation(v.loc, 0, '^', "");
  for (const eval::Label& l : v.labels) WriteLocation(l.loc, 0, '-', Visible(l.message));
  if (!v.because.empty())
    out_ << "<p class=\"because\"><b>because</b> " << HtmlText(v.because) << "</p>";
  if (!v.fix.empty()) out_ << "<p class=\"fix\"><b>fix</b> " << HtmlText(v.fix) << "</p>";
  if (std::string note = eval::BaselineNote(v); !note.empty())
    out_ << "<p class=\"baseline\"><b>note</b> " << HtmlText(note) << "</p>";
  WriteDerivation(v);
  out_ << "</article>\n";
}

void HtmlPage::WriteErrorCard(size_t i, const Diagnostic& d) {
  std::string severity = SeverityName(d.severity);
  std::string code = d.code.empty() ? "error" : d.code;
  std::set<size_t> plans;
  if (auto it = plan_of_file_.find(d.loc.file); it != plan_of_file_.end()) plans.insert(it->second);
  out_ << "<article class=\"card sev-" << severity << "\" id=\"error-" << i << "\" data-severity=\""
       << severity << "\" data-rule=\"" << rules_.Of(code) << "\" data-pool=\"\" data-plan=\""
       << Indexes(plans) << "\"><h3><span class=\"fid\">E" << i + 1
       << "</span> <span class=\"sev\">" << severity << "</span> <code>" << HtmlText(code)
       << "</code> " << HtmlText(d.message) << "</h3>";
  WriteLocation(d.loc, d.length, '^', "");
  for (const RelatedLoc& r : d.related) WriteLocation(r.loc, 0, '-', Visible(r.message));
  if (!d.help.empty()) out_ << "<p class=\"fix\"><b>help</b> " << HtmlText(d.help) << "</p>";
  out_ << "</article>\n";
}

void HtmlPage::WriteCards() {
  const auto& violations = report_.findings.violations;
  const auto& errors = report_.findings.errors.items();
  out_ << "<section id=\"findings\"><h2>Findings</h2>";
  if (violations.empty() && errors.empty()) out_ << "<p>No problems.</p>";
  size_t written = 0;
  for (size_t i = 0; i < violations.size() && written < options_.max_cards; ++i, ++written) {
    WriteViolationCard(i, violations[i]);
  }
  for (size_t i = 0; i < errors.size() && written < options_.max_cards; ++i, ++written)
    WriteErrorCard(i, errors[i]);
  size_t left = violations.size() + errors.size() - written;
  if (left != 0) {
    out_ << "<p class=\"more\">" << left
         << " more findings are not shown here: the text, JSON or SARIF report "
         << "lists them all.</p>";
  }
  out_ << "</section>\n";
}

void HtmlPage::Write() {
  IndexPlans();
  BuildCharts();
  out_ << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, "
          "initial-scale=1\"><title>capops-lint report</title>"
          "<style>"
       << kHtmlStyle << "</style></head>\n<body>\n";
  WriteHeader();
  WriteFilters();
  WriteCharts();
  WriteCards();
  out_ << "<script>" << kHtmlScript << "</script>\n</body></html>\n";
}

}  // namespace

void WriteHtml(const lint::Report& report, const HtmlOptions& options, std::ostream& out) {
  HtmlPage(report, options, out).Write();
}

}  // namespace capops::report
