// WhyNot and EvaluateExpression: the evaluator for auditors and rule authors.
// WhyNot is an observer of the interpreter (interpreter.h) running the rule
// as written: it follows only the bindings that go through one chosen fact,
// and records where each path stops.
#include <algorithm>

#include "engine/eval/evaluator.h"
#include "engine/eval/expr_evaluator.h"
#include "engine/eval/interpreter.h"
#include "engine/eval/operators.h"

namespace capops::eval {

namespace {

constexpr size_t kMaxOutcomes = 20;
constexpr size_t kNone = static_cast<size_t>(-1);

std::string BindingText(const Value& v) {
  return TraceText(v);
}

// Follows the rule as written, narrowing the first scan whose items include
// the chosen fact to those items; on such a path, records where it ends (a
// false or erring clause, traced) or that it reaches the statements.
class WhyNotObserver : public RunObserver {
 public:
  explicit WhyNotObserver(const std::function<bool(const Value&)>& focus) : focus_(focus) {}

  bool Done() const override {
    return result_.outcomes.size() >= kMaxOutcomes || run_->evaluator().out_of_budget();
  }
  void EnterScan(size_t at, ListView items) override {
    if (Focused(at) || std::none_of(items.begin(), items.end(), focus_)) return;
    focus_at_ = at;
    result_.in_domain = true;
  }
  bool Visits(size_t at, const Value& item) override { return focus_at_ != at || focus_(item); }
  void LeaveScan(size_t at) override {
    if (focus_at_ == at) focus_at_ = kNone;
  }
  void Ended(size_t at, const Value& v) override {
    if (Focused(at)) Stop(at, v);
  }
  bool Reached() override {
    if (focus_at_ != kNone && result_.outcomes.size() < kMaxOutcomes) {
      WhyNotOutcome o;
      o.bindings = run_->Bindings(run_->ops().size(), BindingText);
      o.fired = true;
      result_.outcomes.push_back(std::move(o));
    }
    return false;  // why-not asks whether it fires, not what it says
  }
  WhyNotResult Take() { return std::move(result_); }

 private:
  // Whether the op at `at` runs for the chosen fact: a scan before it chose it.
  bool Focused(size_t at) const { return focus_at_ != kNone && focus_at_ < at; }
  // Records why the path ends at op `at`: it was false, or it erred.
  void Stop(size_t at, const Value& v);

  const std::function<bool(const Value&)>& focus_;
  size_t focus_at_ = kNone;  // the scan that narrowed to the fact, while it runs
  WhyNotResult result_;
};

void WhyNotObserver::Stop(size_t at, const Value& v) {
  if (result_.outcomes.size() >= kMaxOutcomes) return;
  const plan::Op& op = run_->ops()[at];
  ExprEvaluator& eval = run_->evaluator();
  WhyNotOutcome o;
  o.bindings = run_->Bindings(at, BindingText);
  o.failed_clause = eval.Text(run_->SpanOf(op));
  o.clause_loc = run_->sources().Resolve(run_->SpanOf(op));
  if (v.is_error()) o.error = v.string_value();
  o.trace = TraceStep{o.failed_clause, TraceText(v), o.clause_loc, {}};
  eval.set_trace(&o.trace.values);
  eval.Eval(*op.expr);
  eval.set_trace(nullptr);
  result_.outcomes.push_back(std::move(o));
}

}  // namespace

WhyNotResult WhyNot(const check::Program& program, const check::RuleInfo& rule,
                    const ParamValues& params, const Facts& facts, const SourceManager& sources,
                    const EvalOptions& options, const std::function<bool(const Value&)>& focus) {
  WhyNotObserver observer(focus);
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
