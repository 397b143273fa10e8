// The test command: collect the packs' tests, run each, print results and coverage.
#include "engine/cli/test_command.h"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/api/engine.h"
#include "engine/cli/command_support.h"
#include "engine/cli/driver.h"
#include "engine/lint/pack_locator.h"
#include "engine/lint/policy_loader.h"
#include "engine/common/escape.h"
#include "engine/common/json_text.h"

namespace capops::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Reads a test's fact sources; a file that cannot be read fails the test.
bool ReadTestFacts(const PolicyTest& test, size_t limit, std::vector<TextFile>* plans,
                   std::vector<TextFile>* inventories, std::string* error) {
  fs::path dir = fs::path(test.path).parent_path();
  for (const syntax::TestDecl::Facts& f : test.decl->facts) {
    if (f.kind == syntax::TestDecl::Facts::Kind::kInlineYaml) {
      plans->push_back(TextFile{test.path + "#" + test.decl->name, f.value});
      continue;
    }
    TextFile file{(dir / f.value).lexically_normal().string(), {}};
    if (!lint::ReadFile(file.path, &file.text, error, limit)) return false;
    (f.kind == syntax::TestDecl::Facts::Kind::kInventoryFile ? inventories : plans)
        ->push_back(std::move(file));
  }
  return true;
}

