// The shipped pack against its fixtures: for every rule, a fact file that
// must make it fire and one that must leave it quiet, both without errors.
//   policies/capops-ai/fixtures/<RULE-ID>/fires.yaml
//   policies/capops-ai/fixtures/<RULE-ID>/quiet.yaml
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "tests/support/fixture.h"

namespace capops {
namespace {

namespace fs = std::filesystem;

const fs::path kPack = fs::path(CAPOPS_SOURCE_DIR) / "policies" / "capops-ai";

std::unique_ptr<testing::Compiled> CompilePack() {
  auto c = std::make_unique<testing::Compiled>();
  testing::AddStdlib(&c->engine);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kPack)) {
    if (entry.path().extension() == ".cpl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    c->engine.AddPolicy(f.filename().string(),
                        testing::ReadSourceFile(fs::relative(f, CAPOPS_SOURCE_DIR).string()));
  }
  c->ok = c->engine.Compile(&c->diagnostics);
  return c;
}

size_t CountRule(const eval::LintReport& report, const std::string& rule) {
  return std::count_if(report.violations.begin(), report.violations.end(),
                       [&](const eval::Violation& v) { return v.rule_id == rule; });
}

TEST_CASE("every rule of the pack fires on its fixture and stays quiet on the other", "[policies]") {
  auto pack = CompilePack();
  REQUIRE(pack->ok);
  std::set<std::string> rules;
  for (const check::RuleInfo& r : pack->engine.program()->rules) rules.insert(r.id);
  REQUIRE(rules.size() >= 3);

  std::set<std::string> tested;
  for (const auto& entry : fs::directory_iterator(kPack / "fixtures")) {
    std::string rule = entry.path().filename().string();
    tested.insert(rule);
    INFO("rule " << rule);
    CHECK(rules.count(rule) == 1);
    for (const char* name : {"fires.yaml", "quiet.yaml"}) {
      INFO(name);
      std::string text = testing::ReadSourceFile(fs::relative(entry.path() / name, CAPOPS_SOURCE_DIR).string());
      eval::LintReport r = pack->engine.Lint({{name, text}}, {});
      CHECK(testing::Lines(r.errors).empty());
      if (std::string(name) == "fires.yaml") {
        CHECK(CountRule(r, rule) >= 1);
      } else {
        CHECK(CountRule(r, rule) == 0);
      }
    }
  }
  for (const std::string& rule : rules) {
    INFO("rule without fixtures: " << rule);
    CHECK(tested.count(rule) == 1);
  }
}

}  // namespace
}  // namespace capops
