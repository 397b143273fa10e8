// SPDX-License-Identifier: Apache-2.0
// WhyNot and EvaluateExpression: the evaluator for auditors and rule authors.
// WhyNot is an observer of the interpreter (interpreter.h) running the rule
// as written: it follows only the bindings that go through one chosen fact
// (or all of them), and records where each path stops, or what each
// statement says of a binding that passed every clause.
#include <algorithm>

#include "engine/eval/evaluator.h"
#include "engine/eval/expr_evaluator.h"
#include "engine/eval/interpreter.h"
#include "engine/eval/operators.h"

namespace capops::eval {

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

std::string BindingText(const Value& v) {
  return TraceText(v);
}

// Follows the rule as written, narrowing the first scan whose items include
// the chosen fact to those items (or following every binding, without a
// fact); on such a path, records where it ends (a false or erring clause, a
// `for` over nothing, traced) or, once it reaches the statements, whether
// each fires.
class WhyNotObserver : public RunObserver {
 public:
  WhyNotObserver(const std::function<bool(const Value&)>& focus, size_t max_outcomes)
      : focus_(focus), max_outcomes_(max_outcomes) {
    result_.in_domain = !focus_;
  }

  bool Done() const override { return result_.capped || run_->evaluator().out_of_budget(); }
  void EnterScan(size_t at, ListView items) override {
    if (!focus_ || Focused(at) || std::none_of(items.begin(), items.end(), focus_)) return;
    focus_at_ = at;
    result_.in_domain = true;
  }
  bool Visits(size_t at, const Value& item) override { return focus_at_ != at || focus_(item); }
  void LeaveScan(size_t at) override {
    if (focus_at_ == at) focus_at_ = kNone;
  }
  void Ended(size_t at, const Value& v) override {
    if (Focused(at) && Room()) Stop(at, v);
  }
  bool Reached() override {
    if (!Focused(run_->ops().size()) || !Room()) return false;
    WhyNotOutcome o;
    o.bindings = run_->Bindings(run_->ops().size(), BindingText);
    result_.outcomes.push_back(std::move(o));
    return true;  // the statements say whether it fires
  }
  void Stated(size_t at, const Violation* fired, const Value& why) override;
  WhyNotResult Take() { return std::move(result_); }

 private:
  // Whether the op at `at` runs for the chosen fact: a scan before it chose
  // it, or there is no fact to choose.
  bool Focused(size_t at) const { return !focus_ || (focus_at_ != kNone && focus_at_ < at); }
  // Whether another path may be recorded; else the run stops, capped.
  bool Room() {
    if (result_.outcomes.size() < max_outcomes_) return true;
    result_.capped = true;
    return false;
  }
  // Records why the path ends at op `at`: it was false, empty, or it erred.
  void Stop(size_t at, const Value& v);

  const std::function<bool(const Value&)>& focus_;
  const size_t max_outcomes_;
  size_t focus_at_ = kNone;  // the scan that narrowed to the fact, while it runs
  WhyNotResult result_;
};

void WhyNotObserver::Stop(size_t at, const Value& v) {
  const plan::Op& op = run_->ops()[at];
  WhyNotOutcome o;
  o.bindings = run_->Bindings(at, BindingText);
  if (v.is_error()) o.error = v.string_value();
  o.no_items = op.kind == plan::OpKind::kScan && v.is(ValueKind::kList);
  o.trace = run_->TraceAgain(run_->SpanOf(op), op.expr);
  o.failed_clause = o.trace.clause;
  o.clause_loc = o.trace.loc;
  result_.outcomes.push_back(std::move(o));
}

void WhyNotObserver::Stated(size_t at, const Violation* fired, const Value& why) {
  const syntax::Emit& emit = run_->rule().rule->emits[run_->ops()[at].index];
  WhyNotStatement s;
  s.trace = run_->TraceAgain(StatementHead(emit), emit.when.get());
  s.fired = fired != nullptr;
  if (fired != nullptr) s.message = fired->message;
  if (why.is_error()) s.error = why.string_value();
  WhyNotOutcome& o = result_.outcomes.back();
  o.fired = o.fired || s.fired;
  o.statements.push_back(std::move(s));
}

}  // namespace

WhyNotResult WhyNot(const check::Program& program, const check::RuleInfo& rule,
                    const ParamValues& params, const Facts& facts, const SourceManager& sources,
                    const EvalOptions& options, const std::function<bool(const Value&)>& focus,
                    size_t max_outcomes) {
  WhyNotObserver observer(focus, max_outcomes);
  EvalResult ignored;  // a rule error stops a path; the outcome says so
  size_t index = static_cast<size_t>(&rule - program.rules.data());
  RuleRun(program, index, params.For(index), facts, sources, options, nullptr, nullptr, &ignored,
          &observer)
      .Run();
  return observer.Take();
}

Value EvaluateExpression(const check::Program& program, const check::ModuleTables& tables,
                         uint32_t slot_count, const syntax::Expr& expr,
                         const std::vector<Value>& params, const Facts& facts,
                         const SourceManager& sources, const EvalOptions& options,
                         std::vector<TraceValue>* trace) {
  ExprEvaluator eval(program, tables, params, facts, sources, slot_count, options.max_steps,
                     options.max_memory);
  eval.set_trace(trace);
  Value v = eval.Eval(expr);
  // The caller prints the value: a list or map whose parts repeat (nested
  // by a function) may be small in memory and huge as text.
  if (!eval.out_of_budget() && (v.is(ValueKind::kList) || v.is(ValueKind::kMap))) {
    uint64_t left = eval.budget().bytes_left();
    eval.mutable_budget()->Allocate(StringBytes(Extent(v, left)));
  }
  return eval.out_of_budget() ? eval.budget().Error() : v;
}

}  // namespace capops::eval
