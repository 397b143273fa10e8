// SPDX-License-Identifier: Apache-2.0
// The interpreter: runs one rule's IR (plan/ir.h) over one fact set
// (internal to engine/eval). It is the one place that says what a clause
// means — a scan binds each item, a let binds a value or stops the path
// with a rule error, a filter goes on when true — and the one place that
// turns a binding into a violation.
//
// Lint runs it alone, over the planned ops. Whatever else wants to watch a
// rule run is an observer of this same interpreter (RunObserver): coverage
// counts each condition's outcomes, why-not follows the bindings through
// one fact and records where each path stops. An observer sees the rule as
// written (plan::AsWritten: clauses in source order, no join), so each
// clause it reports is where its author put it; expressions are still
// remembered as planned. Tracing (EvalOptions::trace) is the interpreter's
// own: each violation carries the `where` clauses re-run with every value
// recorded.
//
//   RuleRun run(program, r, params, facts, sources, options, nullptr, nullptr, &result);
//   run.Run();
#pragma once

#include <string>
#include <vector>

#include "engine/eval/evaluator.h"
#include "engine/eval/expr_evaluator.h"
#include "engine/eval/read_ahead.h"
#include "engine/plan/ir.h"

namespace capops::eval {

class RuleRun;

/// A statement as far as its `when`, else its `at`: `deny when size(over) > 0`.
Span StatementHead(const syntax::Emit& emit);

/// Watches a RuleRun. Positions are op positions in RuleRun::ops(), which
/// for a run with an observer are the rule's clauses as written.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// Called once, before the run starts.
  virtual void Attach(RuleRun* run) { run_ = run; }
  /// True to stop the run now.
  virtual bool Done() const { return false; }
  /// The scan at `at` is about to visit `items`; then Visits() for each,
  /// then LeaveScan().
  virtual void EnterScan(size_t /*at*/, ListView /*items*/) {}
  virtual bool Visits(size_t /*at*/, const Value& /*item*/) { return true; }
  virtual void LeaveScan(size_t /*at*/) {}
  /// A filter, or a statement's `when`, gave a bool.
  virtual void Outcome(const plan::Op& /*op*/, bool /*held*/) {}
  /// The path ends at `at`: its filter is false, its scan has no item, or
  /// the op erred (`v`, the op's value: false, an empty list, an error, a
  /// value of the wrong kind).
  virtual void Ended(size_t /*at*/, const Value& /*v*/) {}
  /// A binding passed every clause: true to run its statements.
  virtual bool Reached() { return true; }
  /// Statement `at` ran for that binding: `fired` is the violation it
  /// reported, or null; then `why` says why not: its `when`'s value (false,
  /// an error, a value of the wrong kind) or the error of its `at` or message.
  virtual void Stated(size_t /*at*/, const Violation* /*fired*/, const Value& /*why*/) {}

 protected:
  RuleRun* run_ = nullptr;
};

/// What a shared pass reads ahead for the items of a scan (plan::Lookup):
/// one item ahead, once its strings have arrived (ReadAhead asks for them
/// two items ahead), each lookup starts reading the item it will find. A
/// lookup made by several rules of a shared pass is read once.
class LookupsAhead {
 public:
  void Add(const ExprEvaluator& eval, const std::vector<plan::Lookup>& lookups);
  // Before item k of the loop `ahead` reads ahead.
  void Step(const ReadAhead& ahead, size_t k) const {
    if (entries_.empty() || k + 1 >= ahead.count()) return;
    const Value& item = ahead.Item(k + 1);
    for (const Entry& e : entries_) {
      if (const Value* id = item.Field(e.field, e.hint))
        e.list->PrefetchItem(*e.run->IdHintFor(*e.list, *id));
    }
  }

 private:
  struct Entry {
    const Value* list;
    Key field;
    FieldHint* hint;  // the run's own, of the evaluator that added it
    RunState* run;    // whose id hints say which item a lookup will find
  };
  std::vector<Entry> entries_;
};

