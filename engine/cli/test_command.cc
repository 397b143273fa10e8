// SPDX-License-Identifier: Apache-2.0
// The test command: collect the packs' tests, run each, print results and coverage.
#include "engine/cli/test_command.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/common/escape.h"
#include "engine/common/json_text.h"
#include "engine/workspace/policy_loader.h"
#include "engine/workspace/policy_tests.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The test's file as reports name it (its path in its pack), line and column.
std::string Where(const SourceManager& sources, const PolicyTestResult& r) {
  return Visible(sources.ShownPath(r.loc.file)) + ":" + std::to_string(r.loc.line) + ":" +
         std::to_string(r.loc.column);
}

void WriteDiff(const PolicyTestResult& r, std::ostream& out) {
  for (const ExpectationOutcome& o : r.outcomes) {
    if (o.met) continue;
    out << "  - " << Visible(ExpectationText(*o.expectation));
    out << (o.problem.empty() ? "  (found " + std::to_string(o.found) + ")"
                              : "  (" + Visible(o.problem) + ")")
        << '\n';
  }
  for (const TestFinding& f : r.findings) {
    out << (f.expected ? "    " : "  + ") << Visible(f.rule_id) << " at " << Visible(f.place)
        << ": " << Visible(f.message) << '\n';
  }
  for (const std::string& e : r.errors) out << "  ! " << Visible(e) << '\n';
}

std::string Percent(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", p);
  return buf;
}

void WriteCoverageText(const Engine& engine, const workspace::CoverageSummary& s,
                       std::ostream& out) {
  out << "\ncoverage:\n";
  for (const workspace::RuleCoverage& rc : s.rules) {
    size_t covered = 0;
    for (const workspace::Condition& c : rc.conditions) covered += c.covered();
    out << "  " << rc.rule->id << "  " << (rc.fired ? "fired" : "NEVER FIRED") << ", "
        << (rc.quiet ? "quiet" : "NEVER QUIET") << ", conditions " << covered << "/"
        << rc.conditions.size() << '\n';
    for (const workspace::Condition& c : rc.conditions) {
      if (c.covered()) continue;
      SourceLoc loc = engine.sources().Resolve(c.span);
      const char* seen = c.seen.seen_true > 0    ? "only true"
                         : c.seen.seen_false > 0 ? "only false"
                                                 : "never evaluated";
      out << "      " << Visible(engine.sources().ShownPath(loc.file)) << ":" << loc.line << ": `"
          << Visible(workspace::ConditionText(engine.sources(), c)) << "` seen " << seen << '\n';
    }
  }
  out << "rules: " << s.rules_covered << "/" << s.rules.size() << " (" << Percent(s.rule_percent())
      << "), conditions (where/when): " << s.clauses_covered << "/" << s.clauses << " ("
      << Percent(s.clause_percent()) << ")\n";
}

json CoverageJson(const Engine& engine, const workspace::CoverageSummary& s) {
  json rules = json::array();
  for (const workspace::RuleCoverage& rc : s.rules) {
    json clauses = json::array();
    for (const workspace::Condition& c : rc.conditions) {
      SourceLoc loc = engine.sources().Resolve(c.span);
      clauses.push_back({{"kind", c.keyword},
                         {"file", engine.sources().ShownPath(loc.file)},
                         {"line", loc.line},
                         {"text", workspace::ConditionText(engine.sources(), c)},
                         {"seen_true", c.seen.seen_true},
                         {"seen_false", c.seen.seen_false}});
    }
    rules.push_back(
        {{"id", rc.rule->id}, {"fired", rc.fired}, {"quiet", rc.quiet}, {"conditions", clauses}});
  }
  return {{"rules", rules},
          {"rules_covered", s.rules_covered},
          {"rule_count", s.rules.size()},
          {"rule_percent", s.rule_percent()},
          {"conditions_covered", s.clauses_covered},
          {"condition_count", s.clauses},
          {"condition_percent", s.clause_percent()}};
}

json ResultJson(const SourceManager& sources, const PolicyTestResult& r) {
  json unmet = json::array();
  for (const ExpectationOutcome& o : r.outcomes) {
    if (!o.met)
      unmet.push_back({{"expectation", ExpectationText(*o.expectation)},
                       {"found", o.found},
                       {"problem", o.problem}});
  }
  json findings = json::array();
  for (const TestFinding& f : r.findings) {
    findings.push_back({{"rule", f.rule_id},
                        {"place", f.place},
                        {"location", f.location},
                        {"message", f.message},
                        {"expected", f.expected}});
  }
  return {{"name", r.name},     {"file", std::string(sources.ShownPath(r.loc.file))},
          {"line", r.loc.line}, {"passed", r.passed},
          {"unmet", unmet},     {"findings", findings},
          {"errors", r.errors}};
}

}  // namespace

int RunTest(const TestOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  if (!LoadPack(options.policies, options.color, &engine, err)) return kExitUsage;
  if (engine.Tests().empty())
    return Fail(err, "no `test` declarations found (tests go in `*_test.cpl` files)");
  // --min-coverage alone counts coverage too: it cannot be judged uncounted.
  workspace::PolicyTestRun run =
      workspace::RunPolicyTests(&engine, options.coverage || options.min_coverage >= 0);
  const std::vector<PolicyTestResult>& results = run.results;
  bool coverage_ok = !run.coverage || options.min_coverage < 0 ||
                     (run.coverage->rule_percent() >= options.min_coverage &&
                      run.coverage->clause_percent() >= options.min_coverage);
  if (options.format == report::Format::kJson) {
    json doc;
    if (run.coverage) doc["coverage"] = CoverageJson(engine, *run.coverage);
    doc["tests"] = json::array();
    for (const PolicyTestResult& r : results)
      doc["tests"].push_back(ResultJson(engine.sources(), r));
    doc["summary"] = {{"tests", results.size()},
                      {"passed", results.size() - run.failed},
                      {"failed", run.failed},
                      {"coverage_ok", coverage_ok}};
    doc["ruleset_digest"] = engine.ruleset_digest();
    out << JsonText(doc, 2) << '\n';
    return run.failed == 0 && coverage_ok ? kExitClean : kExitFindings;
  }
  for (const PolicyTestResult& r : results) {
    out << (r.passed ? "PASS " : "FAIL ") << Visible(r.name) << "  (" << Where(engine.sources(), r)
        << ")\n";
    if (!r.passed) WriteDiff(r, out);
  }
  if (run.coverage) {
    WriteCoverageText(engine, *run.coverage, out);
    if (!coverage_ok) out << "coverage is below --min-coverage " << options.min_coverage << "%\n";
  }
  out << results.size() << " test" << (results.size() == 1 ? "" : "s") << ": "
      << results.size() - run.failed << " passed, " << run.failed << " failed\n";
  return run.failed == 0 && coverage_ok ? kExitClean : kExitFindings;
}

}  // namespace capops::cli
