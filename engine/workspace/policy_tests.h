// SPDX-License-Identifier: Apache-2.0
// Running the policy tests of a rule set (`test` declarations in
// `*_test.cpl` files), with rule and condition coverage: what
// `capops-lint test` does, for any program.
//
//   PolicyTestRun run = RunPolicyTests(&engine, /*coverage=*/true);
//   run.failed …  run.coverage->clause_percent() …
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/engine.h"

namespace capops::workspace {

/// A `where` clause or a `when` guard and how the tests saw it.
struct Condition {
  Span span;
  std::string keyword;  // "where" or "when"
  eval::ClauseCoverage seen;
  bool covered() const { return seen.seen_true > 0 && seen.seen_false > 0; }
};

/// One rule's coverage over all tests.
struct RuleCoverage {
  const check::RuleInfo* rule = nullptr;
  bool fired = false;                 // some test saw it fire
  bool quiet = false;                 // some test saw it stay quiet
  std::vector<Condition> conditions;  // its `where` clauses, then its `when`s
};

/// Coverage over all tests, by rule (in rule-id order).
struct CoverageSummary {
  std::vector<RuleCoverage> rules;
  size_t rules_covered = 0, clauses = 0, clauses_covered = 0;
  double rule_percent() const { return rules.empty() ? 100 : 100.0 * rules_covered / rules.size(); }
  double clause_percent() const { return clauses == 0 ? 100 : 100.0 * clauses_covered / clauses; }
};

struct PolicyTestRun {
  std::vector<PolicyTestResult> results;  // in the order of Engine::Tests
  size_t failed = 0;
  std::optional<CoverageSummary> coverage;  // when asked for
};

/// Runs every test of a compiled engine (adding their facts to its
/// sources). A test whose fact file cannot be read fails, saying why.
PolicyTestRun RunPolicyTests(Engine* engine, bool coverage);

/// A condition's source text on one line, cut at 80 characters.
std::string ConditionText(const SourceManager& sources, const Condition& c);

}  // namespace capops::workspace