/// Runs one rule over one fact set, into `*out`.
class RuleRun {
 public:
  /// `observer` (null: none) watches the run, which then follows the rule
  /// as written. `id_hints` and `indexes` (null: the run's own) are shared
  /// with the other rules of an EvaluateRules call.
  RuleRun(const check::Program& program, size_t rule_index, const std::vector<Value>& params,
          const Facts& facts, const SourceManager& sources, const EvalOptions& options,
          IdHints* id_hints, SharedIndexes* indexes, EvalResult* out,
          RunObserver* observer = nullptr);

  void Run() {
    RunOps(0);
    Finish();
  }

  // A shared pass (EvaluateRules): rules whose IR opens with a scan of the
  // same list, without a join, visit its items together, so each item's
  // facts are read into the cache once for all of them. OpenLoop evaluates
  // that list (as the scan would, steps included); false when the rule does
  // not open so, or its list is not a list: then it runs alone, with Run().
  bool OpenLoop(Value* range);
  // The rest of the rule for one item of the opening scan's list.
  void RunItem(const Value& item);
  bool aborted() const { return aborted_; }
  // The lookups of the opening scan's item, for a shared pass to read ahead.
  void AddOpeningLookups(LookupsAhead* to) const { to->Add(eval_, ops_->ops[0].lookups); }
  // Reports what the run left unsaid: a spent budget, a cap, errors not shown.
  void Finish();

  // For observers.
  const check::RuleInfo& rule() const { return rule_; }
  const std::vector<plan::Op>& ops() const { return ops_->ops; }
  ExprEvaluator& evaluator() { return eval_; }
  const SourceManager& sources() const { return sources_; }
  /// The variables the scans and lets before `upto` have bound, each shown
  /// by its id or else by `text`.
  std::vector<Evidence> Bindings(size_t upto, std::string (*text)(const Value&)) const;
  /// The scan of the innermost `for` variable before `upto` bound to a
  /// timeline step, with the step's window in `*window`
  /// (Violation::interval); null when there is none.
  const plan::Op* InnermostStep(size_t upto, Interval* window) const;
  /// The clause or statement that `op` runs, as written.
  Span SpanOf(const plan::Op& op) const;
  /// The clause or statement at `span` (its text from there) traced:
  /// `expr` (null: none) evaluated again over the slots as they stand,
  /// every sub-expression's value recorded.
  TraceStep TraceAgain(const Span& span, const syntax::Expr* expr);

 private:
  void RunOps(size_t position);
  void RunScan(const plan::Op& op, size_t position);
  void RunEmits(size_t position);
  // The value of a let or filter `op`, or a rule error: then false and the
  // path ends there.
  bool Holds(const plan::Op& op, size_t position);
  // Reports statement `emit` for the binding; false, with `*why`, when it
  // reports nothing (Stated).
  bool Emit(const syntax::Emit& emit, const plan::Op& op, Value* why);
  bool When(const syntax::Emit& emit, const plan::Op& op, Value* why);
  void Measure(const plan::Op& step, Violation* v);
  const std::string& StatementKey(const syntax::Emit& emit, size_t index);
  std::vector<TraceStep> TraceBinding(const syntax::Emit& emit, std::vector<bool>* wheres);
  std::vector<Label> LabelsFrom(const std::vector<TraceStep>& trace,
                                const std::vector<bool>& wheres, const Violation& v) const;
  void RuleError(const Value& error, const Span& where, const char* what);

  const check::RuleInfo& rule_;
  const SourceManager& sources_;
  const EvalOptions& options_;
  EvalResult* out_;
  ExprEvaluator eval_;
  Memo memo_;
  RunObserver* observer_;
  plan::RuleProgram written_;     // the rule as written, when that is what runs
  const plan::RuleProgram* ops_;  // what runs: the plan's IR, or written_
  SourceLoc plan_loc_;
  size_t errors_ = 0;
  size_t suppressed_ = 0;
  size_t emitted_ = 0;
  std::vector<std::string> statement_keys_;  // by statement index; "" until first needed
  bool capped_ = false;                      // stopped at max_violations_per_rule
  bool aborted_ = false;
  bool budget_reported_ = false;
};

}  // namespace capops::eval
