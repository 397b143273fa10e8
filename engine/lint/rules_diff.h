// SPDX-License-Identifier: Apache-2.0
// Rule set diff: what changes between two versions of a rule set, and what
// the change does to the findings — the pre-merge check of a policy
// repository, `capops-lint rules --diff OLD NEW [PLAN…]`.
//
// Rules are matched by id. A rule on one side only is added or removed; a
// rule on both sides is changed when its metadata (name, severity, owner,
// tags, source, doc comment), one of its deny/warn statements (guard, `at`,
// message template, because, fix), a param it reads (type or default value)
// or one of its `for`/`let`/`where` clauses differs. Clauses are compared by
// their canonical form (syntax::CanonicalExpr), so layout and comments never
// count, and the two clause lists are aligned first (longest common
// subsequence), so an inserted clause is "added", not "every clause after it
// changed".
//
// Findings are compared over fact sets that both rule sets lint: the test
// fixtures of both versions' policy tests (a fixture that both versions hold
// with the same content is linted once) and the plans given. A finding is
// identified like a baseline entry (finding_key.h) — rule, file, fact path
// and bindings, no line numbers — so it "disappears" only when the new rule
// set no longer reports it there. Bindings only tell apart findings at one
// place: a `let` added to a rule changes them all, yet no finding is new.
// Rule errors (fail closed) count as findings. A finding both versions
// report is unchanged unless its severity changed (a warning made an error:
// it may now fail the run, VerdictChange) or its measure did (the size of
// the problem, as a baseline records it: worse when it grew, better when it
// shrank); each of those is a category of its own.
//
//   RulesDiff rules = DiffRules(old_engine, new_engine);
//   FindingsDiff findings;
//   for (const FactSet& s : fixtures) DiffFindingsOn(&old_engine, &new_engine, s, &findings);
//   DiffPlanReports(old_engine, old_facts, a, new_engine, new_facts, b, plans, &findings);
//   report::WriteRulesDiff(rules, findings, "text", out);   // report/rules_diff_report.h
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/api/engine.h"
#include "engine/lint/fail_on.h"

namespace capops::lint {

/// A rule as the diff lists it.
struct RuleSummary {
  std::string id;
  std::string name;
  std::string severity;
  std::string defined_at;  // file:line
};

/// One field that differs; `old_value` is empty when it was added,
/// `new_value` when it was removed.
struct FieldChange {
  std::string field;  // "severity", "param research_slices", "deny 1 message" …
  std::string old_value;
  std::string new_value;
};

/// A clause of a changed rule that differs.
struct ClauseChange {
  enum class Kind { kChanged, kAdded, kRemoved };
  Kind kind = Kind::kChanged;
  size_t old_index = 0;  // 1-based position among the rule's clauses; 0 when added
  size_t new_index = 0;  // 0 when removed
  std::string keyword;   // `for`, `let` or `where` (the new one's when changed)
  std::string old_text;  // the clause's source on one line; empty when added
  std::string new_text;  // empty when removed
};

struct RuleChange {
  RuleSummary rule;  // as in the new version
  std::vector<FieldChange> fields;
  std::vector<FieldChange> params;
  std::vector<ClauseChange> clauses;
};

struct RulesDiff {
  std::string old_label, new_label;  // the versions, as given
  std::string old_digest, new_digest;
  std::vector<RuleSummary> added, removed;
  std::vector<RuleChange> changed;
  size_t unchanged = 0;
};

/// A finding that appears or disappears.
struct DiffFinding {
  std::string rule;
  std::string severity;
  std::string file;
  uint32_t line = 0, column = 0;
  std::string at;       // fact path of the value it points at; "" when none
  std::string message;  // rule errors: "rule error: …"
  std::string key;      // what is compared: FindingKey::Fingerprint
  std::string
      statement;  // FindingKey::statement: pairs a changed finding with its own statement first
  Value measure;  // eval::Violation::measure; null when the rule states none
  std::string measure_of;  // what it is: "over `capacity`"
  // For a finding both versions report that changed: how the old one had it.
  std::string old_severity;
  Value old_measure;
};

struct FindingsDiff {
  std::vector<DiffFinding> appeared;          // sorted by file, line, column, rule
  std::vector<DiffFinding> disappeared;       // likewise
  std::vector<DiffFinding> severity_changed;  // both report it, at another severity (its
                                              // measure may have changed too); likewise
  std::vector<DiffFinding> worse;   // both report it at one severity, its measure grew; likewise
  std::vector<DiffFinding> better;  // … its measure shrank; likewise
  std::set<std::string> unchanged;  // keys reported by both versions, alike
  size_t fixtures = 0;              // test fact sets linted
  size_t plans = 0;                 // plan files linted
};

/// A severity-changed finding against a `--fail-on` threshold: +1 when it
/// fails the run now and did not before, -1 when it no longer does, else 0.
int VerdictChange(const DiffFinding& f, FailOn fail_on);

/// The findings of one rule in each category; rules in id order, only those
/// with a finding in either version.
struct RuleFindingCounts {
  std::string rule;
  size_t appeared = 0, disappeared = 0, severity_changed = 0, worse = 0, better = 0, unchanged = 0;
  /// Whether any finding of the rule is not unchanged.
  bool changed() const { return appeared + disappeared + severity_changed + worse + better > 0; }
};
std::vector<RuleFindingCounts> CountByRule(const FindingsDiff& diff);

/// The facts of one policy test, read.
struct FactSet {
  std::vector<TextFile> plans;
  std::vector<TextFile> inventories;
};

/// Compares the rules of two compiled engines.
RulesDiff DiffRules(const Engine& old_rules, const Engine& new_rules);

/// Lints one fact set with both engines and adds the difference to `*diff`
/// (a finding already listed from another fact set is not listed twice).
void DiffFindingsOn(Engine* old_rules, Engine* new_rules, const FactSet& facts, FindingsDiff* diff);

/// The same over plan files with their inventories (plan_set.h). False with
/// `*error` set when a file cannot be read.
/// Compares two lints of the same plan files, each located in its own
/// sources (an extension of its engine's), and counts `plan_files`.
void DiffPlanReports(const Engine& old_rules, const SourceManager& old_facts,
                     const eval::LintReport& old_report, const Engine& new_rules,
                     const SourceManager& new_facts, const eval::LintReport& new_report,
                     size_t plan_files, FindingsDiff* diff);

}  // namespace capops::lint
