// SPDX-License-Identifier: Apache-2.0
// Runs a rule set's policy tests and sums up their coverage. Entry point:
// RunPolicyTests.
#include "engine/workspace/policy_tests.h"

#include <filesystem>

#include "engine/workspace/pack_locator.h"

namespace capops::workspace {

namespace {

namespace fs = std::filesystem;

// Reads a test's fact sources; a file that cannot be read fails the test.
// Once read, each is named beside the test file as reports name that file
// (`shown_test`: its path in its pack), so that no finding of the test
// shows the machine's path of an installed pack.
bool ReadTestFacts(const PolicyTest& test, const std::string& shown_test, size_t limit,
                   std::vector<TextFile>* plans, std::vector<TextFile>* inventories,
                   std::string* error) {
  fs::path dir = fs::path(test.path).parent_path();
  fs::path shown_dir = fs::path(shown_test).parent_path();
  for (const syntax::TestDecl::Facts& f : test.decl->facts) {
    if (f.kind == syntax::TestDecl::Facts::Kind::kInlineYaml) {
      plans->push_back(TextFile{shown_test + "#" + test.decl->name, f.value});
      continue;
    }
    TextFile file{(dir / f.value).lexically_normal().string(), {}};
    if (!ReadFile(file.path, &file.text, error, limit)) return false;
    file.path = (shown_dir / f.value).lexically_normal().string();
    (f.kind == syntax::TestDecl::Facts::Kind::kInventoryFile ? inventories : plans)
        ->push_back(std::move(file));
  }
  return true;
}

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

}  // namespace

std::string ConditionText(const SourceManager& sources, const Condition& c) {
  std::string_view text = sources.file(c.span.file).text();
  std::string out(text.substr(c.span.begin, c.span.end - c.span.begin));
  if (c.keyword == "when") out = "when " + out;
  for (char& ch : out) ch = ch == '\n' ? ' ' : ch;
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

PolicyTestRun RunPolicyTests(Engine* engine, bool coverage) {
  PolicyTestRun run;
  eval::Coverage seen;
  for (const PolicyTest& t : engine->Tests()) {
    std::vector<TextFile> plans, inventories;
    std::string error;
    PolicyTestResult r;
    std::string shown(engine->sources().ShownPath(t.loc.file));
    if (ReadTestFacts(t, shown, engine->options().facts.max_file_bytes, &plans, &inventories,
                      &error)) {
      r = engine->RunTest(t, plans, inventories, coverage ? &seen : nullptr);
    } else {
      r = PolicyTestResult{t.decl->name, t.path, t.loc, false, {}, {}, {error}, {}, {}};
    }
    run.failed += !r.passed;
    run.results.push_back(std::move(r));
  }
  if (coverage) run.coverage = Summarize(*engine->program(), run.results, seen);
  return run;
}

}  // namespace capops::workspace
