// ExprEvaluator: computes one expression against variable slots (internal
// to engine/eval). Slots, symbols and functions were resolved by the
// checker, so nothing is looked up by name here.
#pragma once

#include <string>
#include <vector>

#include "engine/check/checker.h"
#include "engine/eval/evaluator.h"

namespace capops::eval {

class ExprEvaluator {
 public:
  ExprEvaluator(const check::Program& program, const check::ModuleTables& tables,
                const std::vector<Value>& params, const Facts& facts, const SourceManager& sources,
                uint32_t slot_count, uint64_t max_steps)
      : program_(program), tables_(tables), params_(params), facts_(facts), sources_(sources),
        slots_(slot_count), max_steps_(max_steps) {}

  Value Eval(const syntax::Expr& e);
  std::vector<Value>& slots() { return slots_; }
  const std::vector<Value>& slots() const { return slots_; }
  bool out_of_budget() const { return steps_ > max_steps_; }
  /// While set, every evaluated non-literal sub-expression is appended here.
  void set_trace(std::vector<TraceValue>* sink) { trace_ = sink; }
  /// The source text of a span.
  std::string Text(const Span& span) const;
  /// Where a trace shows an expression's value: at its operator, field or
  /// function name rather than at its first character.
  SourceLoc Anchor(const syntax::Expr& e) const;

 private:
  Value EvalNode(const syntax::Expr& e);
  Value EvalIdent(const syntax::Expr& e);
  Value EvalSelect(const syntax::Expr& e);
  Value EvalIndex(const syntax::Expr& e);
  Value EvalLogical(const syntax::Expr& e);
  Value EvalCall(const syntax::Expr& e);
  Value CallUser(const check::UserFunction& f, std::vector<Value> args);
  Value EvalMacro(const syntax::Expr& e);
  Value EvalCollection(const syntax::Expr& e);

  const check::Program& program_;
  const check::ModuleTables& tables_;
  const std::vector<Value>& params_;
  const Facts& facts_;
  const SourceManager& sources_;
  std::vector<Value> slots_;
  uint64_t steps_ = 0;
  uint64_t max_steps_;
  std::vector<TraceValue>* trace_ = nullptr;
};

}  // namespace capops::eval
