// SPDX-License-Identifier: Apache-2.0
// lint::Project: made once, shared by runs and threads, each run triaged
// through the one pipeline. The projects are opened on files held in memory.
#include "engine/lint/project.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <thread>

#include "engine/report/lint_report.h"
#include "engine/workspace/session.h"
#include "tests/support/fixture.h"
#include "tests/support/memory_workspace.h"

namespace capops::lint {
namespace {

const std::string kPlan = testing::ReadSourceFile("examples/visual-inspection/plan.yaml");
const std::string kInventory = testing::ReadSourceFile("examples/visual-inspection/inventory.yaml");

// One group: the example plan (as `plan`) and its inventory.
RunInput Input(const std::string& plan) {
  RunInput input;
  input.plan_files = {"/repo/plan.yaml"};
  input.groups.count = 1;
  input.groups.read = [plan](size_t, std::vector<TextFile>* plans,
                             std::vector<TextFile>* inventories, std::string*) {
    plans->push_back({"/repo/plan.yaml", plan});
    inventories->push_back({"/repo/inventory.yaml", kInventory});
    return true;
  };
  return input;
}

std::string Json(const Report& report) {
  std::ostringstream out;
  report::WriteLintReport(report, report::Format::kJson, {"0.0.0"}, out);
  return out.str();
}

workspace::OpenedProject Open(testing::MemoryWorkspace* w, const std::string& config) {
  w->files.Add("/repo/.capops.yaml", config);
  workspace::SessionOptions options;
  options.config = "/repo/.capops.yaml";
  return workspace::OpenProject(w->files, options);
}

TEST_CASE("a project is made once and run by threads at once, each run its own report",
          "[lint][project]") {
  testing::MemoryWorkspace w;
  workspace::OpenedProject opened = Open(&w, "rules: {disable: [CAP-FIN-004]}\n");
  REQUIRE(opened.project);
  std::shared_ptr<const Project> project = opened.project;
  std::string alone = Json(project->Run(Input(kPlan)));
  CHECK(alone.find("CAP-SUP-001") != std::string::npos);
  CHECK(alone.find("CAP-FIN-004") == std::string::npos);
  std::string clean_plan = testing::ReadSourceFile("examples/visual-inspection/clean/plan.yaml");
  std::string a, b, c;
  std::thread t1([&] { a = Json(project->Run(Input(kPlan))); });
  std::thread t2([&] { b = Json(project->Run(Input(clean_plan))); });
  std::thread t3([&] { c = Json(project->Run(Input(kPlan))); });
  t1.join();
  t2.join();
  t3.join();
  CHECK(a == alone);
  CHECK(c == alone);
  CHECK(b != alone);
  // A report outlives the project handle it came from: it keeps what it points at.
  Report kept = project->Run(Input(kPlan));
  project.reset();
  opened.project.reset();
  CHECK(Json(kept) == alone);
}

TEST_CASE("a run whose waivers do not parse is refused, its findings kept for an editor to show",
          "[lint][project]") {
  testing::MemoryWorkspace w;
  w.files.Add("/repo/waivers.yaml", "waivers:\n  - rule: CAP-SUP-001\n");  // no file, owner…
  workspace::OpenedProject opened = Open(&w, "waivers: waivers.yaml\n");
  REQUIRE(opened.project);
  Report report = opened.project->Run(Input(kPlan));
  CHECK(report.status == Status::kUsage);
  REQUIRE_FALSE(report.problems.empty());
  CHECK(report.problem_sources->Path(report.problems.items()[0].loc.file) == "/repo/waivers.yaml");
  CHECK_FALSE(report.findings.violations.empty());
}

TEST_CASE("a partial run judges only the waivers of the files it read", "[lint][project]") {
  testing::MemoryWorkspace w;
  std::string entry = "    owner: reliability-lead\n    reason: known\n    expires: 2099-12-31\n";
  w.files.Add("/repo/waivers.yaml", "waivers:\n  - rule: CAP-ALC-002\n    file: other/plan.yaml\n" +
                                        entry);  // fires nowhere: stale in a whole run
  workspace::OpenedProject opened = Open(&w, "waivers: waivers.yaml\n");
  REQUIRE(opened.project);
  auto stale = [](const Report& r) {
    for (const Diagnostic& d : r.findings.errors.items()) {
      if (d.message.find("matches no finding") != std::string::npos ||
          d.message.find("stale") != std::string::npos)
        return true;
    }
    return false;
  };
  CHECK(stale(opened.project->Run(Input(kPlan))));
  RunInput partial = Input(kPlan);
  partial.partial = std::vector<std::string>{"/repo/plan.yaml", "/repo/inventory.yaml"};
  CHECK_FALSE(stale(opened.project->Run(std::move(partial))));
}

}  // namespace
}  // namespace capops::lint
