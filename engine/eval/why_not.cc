// WhyNot and EvaluateExpression: the evaluator for auditors and rule authors.
// WhyNot replays a rule like RuleRun does, but only along the bindings that
// go through one chosen fact, and stops each path at its first false clause.
#include <algorithm>

#include "engine/eval/evaluator.h"
#include "engine/eval/expr_evaluator.h"
#include "engine/eval/operators.h"

namespace capops::eval {

namespace {

constexpr size_t kMaxOutcomes = 20;

class WhyNotRun {
 public:
  WhyNotRun(const check::Program& program, const check::RuleInfo& rule, const std::vector<Value>& params,
            const Facts& facts, const SourceManager& sources, const EvalOptions& options,
            const std::function<bool(const Value&)>& focus)
      : rule_(rule), sources_(sources), focus_(focus),
        eval_(program, program.tables[rule.module], params, facts, sources, rule.slot_count, options.max_steps,
              options.max_memory),
        slot_of_(program.tables[rule.module].slots) {}

  WhyNotResult Run() {
    Walk(0, false);
    return std::move(result_);
  }

 private:
  void Walk(size_t i, bool focused);
  void Stop(const syntax::Clause& clause, const Value& v);
  std::vector<Evidence> Bindings(size_t upto) const;

  const check::RuleInfo& rule_;
  const SourceManager& sources_;
  const std::function<bool(const Value&)>& focus_;
  ExprEvaluator eval_;
  const std::vector<uint32_t>& slot_of_;
  WhyNotResult result_;
  size_t depth_ = 0;  // clauses bound on the current path
};

std::vector<Evidence> WhyNotRun::Bindings(size_t upto) const {
  std::vector<Evidence> out;
  for (size_t i = 0; i < upto; ++i) {
    const syntax::Clause& c = rule_.rule->clauses[i];
    if (c.kind == syntax::ClauseKind::kWhere) continue;
    const Value& v = eval_.slots()[slot_of_[c.id]];
    out.push_back(Evidence{c.var, v.Id().empty() ? TraceText(v) : std::string(v.Id()), v.loc()});
  }
  return out;
}

// Records why the path ends at `clause`: it was false, or it erred.
void WhyNotRun::Stop(const syntax::Clause& clause, const Value& v) {
  if (result_.outcomes.size() >= kMaxOutcomes) return;
  WhyNotOutcome o;
  o.bindings = Bindings(depth_);
  o.failed_clause = eval_.Text(clause.span);
  o.clause_loc = sources_.Resolve(clause.span);
  if (v.is_error()) o.error = v.string_value();
  o.trace = TraceStep{o.failed_clause, TraceText(v), o.clause_loc, {}};
  eval_.set_trace(&o.trace.values);
  eval_.Eval(*clause.expr);
  eval_.set_trace(nullptr);
  result_.outcomes.push_back(std::move(o));
}

void WhyNotRun::Walk(size_t i, bool focused) {
  const auto& clauses = rule_.rule->clauses;
  if (result_.outcomes.size() >= kMaxOutcomes || eval_.out_of_budget()) return;
  if (i == clauses.size()) {
    if (!focused) return;
    WhyNotOutcome o;
    o.bindings = Bindings(i);
    o.fired = true;
    result_.outcomes.push_back(std::move(o));
    return;
  }
  const syntax::Clause& clause = clauses[i];
  depth_ = i;
  Value v = eval_.Eval(*clause.expr);
  if (clause.kind == syntax::ClauseKind::kFor) {
    if (!v.is(ValueKind::kList)) return focused ? Stop(clause, v.is_error() ? v : Value::Error("not a list")) : void();
    bool narrow = !focused && std::any_of(v.items().begin(), v.items().end(), focus_);
    result_.in_domain = result_.in_domain || narrow;
    for (const Value& item : v.items()) {
      if (narrow && !focus_(item)) continue;
      eval_.slots()[slot_of_[clause.id]] = item;
      Walk(i + 1, focused || narrow);
    }
    return;
  }
  if (!focused) {
    // Not yet at the chosen fact: follow the rule as it runs.
    if (clause.kind == syntax::ClauseKind::kLet && !v.is_error()) {
      eval_.slots()[slot_of_[clause.id]] = v;
      Walk(i + 1, false);
    } else if (clause.kind == syntax::ClauseKind::kWhere && v.is(ValueKind::kBool) && v.bool_value()) {
      Walk(i + 1, false);
    }
    return;
  }
  if (clause.kind == syntax::ClauseKind::kLet) {
    if (v.is_error()) return Stop(clause, v);
    eval_.slots()[slot_of_[clause.id]] = v;
    return Walk(i + 1, true);
  }
  if (v.is(ValueKind::kBool) && v.bool_value()) return Walk(i + 1, true);
  Stop(clause, v);
}

}  // namespace

WhyNotResult WhyNot(const check::Program& program, const check::RuleInfo& rule, const std::vector<Value>& params,
                    const Facts& facts, const SourceManager& sources, const EvalOptions& options,
                    const std::function<bool(const Value&)>& focus) {
  return WhyNotRun(program, rule, params, facts, sources, options, focus).Run();
}

Value EvaluateExpression(const check::Program& program, const check::ModuleTables& tables, uint32_t slot_count,
                         const syntax::Expr& expr, const std::vector<Value>& params, const Facts& facts,
                         const SourceManager& sources, const EvalOptions& options, std::vector<TraceValue>* trace) {
  ExprEvaluator eval(program, tables, params, facts, sources, slot_count, options.max_steps, options.max_memory);
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
