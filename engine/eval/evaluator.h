// SPDX-License-Identifier: Apache-2.0
// The evaluator: runs checked rules over facts and collects violations.
//
// A rule is a comprehension: its `for` clauses loop over lists (or map keys),
// `let` binds a value, `where` filters; every binding that reaches the end
// runs each `deny`/`warn` statement, which yields a Violation located at its
// `at` value in the facts. Expressions follow CEL's semantics: `&&` and `||`
// short-circuit and absorb errors when the other side decides the result
// (`false && error` is false), macros likewise; any other error is a value
// that propagates.
//
// Fail closed: a `for` over a non-list, a `let` or `where` that errors, a
// `where` that is not a bool, a message hole that errors — each is reported
// as a rule error (a Diagnostic coded with the rule id, located in the facts
// where possible, with the rule clause as a related location). Nothing is
// skipped silently. A budget of steps and of bytes stops rules whose loops
// explode or whose values grow without bound, and says so.
//
//   std::vector<Value> params = eval::EvaluateParams(program, sources, &diags);
//   eval::EvalResult r = eval::Evaluate(program, params, {plan, inventory}, sources, {});
//
// Thread-safety: what an evaluation reads is immutable once built, and
// nothing in it is written while rules run, not even a cache: the checked
// Program (its AST, tables and constants), the plan (plan::ProgramPlan,
// with its compiled patterns), the params and the facts. What an evaluation
// learns as it runs is kept by the call that owns it and goes with it:
//  - per rule and fact set, a RunState (engine/eval/run_state.h): the
//    budget, patterns compiled at run time, a field hint per expression,
//    and the values and indexes the plan remembers (eval::Memo);
//  - per EvaluateRules call (one thread), the id hints its rules share;
//  - per Evaluate call or Engine::Lint, the join indexes by a field that
//    its rules share, on any thread (engine/eval/shared_indexes.h).
// The one thing a fact list gains after it is made is its own id index,
// built on the first lookup by id and published once (Value::FindById): a
// function of its items alone. So several evaluations may run at once, on
// any threads, over the same or different facts (not with
// EvalOptions::coverage, whose counters are shared).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/check/checker.h"
#include "engine/eval/param_values.h"
#include "engine/eval/result.h"
#include "engine/plan/plan.h"

