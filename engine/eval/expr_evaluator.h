// SPDX-License-Identifier: Apache-2.0
// ExprEvaluator: computes one expression against variable slots (internal
// to engine/eval). Slots, symbols and functions were resolved by the
// checker, so nothing is looked up by name here.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/check/checker.h"
#include "engine/eval/budget.h"
#include "engine/eval/builtins.h"
#include "engine/eval/evaluator.h"
#include "engine/eval/memo.h"
#include "engine/eval/run_state.h"
#include "engine/eval/timeline.h"

namespace capops::eval {

/// A loop variable bound to each item of a list in turn without taking a
/// reference (Value::Borrow); unbound when the loop ends, however it ends,
/// so no slot keeps a view of a list that is gone.
class LoopVariable {
 public:
  explicit LoopVariable(Value* slot) : slot_(slot) {}
  LoopVariable(const LoopVariable&) = delete;
  LoopVariable& operator=(const LoopVariable&) = delete;
  ~LoopVariable() { *slot_ = Value(); }
  void Bind(const Value& item) { slot_->Borrow(item); }

 private:
  Value* slot_;
};

class ExprEvaluator {
 public:
  /// An evaluation of its own, within `max_steps` and `max_bytes` (Budget).
  ExprEvaluator(const check::Program& program, const check::ModuleTables& tables,
                const std::vector<Value>& params, const Facts& facts, const SourceManager& sources,
                uint32_t slot_count, uint64_t max_steps, uint64_t max_bytes)
      : program_(program),
        tables_(tables),
        params_(params),
        facts_(facts),
        sources_(sources),
        slots_(slot_count),
        owned_state_(std::make_unique<RunState>(max_steps, max_bytes)),
        state_(owned_state_.get()),
        field_hints_(state_->FieldHints(tables)) {}

  Value Eval(const syntax::Expr& e);
  /// Like Eval, without copying: the value is the slot, param, fact or
  /// remembered value itself, or else stored in `*holder`. Valid until the
  /// holder or the slot changes.
  const Value& Ref(const syntax::Expr& e, Value* holder);
  std::vector<Value>& slots() { return slots_; }
  const std::vector<Value>& slots() const { return slots_; }
  bool out_of_budget() const { return state_->budget.spent(); }
  const Budget& budget() const { return state_->budget; }
  Budget* mutable_budget() { return &state_->budget; }
  uint64_t steps() const { return state_->budget.steps(); }
  /// Follows `plan` (module `module`'s tables), remembering in `memo`; until
  /// called, expressions run as written.
  void UsePlan(const plan::ProgramPlan* plan, uint32_t module, Memo* memo) {
    plan_ = plan;
    module_plan_ = &plan->modules[module];
    memo_ = memo;
    memo_kinds_ = memo != nullptr ? module_plan_->memo.data() : nullptr;
  }
  /// The items of `list` that join `join` of the module's plan (of a
  /// comprehension or a scan, binding slot `slot`; -1: none) can select, in
  /// list order, into `*picked`: held by the index, or by `*scratch`.
  /// False, `*picked` left as it is, when every item must be visited (no
  /// plan, no join, a probe that is not a string). `*holds` (if given) is set to the join's
  /// conjunct when it holds for every candidate.
  bool Candidates(int32_t join, const Value& list, uint32_t slot, std::vector<Value>* scratch,
                  ListView* picked, const syntax::Expr** holds = nullptr);
  /// The value of a path of fields from `plan` or `inventory` (a
  /// plan::Lookup's list), read without evaluating: no step is counted. Null
  /// when the path is not one or a field is missing.
  const Value* FactPath(const syntax::Expr& e) const;
  /// Where the run last found the field that `select` (a kSelect of this
  /// evaluator's module) reads: the run's own hint, for Value::Field.
  FieldHint* HintOf(const syntax::Expr& select) const { return &field_hints_[select.id]; }
  /// The state of the run this evaluator belongs to.
  RunState* run_state() const { return state_; }
  /// The index of `list` for `join` (the loop variable in `slot`).
  const JoinIndex* BuildIndex(const plan::Join& join, const Value& list, uint32_t slot);
  const JoinedList* Joined(const plan::Join& join, const Value& list, uint32_t slot);
  bool Positions(const plan::Join& join, const Value& list, uint32_t slot,
                 std::vector<uint32_t>* at, bool* exact);
  bool EachProbe(const plan::Join& join, const Value& probe, std::vector<Value>* probes);
  std::vector<uint32_t> Aside(const plan::Join& join, const JoinIndex& index, const Value& list,
                              uint32_t slot);
  /// While set, every evaluated non-literal sub-expression is appended here.
  void set_trace(std::vector<TraceValue>* sink) { trace_ = sink; }
  /// The source text of a span.
  std::string Text(const Span& span) const;
  /// Where a trace shows an expression's value: at its operator, field or
  /// function name rather than at its first character.
  SourceLoc Anchor(const syntax::Expr& e) const;
  /// Whether `e` (of this evaluator's module) yields an optional: its static type says so.
  bool YieldsOptional(const syntax::Expr& e) const;
  /// Whether `e` yields timeline steps, by its static type: a timeline, a
  /// step (`Segment`) or a list of steps.
  enum class Steps : uint8_t { kNone, kTimeline, kStep, kList };
  Steps YieldsSteps(const syntax::Expr& e) const;
  /// When `range`, a list of timeline stretches, is `t.over(bound[, w])` or
  /// `t.under(bound[, w])`, maybe filtered (`t.over(b).filter(…)`): `bound`,
  /// with `*over` saying which. Null for any other list.
  const syntax::Expr* StepBound(const syntax::Expr& range, bool* over) const;
  /// `v`, the value of `e`, as a trace or the evidence shows it: by `text`,
  /// an optional as `some(…)`/`none`, and a timeline, a step or a list of
  /// steps as its intervals, amounts and the items of each.
  std::string ShownValue(const syntax::Expr& e, const Value& v,
                         std::string (*text)(const Value&)) const;

