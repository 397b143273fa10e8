// SPDX-License-Identifier: Apache-2.0
// The report grows with the plan, not with the plan's steps × items: a
// plan of staggered allocations that all overfill one pool (each starts a
// quarter of a day after the last, each holds for ten days) gives one
// finding per stretch of time with a bounded list of holders, and every
// format stays within the multiple of the plan's size that the README
// documents, whatever the number of allocations.
#include <catch2/catch.hpp>
#include <sstream>

#include "engine/report/lint_report.h"
#include "tests/support/fixture.h"
#include "tests/support/memory_workspace.h"

namespace capops::report {
namespace {

// The clean example plan with `n` tuning demands of 4 GPUs on `train-eu`
// (16 GPUs), each window starting six hours after the one before.
std::string Staggered(int n) {
  std::string plan = testing::ReadSourceFile("examples/visual-inspection/clean/plan.yaml");
  std::string demands, allocations;
  for (int i = 0; i < n; ++i) {
    int hours = 6 * i;
    char start[32];
    std::snprintf(start, sizeof start, "2027-04-%02dT%02d:00Z", 1 + hours / 24, hours % 24);
    if (hours / 24 >= 30)
      std::snprintf(start, sizeof start, "2027-05-%02dT%02d:00Z", 1 + hours / 24 - 30, hours % 24);
    std::string id = std::to_string(i);
    demands += "  - {id: t" + id + ", slice: tuning, based_on: train-v3, window: {start: " + start +
               ", duration: 10d}, max_parallel_trials: 4, gpus_per_trial: 1, "
               "max_cost_per_1000_units: 1.5, max_hold: 10d, release_condition: done}\n";
    allocations += "  - {id: a" + id + ", demand: t" + id +
                   ", pool: train-eu, gpus: 4, evidence: [r-apr], queue_position: " + id + "}\n";
  }
  size_t at = plan.find("allocations:\n");
  REQUIRE(at != std::string::npos);
  plan.insert(at + std::string("allocations:\n").size(), allocations);
  plan.insert(at, demands);
  return plan;
}

struct Sizes {
  size_t plan = 0;
  std::map<Format, size_t> report;
  std::string text;
};

Sizes Measure(int n) {
  testing::MemoryWorkspace w;
  Sizes sizes;
  std::string plan = Staggered(n);
  sizes.plan = plan.size();
  w.files.Add("/repo/plans/plan.yaml", plan);
  w.files.Add("/repo/plans/inventory.yaml",
              testing::ReadSourceFile("examples/visual-inspection/clean/inventory.yaml"));
  workspace::SessionOptions options;
  options.plans = {"plans/plan.yaml"};
  options.no_config = true;
  workspace::LintSession session(std::move(options), &w.files);
  const lint::Report& r = session.Run();
  REQUIRE(r.status == lint::Status::kFindings);
  for (Format f : {Format::kText, Format::kJson, Format::kSarif, Format::kJunit, Format::kGithub,
                   Format::kHtml}) {
    std::ostringstream out;
    WriteLintReport(r, f, {"0.0.0"}, out);
    sizes.report[f] = out.str().size();
    if (f == Format::kText) sizes.text = out.str();
  }
  return sizes;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("a report grows with the plan, not with its timeline's steps times items",
          "[report][size]") {
  Sizes small = Measure(60);
  Sizes large = Measure(240);
  // The pool is overfilled in one stretch: one finding, at its worst step,
  // naming five holders and counting the rest.
  CHECK(Count(large.text, "error[CAP-ALC-004]") == 1);
  CHECK(Count(large.text, "error[CAP-SUP-006]") == 1);
  std::string finding = large.text.substr(large.text.find("error[CAP-ALC-004]"), 400);
  INFO(finding);
  CHECK(finding.find("176 are allocated at once") != std::string::npos);
  CHECK(finding.find("(the worst of a stretch from") != std::string::npos);
  CHECK(finding.find("`a9` (4) and 36 more") != std::string::npos);
  // The multiples the README documents, at both sizes; and the larger plan's
  // multiple no larger than the smaller's by more than a tenth: linear.
  const std::map<Format, double> documented = {{Format::kText, 16},   {Format::kJson, 40},
                                               {Format::kSarif, 56},  {Format::kJunit, 16},
                                               {Format::kGithub, 16}, {Format::kHtml, 56}};
  for (const auto& [format, most] : documented) {
    INFO("format " << static_cast<int>(format));
    double a = double(small.report[format]) / double(small.plan);
    double b = double(large.report[format]) / double(large.plan);
    CHECK(a <= most);
    CHECK(b <= most);
    CHECK(b <= a * 1.1);
  }
}

}  // namespace
}  // namespace capops::report