std::string Where(const PolicyTestResult& r) {
  return Visible(r.path) + ":" + std::to_string(r.loc.line) + ":" + std::to_string(r.loc.column);
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

// A `where` clause or a `when` guard and how it was seen.
struct Condition {
  Span span;
  std::string keyword;  // "where" or "when"
  eval::ClauseCoverage seen;
  bool covered() const { return seen.seen_true > 0 && seen.seen_false > 0; }
};

// Coverage over all tests, by rule (in rule-id order).
struct RuleCoverage {
  const check::RuleInfo* rule = nullptr;
  bool fired = false;
  bool quiet = false;
  std::vector<Condition> conditions;  // its `where` clauses, then its `when`s
};

struct CoverageSummary {
  std::vector<RuleCoverage> rules;
  size_t rules_covered = 0, clauses = 0, clauses_covered = 0;
  double rule_percent() const { return rules.empty() ? 100 : 100.0 * rules_covered / rules.size(); }
  double clause_percent() const { return clauses == 0 ? 100 : 100.0 * clauses_covered / clauses; }
};

CoverageSummary Summarize(const check::Program& program,
                          const std::vector<PolicyTestResult>& results,
                          const eval::Coverage& seen) {
  CoverageSummary s;
  for (const check::RuleInfo& rule : program.rules) {
    RuleCoverage rc{&rule, false, false, {}};
    for (const PolicyTestResult& r : results) {
      rc.fired = rc.fired || r.fired.count(rule.id) != 0;
      rc.quiet = rc.quiet || r.quiet.count(rule.id) != 0;
    }
    auto it = seen.rules.find(rule.id);
    auto outcome = [&](size_t i) {
      return it != seen.rules.end() && i < it->second.size() ? it->second[i]
                                                             : eval::ClauseCoverage{};
    };
    const auto& clauses = rule.rule->clauses;
    for (size_t i = 0; i < clauses.size(); ++i) {
      if (clauses[i].kind == syntax::ClauseKind::kWhere)
        rc.conditions.push_back({clauses[i].span, "where", outcome(i)});
    }
    for (size_t e = 0; e < rule.rule->emits.size(); ++e) {
      const syntax::Emit& emit = rule.rule->emits[e];
      if (emit.when)
        rc.conditions.push_back({emit.when->span, "when", outcome(clauses.size() + e)});
    }
    for (const Condition& c : rc.conditions) s.clauses_covered += c.covered();
    s.clauses += rc.conditions.size();
    s.rules_covered += rc.fired && rc.quiet;
    s.rules.push_back(std::move(rc));
  }
  return s;
}

std::string ConditionText(const SourceManager& sources, const Condition& c) {
  std::string_view text = sources.file(c.span.file).text();
  std::string out(text.substr(c.span.begin, c.span.end - c.span.begin));
  if (c.keyword == "when") out = "when " + out;
  for (char& ch : out) ch = ch == '\n' ? ' ' : ch;
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

std::string Percent(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", p);
  return buf;
}

void WriteCoverageText(const Engine& engine, const CoverageSummary& s, std::ostream& out) {
  out << "\ncoverage:\n";
  for (const RuleCoverage& rc : s.rules) {
    size_t covered = 0;
    for (const Condition& c : rc.conditions) covered += c.covered();
    out << "  " << rc.rule->id << "  " << (rc.fired ? "fired" : "NEVER FIRED") << ", "
        << (rc.quiet ? "quiet" : "NEVER QUIET") << ", conditions " << covered << "/"
        << rc.conditions.size() << '\n';
    for (const Condition& c : rc.conditions) {
      if (c.covered()) continue;
      SourceLoc loc = engine.sources().Resolve(c.span);
      const char* seen = c.seen.seen_true > 0    ? "only true"
                         : c.seen.seen_false > 0 ? "only false"
                                                 : "never evaluated";
      out << "      " << Visible(engine.sources().Path(loc.file)) << ":" << loc.line << ": `"
          << Visible(ConditionText(engine.sources(), c)) << "` seen " << seen << '\n';
    }
  }
  out << "rules: " << s.rules_covered << "/" << s.rules.size() << " (" << Percent(s.rule_percent())
      << "), conditions (where/when): " << s.clauses_covered << "/" << s.clauses << " ("
      << Percent(s.clause_percent()) << ")\n";
}

json CoverageJson(const Engine& engine, const CoverageSummary& s) {
  json rules = json::array();
  for (const RuleCoverage& rc : s.rules) {
    json clauses = json::array();
    for (const Condition& c : rc.conditions) {
      SourceLoc loc = engine.sources().Resolve(c.span);
      clauses.push_back({{"kind", c.keyword},
                         {"file", engine.sources().Path(loc.file)},
                         {"line", loc.line},
                         {"text", ConditionText(engine.sources(), c)},
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

json ResultJson(const PolicyTestResult& r) {
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
  return {{"name", r.name}, {"file", r.path},       {"line", r.loc.line}, {"passed", r.passed},
          {"unmet", unmet}, {"findings", findings}, {"errors", r.errors}};
}

}  // namespace

int RunTest(const TestOptions& options, std::ostream& out, std::ostream& err) {
  Engine engine;
  std::string error;
  if (!lint::LoadPolicies(options.policies, &engine, &error)) return Fail(err, error);
  if (!CompileOrReport(&engine, options.color, err)) return kExitUsage;
  std::vector<PolicyTest> tests = engine.Tests();
  if (tests.empty())
    return Fail(err, "no `test` declarations found (tests go in `*_test.cpl` files)");
  eval::Coverage seen;
  std::vector<PolicyTestResult> results;
  size_t failed = 0;
  for (const PolicyTest& t : tests) {
    std::vector<TextFile> plans, inventories;
    PolicyTestResult r;
    if (ReadTestFacts(t, engine.options().facts.max_file_bytes, &plans, &inventories, &error)) {
      r = engine.RunTest(t, plans, inventories, options.coverage ? &seen : nullptr);
    } else {
      r = PolicyTestResult{t.decl->name, t.path, t.loc, false, {}, {}, {error}, {}, {}};
    }
    failed += !r.passed;
    if (!options.json) {
      out << (r.passed ? "PASS " : "FAIL ") << Visible(r.name) << "  (" << Where(r) << ")\n";
      if (!r.passed) WriteDiff(r, out);
    }
    results.push_back(std::move(r));
  }
  bool coverage_ok = true;
  json doc;
  if (options.coverage || options.min_coverage >= 0) {
    CoverageSummary s = Summarize(*engine.program(), results, seen);
    if (options.min_coverage >= 0) {
      coverage_ok =
          s.rule_percent() >= options.min_coverage && s.clause_percent() >= options.min_coverage;
    }
    if (options.json) {
      doc["coverage"] = CoverageJson(engine, s);
    } else {
      WriteCoverageText(engine, s, out);
    }
    if (!coverage_ok && !options.json)
      out << "coverage is below --min-coverage " << options.min_coverage << "%\n";
  }
  if (options.json) {
    doc["tests"] = json::array();
    for (const PolicyTestResult& r : results) doc["tests"].push_back(ResultJson(r));
    doc["summary"] = {{"tests", results.size()},
                      {"passed", results.size() - failed},
                      {"failed", failed},
                      {"coverage_ok", coverage_ok}};
    doc["ruleset_digest"] = engine.ruleset_digest();
    out << JsonText(doc, 2) << '\n';
  } else {
    out << results.size() << " test" << (results.size() == 1 ? "" : "s") << ": "
        << results.size() - failed << " passed, " << failed << " failed\n";
  }
  return failed == 0 && coverage_ok ? kExitClean : kExitFindings;
}

}  // namespace capops::cli