 private:
  // A frame of a function called from an evaluation, sharing its state.
  ExprEvaluator(const check::Program& program, const check::ModuleTables& tables,
                const std::vector<Value>& params, const Facts& facts, const SourceManager& sources,
                uint32_t slot_count, RunState* state)
      : program_(program),
        tables_(tables),
        params_(params),
        facts_(facts),
        sources_(sources),
        slots_(slot_count),
        state_(state),
        field_hints_(state->FieldHints(tables)) {}

  const Value& RefNode(const syntax::Expr& e, Value* holder);
  [[gnu::noinline]] const Value& RefTraced(const syntax::Expr& e, Value* holder);
  Value EvalNode(const syntax::Expr& e);
  const Value& Remembered(const syntax::Expr& e, plan::MemoKind kind, Value* holder);
  const Value& RefIdent(const syntax::Expr& e, Value* holder);
  const Value& RefSelect(const syntax::Expr& e, Value* holder);
  const Value& RefIndex(const syntax::Expr& e, Value* holder);
  Value EvalLogical(const syntax::Expr& e);
  Value EvalCall(const syntax::Expr& e);
  /// Calls CPL function `index`, remembered when it is costly (memo_).
  Value CallUser(uint32_t index, Value* args, size_t count);
  /// Calls it in its frame.
  Value Call(uint32_t index, Value* args, size_t count);
  // The frame function `index` runs in when called from here.
  ExprEvaluator* Frame(uint32_t index);
  ExprEvaluator* CallFrame(const plan::Join& join, uint32_t* slot);
  Value EvalMacro(const syntax::Expr& e);
  // What `group` and `timeline` collect item by item before they build.
  struct Gathered {
    explicit Gathered(ExprEvaluator* evaluator) : owner(evaluator) {}
    Value Add(const syntax::Expr& e, const Value& item, const Value& v);
    ExprEvaluator* owner;
    std::vector<std::pair<Value, Value>> keyed;
    std::vector<TimelineItem> timeline;
  };
  Value MacroItems(const syntax::Expr& e, const Value& range, std::vector<Value>* keys,
                   ListView* items);
  Value MacroResult(const syntax::Expr& e, const Value& first_error, int64_t true_count,
                    std::vector<Value> out);
  Value EvalCollection(const syntax::Expr& e);
  Value EvalOptSelect(const syntax::Expr& e);
  // An error that a value would pass the budget, located at the expression
  // that would have built it; any other error as it is.
  Value Located(Value r, const syntax::Expr& e, const SourceLoc& fact) const;

  const check::Program& program_;
  const check::ModuleTables& tables_;
  const std::vector<Value>& params_;
  const Facts& facts_;
  const SourceManager& sources_;
  std::vector<Value> slots_;
  std::unique_ptr<RunState> owned_state_;  // null in a function's frame
  RunState* state_;
  // This module's field hints in the run state, by node id (kSelect nodes).
  FieldHint* field_hints_;
  std::vector<TraceValue>* trace_ = nullptr;
  // The join conjunct of the comprehension running, true for each of its
  // candidates: not evaluated again (unless traced, so traces stay whole).
  const syntax::Expr* holds_ = nullptr;
  const plan::ProgramPlan* plan_ = nullptr;
  const plan::ModulePlan* module_plan_ = nullptr;
  Memo* memo_ = nullptr;  // null: no plan
  // module_plan_->memo's kinds by node id while memo_ is set, else null.
  const plan::MemoKind* memo_kinds_ = nullptr;
  // One frame per user function called from here, reused: without
  // recursion a function is never running twice below one caller.
  std::vector<std::unique_ptr<ExprEvaluator>> frames_;
};

}  // namespace capops::eval
