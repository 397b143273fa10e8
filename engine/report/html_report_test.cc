// SPDX-License-Identifier: Apache-2.0
// The HTML report: the charts' numbers (one sweep per pool), where findings
// are marked, the page's cards, and that input cannot add markup or script.
#include "engine/report/html_report.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>

#include "engine/common/units.h"
#include "engine/report/capacity_chart.h"
#include "engine/workspace/session.h"
#include "tests/support/fixture.h"
#include "tests/support/paths.h"
#include "tests/support/run_cli.h"
#include "tests/support/temp_file.h"

namespace capops {
namespace {

using report::PoolChart;
using testing::RunCli;
using testing::TempFile;

const std::string kExamples = capops::testing::SourceDir() + "/examples/visual-inspection/";

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// A session over an example folder that keeps the facts, as --format html does.
// With `repair_lints`, the repair search runs too, as --format html runs it.
struct Linted {
  explicit Linted(const std::string& folder, const std::string& plan = "",
                  size_t repair_lints = 0) {
    workspace::SessionOptions options;
    options.no_config = true;
    options.keep_facts = true;
    options.repair_lints = repair_lints;
    options.plans = {plan.empty() ? kExamples + folder + "plan.yaml" : plan};
    session = std::make_unique<workspace::LintSession>(options);
    report = &session->Run();
  }
  std::vector<PoolChart> Charts() const {
    std::vector<FileId> files;
    for (const PlanFacts& p : report->facts) files.push_back(p.document.file);
    report::ChartOptions options;
    options.confirmed_supply = report::ConfirmedSupply(*report->engine);
    options.first_fix_facts = &report->first_fix_facts;
    return report::BuildPoolCharts(report->facts.at(0), report->findings.violations, files,
                                   options);
  }
  const PoolChart& Chart(const std::vector<PoolChart>& charts, const std::string& pool) const {
    auto it = std::find_if(charts.begin(), charts.end(),
                           [&](const PoolChart& c) { return c.pool == pool; });
    REQUIRE(it != charts.end());
    return *it;
  }
  std::unique_ptr<workspace::LintSession> session;
  const lint::Report* report = nullptr;
};

// 00:00 UTC of a day, in seconds.
int64_t Day(const char* text) {
  int64_t day = 0;
  REQUIRE(ParseDate(text, &day));
  return day * DateTime::kSecondsPerDay;
}

// An interval as the stdlib's `during` writes it in messages.
std::string During(const eval::Interval& w) {
  bool start = w.start != eval::Interval::kOpenStart, end = w.end != eval::Interval::kOpenEnd;
  std::string from = start ? "`" + report::DayText(w.Start()) + "`" : "",
              to = end ? "`" + report::DayText(w.End()) + "`" : "";
  if (start && end) return "from " + from + " to " + to;
  if (start) return "from " + from + " on";
  return end ? "until " + to : "at all times";
}

TEST_CASE("the scenario's charts: one per pool with allocations, stacked by one sweep",
          "[report][html]") {
  Linted linted("");
  REQUIRE(linted.report->facts.size() == 1);
  std::vector<PoolChart> charts = linted.Charts();
  std::vector<std::string> pools;
  for (const PoolChart& c : charts) pools.push_back(c.pool);
  CHECK(pools == std::vector<std::string>{"train-eu", "train-eu-a100", "serve-eu", "serve-eu-spare",
                                          "serve-eu-peak"});
  const PoolChart& train = linted.Chart(charts, "train-eu");
  CHECK(train.capacity == 16);
  // a-train (16) from 04-12 to 04-17, a-tune (4) from 04-19 to 04-22.
  CHECK(train.peak == 16);
  REQUIRE(train.segments.size() == 2);
  CHECK(train.segments[0].window.start == Day("2027-04-12"));
  CHECK(train.segments[0].window.end == Day("2027-04-17"));
  CHECK(train.segments[1].window.start == Day("2027-04-19"));
  CHECK(train.segments[1].window.end == Day("2027-04-22"));
  CHECK(train.segments[1].base == 0);
  const PoolChart& serve = linted.Chart(charts, "serve-eu");
  REQUIRE(serve.floor.size() == 1);  // the floor of `serve`, at all times
  CHECK(serve.floor[0].amount == 4);
  CHECK(serve.usage.size() == 1);
  CHECK(serve.usage[0].amount == 4);
  // The scale-out holds its own pool for the May peak only.
  const PoolChart& peak = linted.Chart(charts, "serve-eu-peak");
  CHECK(peak.capacity == 2);
  CHECK(peak.peak == 2);
  REQUIRE(peak.segments.size() == 1);
  CHECK(peak.segments[0].window.start == Day("2027-05-03"));
  CHECK(peak.segments[0].window.end == Day("2027-05-17"));
}

// Only reservations and physical confirmations of the pool's accelerator
// are supply: the quota and the forecast a-tune cites are not drawn.
TEST_CASE("the confirmed supply behind each pool is a step function of what its allocations cite",
          "[report][html]") {
  Linted linted("");
  std::vector<PoolChart> charts = linted.Charts();
  auto supply_at = [](const PoolChart& c, const char* day) {
    for (const report::Step& s : c.supply) {
      if (s.window.start <= Day(day) && Day(day) < s.window.end) return s.amount;
    }
    return int64_t{-1};
  };
  const PoolChart& train = linted.Chart(charts, "train-eu");
  CHECK(supply_at(train, "2027-04-12") == 16);  // r-apr, with a day of margin after the run
  CHECK(supply_at(train, "2027-04-17") == 16);
  CHECK(supply_at(train, "2027-04-18") == 0);
  CHECK(supply_at(train, "2027-04-20") == 0);  // a-tune: a quota and a forecast only
  CHECK(supply_at(linted.Chart(charts, "train-eu-a100"), "2027-04-13") == 16);  // r-apr2
  CHECK(supply_at(linted.Chart(charts, "serve-eu"), "2027-04-20") ==
        8);                                                      // pc-serve-eu: no window, always
  CHECK(linted.Chart(charts, "serve-eu-spare").supply.empty());  // cites nothing
  CHECK(supply_at(linted.Chart(charts, "serve-eu-peak"), "2027-05-10") == 2);  // pc-serve-peak

  auto html = RunCli({"--no-config", "--format", "html", kExamples + "plan.yaml"});
  CHECK(Count(html.out, "<path class=\"supply\"") == 4);
  CHECK(Count(html.out, "<path class=\"supply-edge\"") == 4);
  CHECK(html.out.find(">floor 4</text>") !=
        std::string::npos);  // the floor named where it meets capacity
}

// The supply drawn is what the rule set counts as confirmed: a team that
// counts reservations alone sees no physical confirmation drawn.
TEST_CASE("the supply drawn follows the rule set's confirmed_supply param", "[report][html]") {
  testing::TempDir dir("capops-html-supply");
  dir.Write(".capops.yaml", "params:\n  capops.ai.supply.confirmed_supply: [reservation]\n");
  dir.Write("plan.yaml", testing::ReadSourceFile("examples/visual-inspection/plan.yaml"));
  dir.Write("inventory.yaml", testing::ReadSourceFile("examples/visual-inspection/inventory.yaml"));
  auto html =
      RunCli({"--config", dir.Path(".capops.yaml"), "--format", "html", dir.Path("plan.yaml")});
  CHECK(html.exit_code == 1);
  CHECK(Count(html.out, "<path class=\"supply\"") == 2);  // r-apr and r-apr2, not pc-serve-*

  Linted linted("");
  CHECK(report::ConfirmedSupply(*linted.report->engine) ==
        std::vector<std::string>{"reservation", "physical-confirmation"});  // the pack's default
}

// One reservation cited by three allocations on three pools: the finding is
// at the reservation, and each pool citing it shows it at its step.
TEST_CASE("a supply record counted twice is marked on every pool that cites it", "[report][html]") {
  Linted linted(
      "", capops::testing::SourceDir() + "/policies/capops-ai/fixtures/CAP-SUP-006/fires.yaml");
  const auto& violations = linted.report->findings.violations;
  std::vector<PoolChart> charts = linted.Charts();
  REQUIRE(charts.size() == 3);
  for (const PoolChart& c : charts) {
    INFO(c.pool);
    size_t double_counted = 0;
    for (const report::Mark& m : c.marks) {
      const eval::Violation& v = violations[m.finding];
      if (v.rule_id != "CAP-SUP-006") continue;
      ++double_counted;
      CHECK(m.from_step);
      CHECK(v.message.find(During(m.window)) != std::string::npos);
    }
    CHECK(double_counted == 1);
    // A finding about one allocation and the reservation stays on that allocation's pool.
    size_t idle = std::count_if(c.marks.begin(), c.marks.end(), [&](const report::Mark& m) {
      return violations[m.finding].rule_id == "CAP-FIN-003";
    });
    CHECK(idle == 1);
  }
}

// Every mark drawn from a rule's timeline step is at the interval its
// message names; a finding about an allocation is on that allocation's pool.
TEST_CASE("the scenario's findings are marked where and when the text says", "[report][html]") {
  Linted linted("");
  const auto& violations = linted.report->findings.violations;
  std::vector<PoolChart> charts = linted.Charts();
  size_t from_step = 0;
  for (const PoolChart& c : charts) {
    for (const report::Mark& m : c.marks) {
      const eval::Violation& v = violations.at(m.finding);
      INFO(c.pool << ": " << v.rule_id << " " << v.message);
      if (!m.from_step) continue;
      ++from_step;
      CHECK(v.message.find(During(m.window)) != std::string::npos);
    }
  }
  CHECK(from_step >= 2);  // a-tune and a-explore short of supply
  const PoolChart& train = linted.Chart(charts, "train-eu");
  bool tune_short = std::any_of(train.marks.begin(), train.marks.end(), [&](const report::Mark& m) {
    const eval::Violation& v = violations[m.finding];
    return v.rule_id == "CAP-SUP-005" && v.message.find("`a-tune`") != std::string::npos &&
           m.window.start == Day("2027-04-19") && m.window.end == Day("2027-04-22") && m.from_step;
  });
  CHECK(tune_short);
  const PoolChart& spare = linted.Chart(charts, "serve-eu-spare");
  bool replacement = std::any_of(
      spare.marks.begin(), spare.marks.end(),
      [&](const report::Mark& m) { return violations[m.finding].rule_id == "CAP-ALC-001"; });
  CHECK(replacement);
  // The decision record is about no pool: it is not drawn anywhere.
  for (const PoolChart& c : charts) {
    for (const report::Mark& m : c.marks) CHECK(violations[m.finding].rule_id != "CAP-GOV-001");
  }
}

TEST_CASE("the production squeeze shows the floor and the research above it", "[report][html]") {
  Linted linted("production-squeeze/");
  std::vector<PoolChart> charts = linted.Charts();
  const PoolChart& serve = linted.Chart(charts, "serve-eu");
  CHECK(!serve.floor.empty());
  CHECK(serve.peak > serve.capacity);
  bool squeeze = std::any_of(serve.marks.begin(), serve.marks.end(), [&](const report::Mark& m) {
    return linted.report->findings.violations[m.finding].rule_id == "CAP-ALC-003" && m.from_step;
  });
  CHECK(squeeze);
}

TEST_CASE("a late training run: the minimum viable size ends past the business window",
          "[report][html]") {
  Linted linted("late-start/");
  std::vector<FileId> files = {linted.report->facts.at(0).document.file};
  std::vector<report::TrainingStrip> strips = report::BuildTrainingStrips(
      linted.report->facts.at(0), linted.report->findings.violations, files);
  REQUIRE(strips.size() == 1);
  const report::TrainingStrip& t = strips[0];
  CHECK(t.demand == "train-v3");
  CHECK(t.preferred_run.start == Day("2027-04-19"));
  CHECK(t.preferred_run.end == Day("2027-04-24"));
  CHECK(t.minimum_run.end == Day("2027-04-29"));  // 8 of 16 GPUs: twice as long
  REQUIRE(t.business_end);
  CHECK(t.business_end->seconds == Day("2027-04-26"));
  REQUIRE(t.marks.size() == 1);
  CHECK(linted.report->findings.violations.at(t.marks[0].finding).rule_id == "CAP-DEM-006");
  CHECK(t.marks[0].window.start == Day("2027-04-26"));  // the part past the business window
  CHECK(t.marks[0].window.end == Day("2027-04-29"));
  auto html = RunCli({"--no-config", "--format", "html", kExamples + "late-start/plan.yaml"});
  CHECK(Count(html.out, "<details class=\"strip\"") == 1);
  // Each size's label beside its bar or inside it, never over the bar's end.
  CHECK(html.out.find("class=\"run-label after\"") != std::string::npos);
  CHECK(Count(html.out, "class=\"run-label ") == 2);
  CHECK(html.out.find("href=\"#mark-s0-" + std::to_string(t.marks[0].finding) + "\"") !=
        std::string::npos);
}

TEST_CASE("the page has a card per finding and links marks and cards both ways", "[report][html]") {
  auto html = RunCli({"--no-config", "--format", "html", kExamples + "plan.yaml"});
  auto shortened = RunCli({"--no-config", "--format", "short", kExamples + "plan.yaml"});
  CHECK(html.exit_code == 1);
  size_t findings = Count(shortened.out, "\n");
  REQUIRE(findings > 0);
  CHECK(Count(html.out, "<article class=\"card") == findings);
  CHECK(Count(html.out, "<details class=\"chart\"") == 5);
  std::smatch m;
  std::regex mark(R"re(href="#finding-(\d+)" id="mark-(\d+)-(\d+)")re");
  size_t marks = 0;
  for (auto it = std::sregex_iterator(html.out.begin(), html.out.end(), mark);
       it != std::sregex_iterator(); ++it) {
    ++marks;
    std::string finding = (*it)[1];
    CHECK((*it)[3] == finding);
    CHECK(html.out.find("id=\"finding-" + finding + "\"") != std::string::npos);
    CHECK(html.out.find("href=\"#mark-" + std::string((*it)[2]) + "-" + finding + "\"") !=
          std::string::npos);
  }
  CHECK(marks >= 3);
  CHECK(html.out.find("@media print") != std::string::npos);
  CHECK(html.out.find("http://") == std::string::npos);
  CHECK(html.out.find("https://") == std::string::npos);
}

// The part of the page from `from` to the next `</details>`.
std::string Section(const std::string& page, const std::string& from) {
  size_t at = page.find(from);
  REQUIRE(at != std::string::npos);
  return page.substr(at, page.find("</details>", at) - at);
}

TEST_CASE("findings are drawn in a lane above the plot, a label per cluster", "[report][html]") {
  auto html = RunCli({"--no-config", "--format", "html", kExamples + "plan.yaml"});
  REQUIRE(html.exit_code == 1);
  // Every bar is in the lane: the same thin row above the plot, whatever
  // the finding is about.
  std::regex bar(
      R"re(<a class="mark" [^>]*><rect class="sev-(\w+)" x="[0-9.]+" y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)")re");
  size_t bars = 0;
  for (auto it = std::sregex_iterator(html.out.begin(), html.out.end(), bar);
       it != std::sregex_iterator(); ++it, ++bars) {
    CHECK(std::stod((*it)[2]) == Approx(18));
    CHECK(std::stod((*it)[3]) == Approx(7));
  }
  CHECK(bars == Count(html.out, "<a class=\"mark\""));
  CHECK(bars >= 5);
  // One label per cluster, naming its first finding and counting the rest;
  // each bar in one cluster of its chart.
  std::regex label(
      R"re(<a class="mark-label" href="#finding-(\d+)" data-members="([0-9 ]+)"><text x="[0-9.]+" y="13">F(\d+)( \+(\d+))?</text>)re");
  size_t labelled = 0;
  for (auto it = std::sregex_iterator(html.out.begin(), html.out.end(), label);
       it != std::sregex_iterator(); ++it) {
    std::istringstream members((*it)[2]);
    std::vector<size_t> all{std::istream_iterator<size_t>(members), {}};
    REQUIRE(!all.empty());
    CHECK(std::to_string(all.front()) == std::string((*it)[1]));
    CHECK(std::to_string(all.front() + 1) == std::string((*it)[3]));
    CHECK(((*it)[5].matched ? std::stoul((*it)[5]) + 1 : 1) == all.size());
    labelled += all.size();
  }
  CHECK(labelled == bars);
  CHECK(html.out.find(" +1</text>") != std::string::npos);  // a-tune's two findings on train-eu
}

TEST_CASE("each pool is drawn over its own stretch of time", "[report][html]") {
  auto html = RunCli({"--no-config", "--format", "html", kExamples + "plan.yaml"});
  REQUIRE(html.exit_code == 1);
  // train-eu runs in April, serve-eu-peak's two weeks in May: neither axis
  // is the other's.
  std::string train = Section(html.out, "pool <b>train-eu</b>");
  std::string peak = Section(html.out, "pool <b>serve-eu-peak</b>");
  CHECK(train.find(">2027-04-12</text>") != std::string::npos);
  CHECK(train.find(">2027-05-") == std::string::npos);
  CHECK(peak.find(">2027-05-03</text>") != std::string::npos);
  CHECK(peak.find(">2027-04-") == std::string::npos);
  // A pool whose windows are all open has no dates to show, and says so.
  CHECK(Section(html.out, "pool <b>serve-eu-spare</b>").find("no dated window") !=
        std::string::npos);
  // The capacity and floor labels of serve-eu (both 4) are apart: the
  // floor's ends left of where the capacity's begins.
  std::string serve = Section(html.out, "pool <b>serve-eu</b>");
  std::smatch capacity, floor;
  REQUIRE(std::regex_search(serve, capacity, std::regex(R"re(capacity-label" x="([0-9.]+)")re")));
  REQUIRE(std::regex_search(serve, floor, std::regex(R"re(floor-label" x="([0-9.]+)")re")));
  CHECK(std::stod(floor[1]) + 8 < std::stod(capacity[1]) - 7 * 10);  // "capacity 4", end-anchored
}

TEST_CASE("a card gives the interval of each mark it links to", "[report][html]") {
  auto html = RunCli({"--no-config", "--format", "html", kExamples + "plan.yaml"});
  REQUIRE(html.exit_code == 1);
  // train-v3's findings are drawn over its allocations on two pools and
  // over its minimum viable run on the strip: each interval with its links.
  std::regex when(
      R"re(<p class="when">([^<(]+) \([^)]*\)((?: · <a href="#mark-[^"]+">[^<]+</a>)+)</p>)re");
  size_t links = 0;
  for (auto it = std::sregex_iterator(html.out.begin(), html.out.end(), when);
       it != std::sregex_iterator(); ++it) {
    std::string text = (*it)[1], anchors = (*it)[2];
    std::regex href(R"re(href="#(mark-[^"]+)")re");
    for (auto a = std::sregex_iterator(anchors.begin(), anchors.end(), href);
         a != std::sregex_iterator(); ++a, ++links) {
      size_t mark = html.out.find("id=\"" + std::string((*a)[1]) + "\"");
      REQUIRE(mark != std::string::npos);
      size_t title = html.out.find("<title>", mark);
      std::string said = html.out.substr(title, html.out.find("</title>", title) - title);
      INFO(said);
      CHECK(said.find(" — " + text) != std::string::npos);
    }
  }
  CHECK(links >= 5);
}

TEST_CASE("the HTML report is refused over one of its inputs", "[report][html]") {
  TempFile tmp("");
  std::string plan = (tmp.dir() / "plan.yaml").string();
  capops::testing::WriteFile(plan, testing::ReadSourceFile("examples/visual-inspection/plan.yaml"));
  auto r = RunCli({"--no-config", "--format", "html", "--inventory", kExamples + "inventory.yaml",
                   "-o", plan, plan});
  CHECK(r.exit_code == 2);
  CHECK(testing::ReadSourceFile("examples/visual-inspection/plan.yaml") == [&] {
    std::ifstream in(plan);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }());
}

// An inventory of one research pool of 8 GPUs, `lab`, and `more_pools`.
std::string LabInventory(const std::string& more_pools = "") {
  return R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100-80, model: H100-SXM, memory: 80GiB, interconnect: nvlink4}
pools:
  - {id: lab, accelerator: h100-80, hosts: 1, gpus_per_host: 8, region: eu, role: research}
)" + more_pools;
}

// `<script>` through fact values, ids and a file name: shown as text, never
// markup; the page's one script is its own.
// Two sessions of one day, 09:00 to 17:00 and 18:00 to 22:00 (+02:00):
// each is drawn as long as it lasts, and they stack at the same height.
TEST_CASE("hour windows are drawn to the second, side by side when they do not overlap",
          "[report][html]") {
  const std::string inventory = LabInventory();
  const std::string plan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: sessions, owner: me}
demands:
  - {id: explore, slice: exploration, gpus: 8, max_hold: 8h}
allocations:
  - {id: day, demand: explore, pool: lab, gpus: 8, window: {start: 2027-04-20T09:00+02:00, duration: 8h}}
  - {id: evening, demand: explore, pool: lab, gpus: 8, window: {start: 2027-04-20T18:00+02:00, end: 2027-04-20T22:00+02:00}}
)";
  TempFile tmp("");
  std::string plan_path = (tmp.dir() / "plan.yaml").string();
  capops::testing::WriteFile(plan_path, plan);
  capops::testing::WriteFile((tmp.dir() / "inventory.yaml").string(), inventory);
  Linted linted("", plan_path);
  std::vector<PoolChart> charts = linted.Charts();
  const PoolChart& lab = linted.Chart(charts, "lab");
  CHECK(lab.peak == 8);
  REQUIRE(lab.segments.size() == 2);
  int64_t day = Day("2027-04-20");
  CHECK(lab.segments[0].window.start == day + 7 * 3600);  // 09:00+02:00
  CHECK(lab.segments[0].window.end == day + 15 * 3600);
  CHECK(lab.segments[1].window.start == day + 16 * 3600);
  CHECK(lab.segments[1].base == 0);

  auto html = RunCli({"--no-config", "--format", "html", plan_path});
  INFO(html.err);
  // The pool's horizon is 13 hours, drawn over the plot's 904 px less a
  // 14 px margin at either side: the boxes are 8 and 4 of them wide.
  std::regex band("data-allocation=\"([01])\" x=\"[0-9.]+\" y=\"[0-9.]+\" width=\"([0-9.]+)\"");
  std::map<std::string, double> width;
  for (auto it = std::sregex_iterator(html.out.begin(), html.out.end(), band);
       it != std::sregex_iterator(); ++it) {
    width[(*it)[1]] = std::stod((*it)[2]);
  }
  REQUIRE(width.size() == 2);
  CHECK(width["0"] == Approx(876.0 * 8 / 13).margin(0.1));
  CHECK(width["1"] == Approx(876.0 * 4 / 13).margin(0.1));
  CHECK(html.out.find("8 GPUs from 2027-04-20T09:00+02:00 to 2027-04-20T17:00+02:00") !=
        std::string::npos);
  // The axis is labelled in hours, at the offset the plan's first moment is written at.
  CHECK(html.out.find(">2027-04-20T09:00+02:00</text>") != std::string::npos);
  CHECK(html.out.find(">2027-04-20T22:00+02:00</text>") != std::string::npos);
}

TEST_CASE("input cannot add markup or script to the HTML report", "[report][html][hostile]") {
  const std::string evil = "<script>alert(1)</script>";
  const std::string inventory = R"(apiVersion: capops.dev/v1
kind: Inventory
accelerator_types:
  - {id: h100-80, model: H100-SXM, memory: 80GiB, interconnect: nvlink4}
pools:
  - {id: "<script>alert(1)</script>", accelerator: h100-80, hosts: 1, gpus_per_host: 4, region: "<img src=x onerror=alert(1)>", role: research}
)";
  const std::string plan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: "<script>alert(2)</script>", owner: "<b>me</b>"}
demands:
  - {id: "<script>d</script>", slice: exploration, gpus: 8, window: {start: 2027-04-12, end: 2027-04-20}}
allocations:
  - {id: "<script>a</script>", demand: "<script>d</script>", pool: "<script>alert(1)</script>", gpus: 8}
)";
  TempFile tmp("");
  std::string plan_path = (tmp.dir() / "<script>alert(3)<img src=x>.yaml").string();
  capops::testing::WriteFile(plan_path, plan);
  capops::testing::WriteFile((tmp.dir() / "inventory.yaml").string(), inventory);
  auto r = RunCli({"--no-config", "--format", "html", plan_path});
  INFO(r.err);
  REQUIRE(r.exit_code == 1);
  std::string page = Lower(r.out);
  CHECK(Count(page, "<script") == 1);
  CHECK(Count(page, "</script") == 1);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("<b>me") == std::string::npos);
  CHECK(Count(r.out, "&lt;script&gt;alert(1)&lt;/script&gt;") >=
        2);  // the chart's caption and a card
  CHECK(r.out.find("&lt;script&gt;alert(3)&lt;img src=x&gt;.yaml") != std::string::npos);
  CHECK(Count(r.out, "<details class=\"chart\"") == 1);  // the pool over capacity is drawn
}

const std::string kSupplyFixtures =
    capops::testing::SourceDir() + "/policies/capops-ai/fixtures/CAP-SUP-005/";

// The CAP-SUP-005 finding about `allocation`.
size_t SupplyFinding(const lint::Report& report, const std::string& allocation) {
  const auto& violations = report.findings.violations;
  for (size_t i = 0; i < violations.size(); ++i) {
    if (violations[i].rule_id == "CAP-SUP-005" &&
        violations[i].message.find("`" + allocation + "`") != std::string::npos)
      return i;
  }
  FAIL("no CAP-SUP-005 finding about " << allocation);
  return 0;
}

int64_t At(const char* text) {
  DateTime t;
  std::string error;
  REQUIRE(ParseDateTime(text, &t, &error));
  return t.seconds;
}

TEST_CASE("a finding's first repair is a ghost where it puts the allocation", "[report][html]") {
  Linted linted("", kSupplyFixtures + "movable.yaml", 16);
  std::vector<PoolChart> charts = linted.Charts();
  const PoolChart& train = linted.Chart(charts, "train-eu");
  REQUIRE(train.ghosts.size() == 2);
  // a-early keeps its 5 days and its 4 GPUs, from the first start where r-apr is free.
  const report::Ghost& early = train.ghosts[0];
  CHECK(early.finding == SupplyFinding(*linted.report, "a-early"));
  CHECK(early.band.allocation == "a-early");
  CHECK(early.band.gpus == 4);
  CHECK(early.band.window.start == Day("2027-04-23"));
  CHECK(early.band.window.end == Day("2027-04-28"));
  CHECK(early.fix == linted.report->findings.violations[early.finding].fixes.at(0).description);
  CHECK(early.fix.rfind("move `a-early` to start 2027-04-23", 0) == 0);
  // a-block, with an `end`, moves with it, to the hour r-june starts.
  const report::Ghost& block = train.ghosts[1];
  CHECK(block.band.allocation == "a-block");
  CHECK(block.band.window.start == At("2027-06-05T06:00Z"));
  CHECK(block.band.window.end == At("2027-06-07T06:00Z"));
  // The plan's own bands are as written.
  auto band = std::find_if(train.bands.begin(), train.bands.end(),
                           [](const report::Band& b) { return b.allocation == "a-early"; });
  REQUIRE(band != train.bands.end());
  CHECK(band->window.start == Day("2027-04-18"));
  // The horizon reaches the ghosts.
  CHECK(report::Horizon(train)->end >= block.band.window.end);

  // Without the repair search, no ghost.
  Linted plain("", kSupplyFixtures + "movable.yaml");
  CHECK(plain.report->first_fix_facts.empty());
  CHECK(plain.Chart(plain.Charts(), "train-eu").ghosts.empty());
}

TEST_CASE("a repair that changes no bar draws no ghost, and a shrink is a smaller bar",
          "[report][html]") {
  // ranked: the first repair cites `r-spare`, which moves nothing.
  Linted ranked("", kSupplyFixtures + "ranked.yaml", 16);
  size_t all = SupplyFinding(*ranked.report, "a-all");
  const eval::Violation& v = ranked.report->findings.violations[all];
  REQUIRE(v.fixes.size() >= 2);
  CHECK(v.fixes[0].description.rfind("cite `r-spare`", 0) == 0);
  CHECK(ranked.report->first_fix_facts.count(all) == 1);  // read, and found to change no bar
  for (const PoolChart& c : ranked.Charts()) CHECK(c.ghosts.empty());

  // repairable: a-cite and a-block are repaired by a citation, a-shrink by a shrink.
  Linted repairable("", kSupplyFixtures + "repairable.yaml", 16);
  std::vector<PoolChart> charts = repairable.Charts();
  const PoolChart& train = repairable.Chart(charts, "train-eu");
  REQUIRE(train.ghosts.size() == 1);
  const report::Ghost& shrink = train.ghosts[0];
  CHECK(shrink.band.allocation == "a-shrink");
  CHECK(shrink.band.gpus == 8);
  auto band = std::find_if(train.bands.begin(), train.bands.end(),
                           [](const report::Band& b) { return b.allocation == "a-shrink"; });
  REQUIRE(band != train.bands.end());
  CHECK(band->gpus == 16);
  CHECK(shrink.band.window.start == band->window.start);
  CHECK(shrink.band.window.end == band->window.end);
}

// No search moves an allocation to another pool yet: the facts of such a
// fix are those of the plan written that way, given to a finding by hand.
TEST_CASE("a ghost on another pool is drawn on that pool's chart, even with no allocation",
          "[report][html]") {
  const std::string inventory = LabInventory(
      "  - {id: spare, accelerator: h100-80, hosts: 1, gpus_per_host: 8, region: eu, role: "
      "research}\n");
  const std::string plan = R"(apiVersion: capops.dev/v1
kind: CapacityPlan
metadata: {name: moves, owner: me}
demands:
  - {id: explore, slice: exploration, gpus: 4, max_hold: 2d}
allocations:
  - {id: a-x, demand: explore, pool: lab, gpus: 4, window: {start: 2027-04-20, duration: 2d}}
)";
  TempFile tmp("");
  auto write = [&](const std::string& dir, const std::string& text) {
    std::filesystem::create_directories(tmp.dir() / dir);
    capops::testing::WriteFile((tmp.dir() / dir / "inventory.yaml").string(), inventory);
    capops::testing::WriteFile((tmp.dir() / dir / "plan.yaml").string(), text);
    return (tmp.dir() / dir / "plan.yaml").string();
  };
  std::string moved = plan;
  moved.replace(moved.find("pool: lab"), 9, "pool: spare");
  Linted before("", write("before", plan));
  Linted after("", write("after", moved));
  std::vector<eval::Violation> violations = before.report->findings.violations;
  auto at_plan = std::find_if(violations.begin(), violations.end(), [&](const eval::Violation& v) {
    return v.loc.file == before.report->facts.at(0).document.file;
  });
  REQUIRE(at_plan != violations.end());
  at_plan->fixes = {Fix{"move `a-x` to pool `spare`", {}}};
  size_t finding = at_plan - violations.begin();
  std::map<size_t, eval::Facts> first_fix{{finding, after.report->facts.at(0).facts}};
  report::ChartOptions options;
  options.first_fix_facts = &first_fix;
  std::vector<PoolChart> charts = report::BuildPoolCharts(
      before.report->facts.at(0), violations, {before.report->facts.at(0).document.file}, options);
  const PoolChart& lab = before.Chart(charts, "lab");
  const PoolChart& spare = before.Chart(charts, "spare");
  CHECK(lab.ghosts.empty());
  CHECK(spare.bands.empty());
  REQUIRE(spare.ghosts.size() == 1);
  CHECK(spare.ghosts[0].finding == finding);
  CHECK(spare.ghosts[0].band.allocation == "a-x");
  CHECK(spare.ghosts[0].band.window.start == Day("2027-04-20"));
  CHECK(spare.ghosts[0].fix == "move `a-x` to pool `spare`");
  CHECK(report::Horizon(spare).has_value());
}

// The edited plan is read as a lint reads a file: its first plan document.
// A finding in a later one gets no edited facts, and so no ghost, rather
// than another document's.
TEST_CASE("a first repair in a file's second plan document draws no ghost", "[report][html]") {
  std::string movable =
      capops::testing::ReadSourceFile("policies/capops-ai/fixtures/CAP-SUP-005/movable.yaml");
  size_t plan = movable.find("apiVersion: capops.dev/v1\nkind: CapacityPlan");
  REQUIRE(plan != std::string::npos);
  std::string second = movable.substr(plan);
  second.replace(second.find("name: movable"), 13, "name: again");
  // Its own ids: the repair search takes findings with one allocation id
  // in one file for one allocation.
  for (const char* id : {"first", "early", "block", "never"}) {
    std::string from = std::string("id: a-") + id;
    second.replace(second.find(from), from.size(), std::string("id: b-") + id);
  }
  TempFile tmp("");
  std::string path = (tmp.dir() / "twice.yaml").string();
  capops::testing::WriteFile(path, movable + "---\n" + second);
  Linted linted("", path, 64);
  REQUIRE(linted.report->facts.size() == 2);
  uint32_t second_line = linted.report->facts[1].document.line;
  size_t fixed_first = 0, fixed_second = 0;
  const auto& violations = linted.report->findings.violations;
  for (size_t i = 0; i < violations.size(); ++i) {
    if (violations[i].fixes.empty()) continue;
    bool in_second = violations[i].loc.line >= second_line;
    ++(in_second ? fixed_second : fixed_first);
    CHECK(linted.report->first_fix_facts.count(i) == (in_second ? 0u : 1u));
  }
  CHECK(fixed_first >= 1);
  CHECK(fixed_second >= 1);
  std::vector<FileId> files{linted.report->facts[0].document.file};
  report::ChartOptions options;
  options.first_fix_facts = &linted.report->first_fix_facts;
  for (size_t doc : {0, 1}) {
    std::vector<PoolChart> charts =
        report::BuildPoolCharts(linted.report->facts[doc], violations, files, options);
    CHECK(linted.Chart(charts, "train-eu").ghosts.size() == (doc == 0 ? 2u : 0u));
  }
}

TEST_CASE("the page draws each first repair as a ghost linked from its card", "[report][html]") {
  auto page = [](const std::string& fixture, const char* lints) {
    auto r = RunCli({"--no-config", "--format", "html", "--max-repair-lints", lints,
                     kSupplyFixtures + fixture});
    CHECK(r.exit_code == 1);
    return r.out;
  };
  std::string movable = page("movable.yaml", "16");
  Linted linted("", kSupplyFixtures + "movable.yaml", 16);
  std::string early = std::to_string(SupplyFinding(*linted.report, "a-early"));
  std::string ghost = "id=\"ghost-0-" + early + "\"";
  REQUIRE(movable.find(ghost) != std::string::npos);
  size_t at = movable.find(ghost);
  std::string drawn = movable.substr(at, movable.find("</a>", at) - at);
  CHECK(drawn.find("<title>move `a-early` to start 2027-04-23") != std::string::npos);
  CHECK(drawn.find("a-early would hold 4 GPUs from 2027-04-23 to 2027-04-28") != std::string::npos);
  CHECK(movable.find("href=\"#ghost-0-" + early + "\"") != std::string::npos);  // from its card
  CHECK(Count(movable, "<p class=\"repair\">") == 2);
  CHECK(Count(movable, "class=\"key ghost\"") == 1);
  // Without the search there is neither, and a repair that moves nothing
  // has its line on the card and no ghost.
  std::string none = page("movable.yaml", "0");
  CHECK(none.find("class=\"ghost\"") == std::string::npos);
  CHECK(none.find("<p class=\"repair\">") == std::string::npos);
  std::string ranked = page("ranked.yaml", "16");
  CHECK(ranked.find("<p class=\"repair\"><b>repair</b> cite `r-spare`") != std::string::npos);
  CHECK(ranked.find("class=\"ghost\"") == std::string::npos);
  CHECK(ranked.find("class=\"key ghost\"") == std::string::npos);
}

}  // namespace
}  // namespace capops