namespace capops::eval {

class SharedIndexes;

struct EvalOptions {
  bool trace = false;  // record the conditions each violation met (RuleRun::TraceBinding)
  /// Steps per rule and fact set (Engine's lint, why-not and eval: per MiB
  /// of facts, RunBudget in engine/api/lint_run.h): an
  /// expression evaluated is one, and work on long strings and lists one
  /// per 64 bytes it reads or writes (engine/eval/budget.h).
  uint64_t max_steps = 20'000'000;
  /// Bytes of strings, lists and maps one rule may build over one fact set:
  /// a value that would pass it is refused before it is built.
  uint64_t max_memory = uint64_t{256} << 20;
  size_t max_errors_per_rule = 20;        // rule errors reported per rule, then a count
  size_t max_violations_per_rule = 1000;  // then the rule stops, and says so
  /// When set, each `where` outcome is counted here (for `capops-lint test
  /// --coverage`); null costs nothing. Not thread-safe: one evaluation at a time.
  Coverage* coverage = nullptr;
  /// When set, what each rule costs is added here (`capops-lint
  /// --profile`); a lint run then runs its rules one at a time, each alone.
  Profile* profile = nullptr;
  /// The rule set's plan (plan::Build): with it, rules run planned (joins,
  /// invariant expressions computed once, hoisted clauses); null runs them
  /// as written. Findings are the same either way.
  const plan::ProgramPlan* plan = nullptr;
};

/// The fact roots a rule can read; an absent document is an empty map.
struct Facts {
  Value plan = Value::Map({});
  Value inventory = Value::Map({});
  /// The size of the fact files they were read from (every file of the
  /// run, as loaded): the step budget grows with it (Engine::Lint). 0 when
  /// the facts were not read from files.
  uint64_t file_bytes = 0;
};

/// Why `pattern` is not a usable regular expression (RE2 syntax, size
/// limits), or "" when it is.
std::string CheckRegex(const std::string& pattern);

/// The most characters a trace or the evidence shows of one value.
inline constexpr size_t kShownChars = 160;

/// A value as traces show it: short, a record by its id, a long text cut.
std::string TraceText(const Value& v);

/// Evaluates every param default (constants) in declaration order.
std::vector<Value> EvaluateParams(const check::Program& program, const SourceManager& sources,
                                  Diagnostics* diagnostics);

/// Runs every rule of `program` over `facts`; violations and errors are sorted.
/// Each rule reads its own list of `params` (ParamValues::For).
EvalResult Evaluate(const check::Program& program, const ParamValues& params, const Facts& facts,
                    const SourceManager& sources, const EvalOptions& options);

/// One rule of Evaluate (`program.rules[rule]`), unsorted. Rules are
/// independent: several may run at once on different threads (without
/// `options.coverage`). Evaluate = AppendResult of each rule in order, then
/// SortResult.
EvalResult EvaluateRule(const check::Program& program, size_t rule, const ParamValues& params,
                        const Facts& facts, const SourceManager& sources,
                        const EvalOptions& options);
/// Several rules of Evaluate, each result as EvaluateRule gives it (in the
/// order of `rules`). Planned rules that open with a `for` over the same
/// list share one pass over it: each item's facts are read once for all
/// of them, where rule after rule would read them from memory again.
/// Join indexes by a field are built in `*indexes` when given, shared with
/// the other calls given it (on any thread: engine/eval/shared_indexes.h),
/// else for this call alone.
std::vector<EvalResult> EvaluateRules(const check::Program& program,
                                      const std::vector<size_t>& rules, const ParamValues& params,
                                      const Facts& facts, const SourceManager& sources,
                                      const EvalOptions& options, SharedIndexes* indexes = nullptr);
void AppendResult(EvalResult part, EvalResult* whole);
void SortResult(const SourceManager& sources, EvalResult* result);

/// One standalone expression (`capops-lint eval`), checked into `tables`.
/// The value may be an error value (also when its text would pass the
/// memory budget: it is there to be printed); `trace` (if not null)
/// receives every sub-expression's value.
Value EvaluateExpression(const check::Program& program, const check::ModuleTables& tables,
                         uint32_t slot_count, const syntax::Expr& expr,
                         const std::vector<Value>& params, const Facts& facts,
                         const SourceManager& sources, const EvalOptions& options,
                         std::vector<TraceValue>* trace);

/// A statement run for a binding that passed every clause (`why-not`).
struct WhyNotStatement {
  TraceStep trace;      // the statement as far as its `when` (traced), else its `at`
  bool fired = false;   // it reports a finding for the binding
  std::string message;  // if so, the finding's message
  std::string error;    // set when its `when`, `at` or message erred
};

/// Why a rule did or did not fire for one binding (`why-not`).
struct WhyNotOutcome {
  std::vector<Evidence> bindings;  // the for/let variables bound on this path
  bool fired = false;              // a statement reports a finding for this binding
  /// A path that stops before the statements: the first clause that was
  /// false, erred, or (a `for`) had nothing to range over, traced. Empty
  /// when the binding passed every clause.
  std::string failed_clause;
  SourceLoc clause_loc;
  std::string error;      // set when that clause erred
  bool no_items = false;  // that clause is a `for` over an empty list
  TraceStep trace;
  /// A binding that passed every clause: each statement, whether it fires.
  std::vector<WhyNotStatement> statements;
};

struct WhyNotResult {
  bool in_domain = false;               // some `for` of the rule ranges over the fact
  std::vector<WhyNotOutcome> outcomes;  // one per binding path through the fact
  bool capped = false;                  // more paths than WhyNot's max_outcomes: not followed
};

/// The binding paths a why-not follows before it stops, by default.
inline constexpr size_t kWhyNotOutcomes = 20;

/// Replays `rule` over `facts` as written, following only the bindings in
/// which a `for` variable is the fact `focus` selects (the first `for`
/// whose items match), or every binding when `focus` is empty. Each path
/// ends at its first failing clause or runs the statements (their
/// findings are not reported); the first `max_outcomes` paths are kept.
WhyNotResult WhyNot(const check::Program& program, const check::RuleInfo& rule,
                    const ParamValues& params, const Facts& facts, const SourceManager& sources,
                    const EvalOptions& options, const std::function<bool(const Value&)>& focus,
                    size_t max_outcomes = kWhyNotOutcomes);

}  // namespace capops::eval
