// SPDX-License-Identifier: Apache-2.0
// What an evaluation produces: violations with their evidence and trace.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/diagnostic.h"
#include "engine/common/source.h"
#include "engine/common/units.h"
#include "engine/common/value.h"

namespace capops::eval {

/// A span of time [start, end), to the second and open at either side: what
/// a `Window` or `Interval` fact covers, and a step of a timeline. Each side
/// keeps the form its date was written in, to print it so; intervals are
/// equal when they span the same time.
struct Interval {
  static constexpr int64_t kOpenStart = INT64_MIN;
  static constexpr int64_t kOpenEnd = INT64_MAX;
  int64_t start = kOpenStart;                  // seconds since 1970-01-01T00:00Z, inclusive
  int64_t end = kOpenEnd;                      // exclusive
  int16_t start_offset = DateTime::kDateOnly;  // DateTime::offset of each side
  int16_t end_offset = DateTime::kDateOnly;

  DateTime Start() const { return {start, start_offset}; }
  DateTime End() const { return {end, end_offset}; }
  friend bool operator==(const Interval& a, const Interval& b) {
    return a.start == b.start && a.end == b.end;
  }
};

/// One binding of a rule's `for`/`let` variable when the violation fired.
struct Evidence {
  std::string name;   // the variable
  std::string value;  // its identity: an id, or the value as a literal
  SourceLoc loc;      // where the value is in the facts, if it came from them
  // The fact the finding points at (`name` is the `at` expression), shown
  // because no binding is a located fact; already the finding's location,
  // so not part of its identity.
  bool at_fact = false;
  /// The binding in a planner's words, set by the lint run: a record by
  /// its kind and id (allocation `a-explore`), another value of the facts
  /// by where it is (demand `serve`: `floor` is 4); "" for a value that is
  /// not in the facts. Not part of the finding's identity.
  std::string shown;
};

/// A sub-expression of a traced clause and the value it had.
struct TraceValue {
  std::string expr;   // its CPL text
  std::string value;  // as a literal
  SourceLoc loc;      // the sub-expression in the policy
  SourceLoc fact;     // where the value came from in the facts, if it did
  SourceLoc anchor;   // where to show the value: its operator, field or function name
  bool per_item =
      false;  // read in a comprehension's body: its value for the last item it looked at
};

/// A secondary place in the facts that a violation rests on.
struct Label {
  SourceLoc loc;
  std::string message;  // e.g. "`p.role` is `production-replacement`"
  /// What the lint run words the label again with, in the facts' terms
  /// (`pool `serve-eu-spare`: `role` is …`), then clears: the value as a
  /// literal ("" for a label that is not a value's) and the field the rule
  /// read it as (`role` for `p.role`; "" when read through a variable).
  std::string value = {};
  std::string field = {};
};

/// A condition that held (a `where`, a `for` over timeline steps, a `when`),
/// or a clause why-not stopped at, with its sub-expressions' values.
struct TraceStep {
  std::string clause;              // the clause's CPL text
  std::string value;               // what it evaluated to ("true")
  SourceLoc loc;                   // the clause in the policy
  std::vector<TraceValue> values;  // innermost first, as evaluated
};

/// Why a violation is reported but not counted toward failure: a waiver covers it.
struct Suppression {
  std::string owner;          // who accepted the finding
  std::string justification;  // the waiver's reason
  std::string expires;        // YYYY-MM-DD, the last day the waiver applies
  SourceLoc loc;              // the waiver's entry in its file
};

/// A param a finding rests on: its value when the rule ran, and where that
/// value was set.
struct ParamUse {
  std::string name;       // as declared: `max_memory_pressure`
  std::string qualified;  // with its package: `capops.ai.readiness.max_memory_pressure`
  Value value;
  /// "pack default, readiness.cpl:120", ".capops.yaml:7" or
  /// ".capops.yaml:9, for CAP-RDY-003" (Engine's ParamSource::Text).
  std::string set_at;
};

/// Supply to acquire that would cover a capacity finding no plan edit
/// repairs (engine/repair; CAP-SUP-005): how many GPUs of which type, where
/// and when. Advice for the people who hold capacity, never an edit — the
/// engine does not write supply into an inventory, so it is no Fix, `--fix`
/// and quick fixes never see it, and SARIF carries it in `properties`.
/// Proved as a repair is: the plan linted again with a confirmed record of
/// exactly this (in memory only) cited by the allocation shows the finding
/// gone and no new error.
struct Acquisition {
  /// The GPUs short at the finding's worst stretch.
  int64_t gpus = 0;
  /// The pool's accelerator type, region ("" when it names none) and
  /// managed service ("" for our own capacity).
  std::string accelerator;
  std::string region;
  std::string service;
  /// When it is needed: the allocation's window (its own, else its
  /// demand's) as dates; `end` is exclusive. "" on a side the window leaves
  /// open: no `end` when it runs on from its start, neither when the
  /// allocation holds its GPUs at all times.
  std::string start;
  std::string end;
  /// For people: "reserve 4 × h100-80 in eu-west, 2027-04-19..04-22, and
  /// cite it in `a-tune`'s evidence".
  std::string description;

