// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness for a whole lint: the fuzzed text is first classified as
// directory discovery does (workspace::ClassifyFile), then linted as a plan file
// with the shipped pack (policies/capops-ai/*.cpl + stdlib) against the
// example inventory, and the report is rendered in every output format
// capops-lint writes (text with --explain traces, short, JSON, SARIF, JUnit,
// GitHub annotations).
//
// Compiling the pack is slow, so one Engine serves many inputs. Engine::Lint
// keeps every fact text it is given (reports quote them), so the engine is
// rebuilt every kRunsPerEngine inputs to keep memory flat over long runs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/report/ci_report.h"
#include "engine/report/report.h"
#include "engine/workspace/plan_set.h"
#include "fuzz/fuzz_support.h"

namespace {

using namespace capops;

constexpr int kRunsPerEngine = 2000;

struct Setup {
  std::vector<TextFile> pack = fuzz::ReadCplFolder("policies/capops-ai");
  TextFile inventory = fuzz::ReadSourceFile("examples/visual-inspection/inventory.yaml");
  std::unique_ptr<Engine> engine;
  int runs = 0;

  Engine& Fresh() {
    if (!engine || ++runs >= kRunsPerEngine) {
      engine = fuzz::CompiledEngine(pack);
      runs = 0;
    }
    return *engine;
  }
};

Setup& GetSetup() {
  static Setup* setup = new Setup();  // lives for the process: not a leak
  return *setup;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  GetSetup().Fresh();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Setup& setup = GetSetup();
  Engine& engine = setup.Fresh();
  std::string text(reinterpret_cast<const char*>(data), size);
  Diagnostic note;
  workspace::ClassifyFile("plan.yaml", text, engine.options().facts, &note);
  LintOptions traced;  // exercise --explain
  traced.trace = true;
  SourceManager sources(&engine.sources());
  eval::LintReport report =
      engine.Lint({{"plan.yaml", std::move(text)}}, {setup.inventory}, traced, &sources);
  std::ostringstream out;
  report::WriteText(sources, report, {.explain = true, .color = false}, out);
  report::WriteShort(sources, report, out);
  report::WriteJson(sources, report, "fuzz", out);
  report::CiOptions ci{"fuzz", {"plan.yaml"}};
  std::vector<report::RuleDescriptor> rules = report::DescribeRules(*engine.program(), sources);
  report::WriteSarif(sources, report, rules, ci, out);
  report::WriteJunit(sources, report, rules, ci, out);
  report::WriteGithub(sources, report, out);
  return 0;
}
