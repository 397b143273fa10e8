// SPDX-License-Identifier: Apache-2.0
// The HTML report: header, filters, charts and finding cards in one page.
// Entry point: WriteHtml.
#include "engine/report/html_report.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "engine/common/escape.h"
#include "engine/report/capacity_chart.h"
#include "engine/report/html_chart.h"
#include "engine/report/html_page_assets.h"
#include "engine/report/power_assert.h"
#include "engine/report/report.h"
#include "engine/report/snippet.h"

namespace capops::report {

namespace {

// How many findings of each severity a pool or a rule has, waived apart.
struct Tally {
  size_t error = 0, warning = 0, info = 0, waived = 0;

  void Add(const std::string& severity) {
    (severity == "error"     ? error
     : severity == "warning" ? warning
     : severity == "info"    ? info
                             : waived)++;
  }
  size_t Total() const { return error + warning + info + waived; }
  // More severe first: by errors, then warnings, then infos, then waived.
  bool Before(const Tally& o) const {
    return std::tie(o.error, o.warning, o.info, o.waived) < std::tie(error, warning, info, waived);
  }
};

// A chart with what it is drawn for.
struct DrawnChart {
  size_t plan = 0;  // index into the page's plans
  PoolChart chart;
  Tally findings;
};

// A training strip with the plan it is drawn for.
struct DrawnStrip {
  size_t plan = 0;
  TrainingStrip strip;
};

// Where a finding is drawn: the mark's anchor, what it is on, and when.
struct Place {
  std::string anchor;  // `mark-<anchor>-N`; empty where the chart is not drawn
  std::string on;      // "the chart of train-eu"
  std::string when;    // its interval in words
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
  std::set<size_t> pools, plans;
  std::vector<Place> places;  // where it is drawn, in the page's order
  std::vector<Place> ghosts;  // where its first fix is drawn (`ghost-<anchor>-N`)
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
  void WriteOverview();
  void WriteSummary();
  void WriteCards();
  void WriteWhen(size_t i);
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
  std::vector<MarkText> marks_;  // per violation
  bool ghosts_ = false;          // a chart has a finding's first fix drawn
  // The findings of each rule (index into rules_): violations, then errors
  // (as `errors_offset_` + their index).
  std::vector<std::vector<size_t>> by_rule_;
  size_t errors_offset_ = 0;
  static constexpr size_t kOpenCharts = 6;  // at most this many drawn: all open
  static constexpr size_t kOpenCards = 30;  // at most this many cards: every rule open
};

void HtmlPage::IndexPlans() {
  for (const std::string& path : report_.plan_files) plans_.Of(path);
  for (const PlanFacts& p : report_.facts) {
    plan_of_file_.emplace(p.document.file, plans_.Of(std::string(sources_.Path(p.document.file))));
  }
  cards_.resize(report_.findings.violations.size());
  for (size_t i = 0; i < cards_.size(); ++i) {
    const eval::Violation& v = report_.findings.violations[i];
    marks_.push_back({"F" + std::to_string(i + 1),
                      "F" + std::to_string(i + 1) + " " + v.rule_id + ": " + v.message,
                      v.suppression ? "waived" : SeverityName(v.severity)});
    auto see = [&](const SourceLoc& loc) {
      if (auto it = plan_of_file_.find(loc.file); it != plan_of_file_.end())
        cards_[i].plans.insert(it->second);
    };
    see(v.loc);
    for (const eval::Evidence& e : v.evidence) see(e.loc);
    size_t rule = rules_.Of(v.rule_id);
    by_rule_.resize(rules_.texts().size());
    by_rule_[rule].push_back(i);
  }
  errors_offset_ = cards_.size();
  const auto& errors = report_.findings.errors.items();
  for (size_t i = 0; i < errors.size(); ++i) {
    size_t rule = rules_.Of(errors[i].code.empty() ? "error" : errors[i].code);
    by_rule_.resize(rules_.texts().size());
    by_rule_[rule].push_back(errors_offset_ + i);
  }
}

// Every plan's charts, the pools with the most severe findings first, and
// its training strips.
void HtmlPage::BuildCharts() {
  std::vector<FileId> plan_files;
  for (const auto& [file, index] : plan_of_file_) plan_files.push_back(file);
  const auto& violations = report_.findings.violations;
  ChartOptions options;
  if (report_.engine != nullptr) options.confirmed_supply = ConfirmedSupply(*report_.engine);
  options.first_fix_facts = &report_.first_fix_facts;
  for (const PlanFacts& p : report_.facts) {
    size_t plan = plan_of_file_[p.document.file];
    for (PoolChart& c : BuildPoolCharts(p, violations, plan_files, options)) {
      DrawnChart drawn{plan, std::move(c), {}};
      for (const Mark& m : drawn.chart.marks) drawn.findings.Add(marks_[m.finding].severity);
      charts_.push_back(std::move(drawn));
    }
    for (TrainingStrip& t : BuildTrainingStrips(p, violations, plan_files))
      strips_.push_back({plan, std::move(t)});
  }
  std::stable_sort(charts_.begin(), charts_.end(), [](const DrawnChart& a, const DrawnChart& b) {
    return a.findings.Before(b.findings);
  });
  auto note = [&](const Mark& m, size_t plan, std::optional<size_t> pool, std::string anchor,
                  std::string on) {
    CardInfo& card = cards_[m.finding];
    if (pool) card.pools.insert(*pool);
    card.plans.insert(plan);
    card.places.push_back(
        {std::move(anchor), std::move(on),
         WindowText(m.window) +
             (m.from_step ? " (the rule's timeline step)" : " (drawn over what it is about)")});
  };
  for (size_t id = 0; id < charts_.size(); ++id) {
    const PoolChart& chart = charts_[id].chart;
    size_t pool = pools_.Of(chart.pool);
    std::string anchor = id < options_.max_charts ? std::to_string(id) : "";
    for (const Mark& m : chart.marks)
      note(m, charts_[id].plan, pool, anchor, "the chart of " + chart.pool);
    for (const Ghost& g : chart.ghosts) {
      if (!anchor.empty())
        cards_[g.finding].ghosts.push_back({anchor, "the chart of " + chart.pool, ""});
      ghosts_ = true;
    }
  }
  for (size_t id = 0; id < strips_.size(); ++id) {
    const TrainingStrip& t = strips_[id].strip;
    std::string anchor = id < options_.max_charts ? "s" + std::to_string(id) : "";
    for (const Mark& m : t.marks)
      note(m, strips_[id].plan, std::nullopt, anchor, "the run of " + t.demand);
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
       << " waived · " << report_.findings.baselined << " baselined · ";
  if (size_t worse = CountWorse(report_.findings); worse != 0)
    out_ << worse << " worse than the baseline · ";
  out_ << report_.findings.rules << " rules, " << report_.findings.plans
       << (report_.findings.plans == 1 ? " plan" : " plans") << " checked</p></header>\n";
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

// The findings of a tally as coloured counts: "2 errors 1 warning".
std::string TallyText(const Tally& t) {
  std::string out;
  auto add = [&](size_t n, const char* one, const char* many, const char* cls) {
    if (n == 0) return;
    out += std::string(out.empty() ? "" : " ") + "<span class=\"n sev-" + cls + "\">" +
           std::to_string(n) + " " + (n == 1 ? one : many) + "</span>";
  };
  add(t.error, "error", "errors", "error");
  add(t.warning, "warning", "warnings", "warning");
  add(t.info, "info", "info", "info");
  add(t.waived, "waived", "waived", "waived");
  return out.empty() ? "<span class=\"n none\">none</span>" : out;
}

// One line per pool, the most severe first: its numbers, its findings and
// a small picture of its use against its capacity, linking to its chart.
void HtmlPage::WriteOverview() {
  out_ << "<section id=\"overview\"><h2>Pools</h2>";
  if (charts_.empty()) {
    out_ << "<p>No pool with allocations to draw.</p></section>\n";
    return;
  }
  size_t with = std::count_if(charts_.begin(), charts_.end(),
                              [](const DrawnChart& d) { return d.findings.Total() != 0; });
  // A pool only a repair's ghost stands on has a line too, with no allocation.
  size_t allocated = std::count_if(charts_.begin(), charts_.end(),
                                   [](const DrawnChart& d) { return !d.chart.bands.empty(); });
  out_ << "<p class=\"note\">" << allocated << (allocated == 1 ? " pool" : " pools")
       << " with allocations";
  if (allocated != charts_.size())
    out_ << ", " << charts_.size() - allocated << " that only a repair moves to";
  out_ << ", " << with << " with findings, the most severe first";
  if (charts_.size() > options_.max_charts)
    out_ << "; the first " << options_.max_charts << " have a chart below";
  bool plans = plans_.texts().size() > 1;  // a column of its own only when there are several
  out_ << ".</p><table class=\"overview\"><thead><tr><th>pool</th>"
       << (plans ? "<th>plan</th>" : "")
       << "<th>GPUs over time</th><th class=\"num\">capacity</th><th class=\"num\">peak</th>"
          "<th class=\"num\">allocations</th>"
          "<th>findings</th></tr></thead><tbody>";
  for (size_t id = 0; id < charts_.size(); ++id) {
    const DrawnChart& d = charts_[id];
    const PoolChart& c = d.chart;
    out_ << "<tr data-pool=\"" << pools_.Of(c.pool) << "\" data-plan=\"" << d.plan << "\"><td>";
    if (id < options_.max_charts)
      out_ << "<a href=\"#chart-" << id << "\">" << HtmlText(c.pool) << "</a>";
    else
      out_ << HtmlText(c.pool);
    out_ << "</td><td>";
    if (plans) out_ << "<code>" << HtmlText(plans_.texts()[d.plan]) << "</code></td><td>";
    WriteSparkSvg(c, out_);
    out_ << "</td><td class=\"num\">" << c.capacity << "</td><td class=\"num"
         << (c.peak > c.capacity ? " over" : "") << "\">" << c.peak << "</td><td class=\"num\">"
         << c.bands.size() << "</td><td>" << TallyText(d.findings) << "</td></tr>";
  }
  out_ << "</tbody></table></section>\n";
}

// Per rule: its findings by severity and the pools they are on, the most
// on first.
void HtmlPage::WriteSummary() {
  if (by_rule_.empty()) return;
  std::map<std::string, size_t> chart_of;  // pool → its first drawn chart
  for (size_t id = 0; id < charts_.size() && id < options_.max_charts; ++id)
    chart_of.emplace(charts_[id].chart.pool, id);
  out_ << "<section id=\"summary\"><h2>Findings by rule and pool</h2><table "
          "class=\"summary\"><thead><tr><th>rule</th><th>findings</th><th>pools</th></tr></"
          "thead><tbody>";
  for (size_t rule = 0; rule < by_rule_.size(); ++rule) {
    Tally tally;
    std::map<size_t, size_t> on;  // pool index → findings
    for (size_t i : by_rule_[rule]) {
      if (i >= errors_offset_) {
        tally.Add(SeverityName(report_.findings.errors.items()[i - errors_offset_].severity));
        continue;
      }
      tally.Add(marks_[i].severity);
      for (size_t pool : cards_[i].pools) ++on[pool];
    }
    std::vector<std::pair<size_t, size_t>> pools(on.begin(), on.end());
    std::stable_sort(pools.begin(), pools.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out_ << "<tr data-rule=\"" << rule << "\"><td><a href=\"#rule-" << rule << "\"><code>"
         << HtmlText(rules_.texts()[rule]) << "</code></a></td><td>" << TallyText(tally)
         << "</td><td>";
    constexpr size_t kNamed = 6;
    for (size_t k = 0; k < pools.size() && k < kNamed; ++k) {
      const std::string& pool = pools_.texts()[pools[k].first];
      auto chart = chart_of.find(pool);
      out_ << (k == 0 ? "" : ", ");
      if (chart != chart_of.end()) out_ << "<a href=\"#chart-" << chart->second << "\">";
      out_ << HtmlText(pool) << (chart != chart_of.end() ? "</a>" : "") << " (" << pools[k].second
           << ")";
    }
    if (pools.size() > kNamed) out_ << " and " << pools.size() - kNamed << " more pools";
    if (pools.empty()) out_ << "—";
    out_ << "</td></tr>";
  }
  out_ << "</tbody></table></section>\n";
}

void HtmlPage::WriteStrips() {
  if (strips_.empty()) return;
  out_ << "<h3>Training runs against their business windows</h3>";
  bool open = std::min(strips_.size(), options_.max_charts) <= kOpenCharts;
  for (size_t id = 0; id < strips_.size() && id < options_.max_charts; ++id) {
    const DrawnStrip& d = strips_[id];
    out_ << "<details class=\"strip\" id=\"strip-" << id << "\" data-plan=\"" << d.plan << "\""
         << (open ? " open" : "") << "><summary>training <b>" << HtmlText(d.strip.demand)
         << "</b> · at its minimum viable size the run "
         << "takes its duration × preferred ÷ minimum GPUs · plan <code>"
         << HtmlText(plans_.texts()[d.plan]) << "</code>";
    if (!d.strip.marks.empty()) out_ << " · " << d.strip.marks.size() << " findings";
    out_ << "</summary>";
    WriteStripSvg(d.strip, "s" + std::to_string(id), marks_, out_);
    out_ << "</details>\n";
  }
}

void HtmlPage::WriteCharts() {
  out_ << "<section id=\"charts\"><h2>Capacity over time</h2>";
  size_t drawn = std::min(charts_.size(), options_.max_charts);
  if (drawn == 0) out_ << "<p>No pool with allocations to draw.</p>";
  if (drawn > kOpenCharts)
    out_ << "<p class=\"note\">The most severe pool's chart is open; each other opens from its "
            "line. The pools are in the overview's order.</p>";
  for (size_t id = 0; id < drawn; ++id) {
    const DrawnChart& d = charts_[id];
    const PoolChart& c = d.chart;
    out_ << "<details class=\"chart\" id=\"chart-" << id << "\" data-pool=\"" << pools_.Of(c.pool)
         << "\" data-plan=\"" << d.plan << "\"" << (drawn <= kOpenCharts || id == 0 ? " open" : "")
         << "><summary>pool <b>" << HtmlText(c.pool) << "</b> · " << HtmlText(c.accelerator)
         << " · " << HtmlText(c.role) << " · capacity " << c.capacity << " GPUs · peak " << c.peak
         << " · " << c.bands.size() << " allocations · plan <code>"
         << HtmlText(plans_.texts()[d.plan]) << "</code>";
    if (d.findings.Total() != 0) out_ << " · " << TallyText(d.findings);
    if (c.segments_capped) out_ << " · too many allocations to stack: their total is drawn";
    out_ << "</summary>";
    WriteChartSvg(c, std::to_string(id), marks_, out_);
    out_ << "</details>\n";
  }
  WriteStrips();
  out_
      << "<p class=\"legend\"><span class=\"key slice-exploration\"></span>exploration "
         "<span class=\"key slice-training\"></span>training <span class=\"key "
         "slice-tuning\"></span>tuning "
         "<span class=\"key slice-inference\"></span>inference <span class=\"key "
         "slice-other\"></span>other "
         "<span class=\"key capacity\"></span>capacity <span class=\"key "
         "floor\"></span>production floor <span class=\"key supply\"></span>confirmed supply cited "
         "<span class=\"key mark\"></span>finding, in the lane above the plot (<b>F3 +2</b>: F3 "
         "and two more there)"
      << (ghosts_ ? " <span class=\"key ghost\"></span>where a finding's first repair would put "
                    "the allocation, not the plan"
                  : "")
      << "</p></section>\n";
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
       << Indexes(card.plans) << "\"><h3><span class=\"fid\">" << marks_[i].label
       << "</span> <span class=\"sev\">" << severity << "</span> <code>" << HtmlText(v.rule_id)
       << "</code> " << HtmlText(v.message) << "</h3>";
  if (v.suppression) {
    out_ << "<p class=\"waived\">waived by " << HtmlText(v.suppression->owner) << " until "
         << HtmlText(v.suppression->expires) << ": " << HtmlText(v.suppression->justification)
         << "</p>";
  }
  WriteWhen(i);
  WriteLocation(v.loc, 0, '^', "");
  for (const eval::Label& l : v.labels) WriteLocation(l.loc, 0, '-', Visible(l.message));
  if (!v.because.empty())
    out_ << "<p class=\"because\"><b>because</b> " << HtmlText(v.because) << "</p>";
  if (!v.fix.empty()) out_ << "<p class=\"fix\"><b>fix</b> " << HtmlText(v.fix) << "</p>";
  for (size_t k = 0; k < v.fixes.size(); ++k) {
    out_ << "<p class=\"repair\"><b>repair</b> " << HtmlText(v.fixes[k].description);
    for (size_t g = 0; k == 0 && g < card.ghosts.size(); ++g) {
      out_ << " · <a href=\"#ghost-" << card.ghosts[g].anchor << "-" << i << "\">drawn on "
           << HtmlText(card.ghosts[g].on) << "</a>";
    }
    out_ << "</p>";
  }
  if (v.acquisition) {
    out_ << "<p class=\"help\"><b>help</b> " << HtmlText(v.acquisition->description) << "</p>";
  }
  if (std::string note = eval::BaselineNote(v); !note.empty())
    out_ << "<p class=\"baseline\"><b>note</b> " << HtmlText(note) << "</p>";
  WriteDerivation(v);
  out_ << "</article>\n";
}

// Where and when a finding is drawn: each interval once, with links to the
// marks drawn over it, so that the dates read are those of the boxes linked.
void HtmlPage::WriteWhen(size_t i) {
  const CardInfo& card = cards_[i];
  std::vector<std::string> whens;
  for (const Place& p : card.places) {
    if (std::find(whens.begin(), whens.end(), p.when) == whens.end()) whens.push_back(p.when);
  }
  for (const std::string& when : whens) {
    out_ << "<p class=\"when\">" << HtmlText(when);
    for (const Place& p : card.places) {
      if (p.when != when) continue;
      out_ << " · ";
      if (!p.anchor.empty()) out_ << "<a href=\"#mark-" << p.anchor << "-" << i << "\">";
      out_ << "on " << HtmlText(p.on) << (p.anchor.empty() ? "" : "</a>");
    }
    out_ << "</p>";
  }
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

// The cards grouped by rule, the groups with the most severe findings
// first, each with its counts; open when the page has few cards.
void HtmlPage::WriteCards() {
  const auto& violations = report_.findings.violations;
  const auto& errors = report_.findings.errors.items();
  out_ << "<section id=\"findings\"><h2>Findings</h2>";
  if (violations.empty() && errors.empty()) out_ << "<p>No problems.</p>";
  auto severity = [&](size_t i) {
    return i < errors_offset_ ? marks_[i].severity
                              : std::string(SeverityName(errors[i - errors_offset_].severity));
  };
  std::vector<std::pair<Tally, size_t>> order;  // per rule, its tally
  for (size_t rule = 0; rule < by_rule_.size(); ++rule) {
    Tally t;
    for (size_t i : by_rule_[rule]) t.Add(severity(i));
    order.emplace_back(t, rule);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first.Before(b.first); });
  bool open = violations.size() + errors.size() <= kOpenCards;
  size_t written = 0;
  for (const auto& [tally, rule] : order) {
    if (written >= options_.max_cards) break;
    const std::vector<size_t>& items = by_rule_[rule];
    out_ << "<details class=\"rule-group\" id=\"rule-" << rule << "\" data-rule=\"" << rule << "\""
         << (open ? " open" : "") << "><summary><code>" << HtmlText(rules_.texts()[rule])
         << "</code> ";
    if (items.front() < errors_offset_)
      out_ << HtmlText(violations[items.front()].rule_name) << " ";
    out_ << "· <span class=\"count\" data-total=\"" << items.size() << "\">" << items.size()
         << (items.size() == 1 ? " finding" : " findings") << "</span> · " << TallyText(tally)
         << "</summary>";
    for (size_t i : items) {
      if (written >= options_.max_cards) break;
      ++written;
      if (i < errors_offset_)
        WriteViolationCard(i, violations[i]);
      else
        WriteErrorCard(i - errors_offset_, errors[i - errors_offset_]);
    }
    out_ << "</details>\n";
  }
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
  WriteOverview();
  WriteCharts();
  WriteSummary();
  WriteCards();
  out_ << "<script>" << kHtmlScript << "</script>\n</body></html>\n";
}

}  // namespace

void WriteHtml(const lint::Report& report, const HtmlOptions& options, std::ostream& out) {
  HtmlPage(report, options, out).Write();
}

}  // namespace capops::report