  friend bool operator==(const Acquisition&, const Acquisition&) = default;
};

struct Violation {
  std::string rule_id;
  std::string rule_name;
  Severity severity = Severity::kError;
  std::string message;
  SourceLoc loc;         // the `at` value in the facts
  SourceLoc policy_loc;  // the deny/warn statement in the policy
  std::string because;
  std::string fix;  // the rule's advice, in words
  std::vector<Evidence> evidence;
  std::vector<Label> labels;               // other facts its `where` clauses read
  std::vector<TraceStep> trace;            // only with EvalOptions::trace
  std::optional<Suppression> suppression;  // set: waived; listed, never counted
  /// Which deny/warn statement fired: its kind, `when` and `at` in canonical
  /// form (the same whatever the other statements of the rule are).
  std::string statement;
  /// The message's names and lists (its string, list and map holes, each
  /// followed by \x1f): what the finding is about, without its numbers.
  std::string subject;
  /// When the rule iterated over a timeline (`for o in used.over(…)`): the
  /// window of the innermost step it was at when it fired, which is the
  /// stretch of time the finding is about. Unset for other findings.
  std::optional<Interval> interval;
  /// The size of the problem, when the rule states one: for a finding made
  /// on a step of `t.over(bound)` (or `t.under(bound)`, either maybe
  /// filtered), how far the step's amount is above (below) the bound — the
  /// GPUs short, the GPUs past a pool's capacity. Null for other findings.
  /// Not part of a finding's identity: a baseline records it and reports a
  /// known finding whose measure grew (BaselineNote).
  Value measure;
  /// What the measure is, for people: "over `capacity`", "under `a.gpus`".
  std::string measure_of;
  /// Set by a baseline that lists the finding with a smaller measure, which
  /// therefore reports it: the measure the baseline recorded. Else null.
  Value baseline_measure;
  /// The params the rule reads, in order of first use (also through the
  /// functions it calls), as the rule read them; shared by the rule's
  /// findings. Not part of a finding's identity. Null: none, or not named.
  std::shared_ptr<const std::vector<ParamUse>> params;
  /// Where the maps are that the `at` value was read through, innermost
  /// first (`a.window.start`: `a.window`, then `a`): which copy of a value
  /// that `<<` merged into several maps the finding is about. For the lint
  /// run, which reads and clears it (so it is not cached).
  std::vector<SourceLoc> at_owners;
  /// The `<<` that merged the value at `loc` into the fact the finding is
  /// about (set by the lint run); unset for a value where it is written.
  /// Part of the finding's identity: two copies are two facts.
  SourceLoc via;
  /// Changes computed for this finding (engine/repair), the least first,
  /// each proved to remove it without adding an error. Empty when none
  /// was found, and for a finding whose rule has no repair search. Not
  /// part of a finding's identity.
  std::vector<Fix> fixes;
  /// When no fix was proved for a capacity finding: the supply that would
  /// cover it, proved likewise (Acquisition; shared, as it is rare and a
  /// finding is copied often). Not part of its identity.
  std::shared_ptr<const Acquisition> acquisition;
};

/// A rule's output over one set of facts. Rule errors (a rule that could not
/// be evaluated: missing data, a type clash) are Diagnostics whose code is the
/// rule id; they count as findings, never as a pass.
struct EvalResult {
  std::vector<Violation> violations;
  Diagnostics errors;
  /// Expressions evaluated (the unit of the step budget): the work done,
  /// as a count that does not depend on the machine.
  uint64_t steps = 0;
  /// Bytes of the strings, lists and maps evaluation built (the unit of
  /// the memory budget), whether or not they were freed since.
  uint64_t bytes = 0;
  /// Items the rule's loops and comprehensions went through (a join's
  /// candidates only), and the lookups its join indexes answered with the
  /// items they picked: how much of the facts the rule read.
  uint64_t visited = 0;
  uint64_t index_probes = 0;
  uint64_t index_picked = 0;
};

/// What one rule cost over a lint run (`capops-lint --profile`), summed
/// over the plans it ran on.
struct RuleCost {
  uint64_t nanos = 0;  // wall time of its evaluations
  uint64_t evaluations = 0;
  uint64_t steps = 0;
  uint64_t bytes = 0;
  uint64_t visited = 0;
  uint64_t index_probes = 0;
  uint64_t index_picked = 0;
  uint64_t findings = 0;  // violations and rule errors
};

/// Per rule id, what its evaluations cost. Filled only when
/// EvalOptions::profile points at one; the rules then run one at a time,
/// each alone, so that each is charged its own time.
struct Profile {
  std::map<std::string, RuleCost> rules;
  /// The join indexes shared between rules: a rule that asks for one
  /// first pays for building it.
  uint64_t shared_indexes = 0;
};

/// How often one `where` or `when` condition held and failed (policy test coverage).
struct ClauseCoverage {
  uint64_t seen_true = 0;
  uint64_t seen_false = 0;
};

/// Condition outcomes across evaluations, by rule id, then by index: first
/// the rule's clauses (`where`s; `for`/`let` entries stay zero), then its
/// deny/warn statements (their `when`). Filled only when
/// EvalOptions::coverage points at one.
struct Coverage {
  std::map<std::string, std::vector<ClauseCoverage>> rules;
};

/// Everything one lint run found, ready for a report.
struct LintReport {
  std::vector<Violation> violations;  // sorted by file, line, column, rule
  Diagnostics errors;                 // fact-file problems and rule errors, sorted
  std::string ruleset_digest;         // "sha256:…" of the policy sources
  size_t files = 0;                   // fact files read
  size_t plans = 0;                   // plan documents evaluated
  size_t rules = 0;                   // rules in the rule set
  size_t baselined = 0;               // findings left out because the baseline lists them
};

/// Whether measure `now` is larger than `before`: both numbers (int or
/// double), durations, or quantities of one dimension. False for anything
/// else, null included: a measure that cannot be compared is not worse.
bool MeasureGrew(const Value& now, const Value& before);
/// What every report says of a finding a baseline lists with a smaller
/// measure: "worse than the baseline: 12 over `0`, baseline 4"; "" for
/// any other finding.
std::string BaselineNote(const Violation& v);

/// Notes, at a plan document, that its rules were not evaluated because its
/// facts (or its inventory's) break the schema; reports that list rules per
/// plan show them as not run, never as passed.
Diagnostic& NoteNotEvaluated(Diagnostics* diags, SourceLoc plan);
/// Whether `d` is such a note.
bool IsNotEvaluatedNote(const Diagnostic& d);

/// Puts violations in report order — by file path, line, column, rule, then
/// message — keeping the order of equal ones. With `drop_repeats`, a
/// violation equal to the one before it in that order is dropped (an
/// inventory finding found again for every plan).
void SortViolations(const SourceManager& sources, std::vector<Violation>* violations,
                    bool drop_repeats = false);

}  // namespace capops::eval
