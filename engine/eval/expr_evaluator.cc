// SPDX-License-Identifier: Apache-2.0
// ExprEvaluator: CEL semantics over Values. `&&`, `||` and the macros absorb
// an error when another operand decides the result; every other error is a
// value that propagates to the clause, where the rule reports it.
#include "engine/eval/expr_evaluator.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "engine/eval/builtins.h"
#include "engine/eval/operators.h"
#include "engine/eval/optional.h"
#include "engine/eval/read_ahead.h"
#include "engine/eval/shared_indexes.h"
#include "engine/eval/timeline.h"

namespace capops::eval {

namespace {

using check::SymbolKind;
using syntax::BinaryOp;
using syntax::Expr;
using syntax::ExprKind;
using syntax::MacroKind;

}  // namespace

std::string ExprEvaluator::Text(const Span& span) const {
  if (!span.valid()) return "";
  const std::string& text = sources_.file(span.file).text();
  if (span.begin >= text.size() || span.end < span.begin) return "";
  return text.substr(span.begin, std::min<size_t>(span.end, text.size()) - span.begin);
}

Value ExprEvaluator::Eval(const Expr& e) {
  Value holder;
  const Value& v = Ref(e, &holder);
  if (&v == &holder) return holder;
  return v;
}

const Value& ExprEvaluator::Ref(const Expr& e, Value* holder) {
  if (!state_->budget.Step()) return *holder = state_->budget.Error();
  if (trace_ != nullptr) [[unlikely]]
    return RefTraced(e, holder);
  if (&e == holds_) {
    static const Value kTrue = Value::Bool(true);
    return kTrue;
  }
  plan::MemoKind memo = memo_kinds_ != nullptr ? memo_kinds_[e.id] : plan::MemoKind::kNone;
  if (memo != plan::MemoKind::kNone) return Remembered(e, memo, holder);
  return RefNode(e, holder);
}

// Ref with a trace: every sub-expression is evaluated (a join's conjunct
// too, so the trace stays whole) and its value appended.
const Value& ExprEvaluator::RefTraced(const Expr& e, Value* holder) {
  plan::MemoKind memo = memo_kinds_ != nullptr ? memo_kinds_[e.id] : plan::MemoKind::kNone;
  const Value& v = memo == plan::MemoKind::kNone ? RefNode(e, holder) : Remembered(e, memo, holder);
  if (e.kind != ExprKind::kLiteral) {
    std::string shown = ShownValue(e, v, TraceText);
    trace_->push_back(
        TraceValue{Text(e.span), std::move(shown), sources_.Resolve(e.span), v.loc(), Anchor(e)});
  }
  return v;
}

// Names, fields, items and the chosen branch of `?:` are passed on by
// reference; everything else is computed into `*holder`.
const Value& ExprEvaluator::RefNode(const Expr& e, Value* holder) {
  switch (e.kind) {
    case ExprKind::kLiteral:
      return e.literal;
    case ExprKind::kIdent:
      return RefIdent(e, holder);
    case ExprKind::kSelect:
      return RefSelect(e, holder);
    case ExprKind::kIndex:
      return RefIndex(e, holder);
    case ExprKind::kConditional: {
      Value held;
      const Value& cond = Ref(*e.args[0], &held);
      if (cond.is_error()) return *holder = cond;
      if (!cond.is(ValueKind::kBool)) {
        return *holder = Value::Error("`?:` needs a bool condition, not " + DescribeKind(cond));
      }
      return Ref(*e.args[cond.bool_value() ? 1 : 2], holder);
    }
    default:
      return *holder = EvalNode(e);
  }
}

// A loop-invariant expression: computed once per evaluation (or once per
// value of the loop variables it reads). A trace shows its value, not the
// steps inside it.
const Value& ExprEvaluator::Remembered(const Expr& e, plan::MemoKind kind, Value* holder) {
  std::unordered_map<VarsKey, Value, VarsKeyHash>* per_vars = nullptr;
  VarsKey key;
  bool keep = true;
  if (kind == plan::MemoKind::kOnce) {
    auto it = memo_->values.find(&e);
    if (it != memo_->values.end()) return it->second;
  } else {
    VarsKey& probe = memo_->probe;
    probe.values.clear();
    uint64_t by_items = module_plan_->by_items[e.id];
    for (uint64_t bits = module_plan_->free[e.id]; bits != 0; bits &= bits - 1) {
      const Value& v = slots_[static_cast<size_t>(__builtin_ctzll(bits))];
      if ((by_items & bits & -bits) == 0) {
        probe.Add(v);
      } else {
        // A long list costs more to compare by its items than it may save.
        probe.AddItems(v, VarsKey::kMaxItems);
      }
    }
    per_vars = &memo_->per_vars[&e];
    auto it = per_vars->find(probe);
    if (it != per_vars->end()) return it->second;
    // Items seen once may never come again: remembered the second time.
    if (by_items != 0) {
      keep = !memo_->items_seen_once.insert({&e, VarsKeyHash()(probe)}).second;
    }
    // The evaluation below may probe again: the key kept holds its own references.
    if (keep) key = probe;
  }
  std::vector<TraceValue>* trace = trace_;
  trace_ = nullptr;
  Value v = EvalNode(e);
  trace_ = trace;
  // Running out of budget is no property of the expression: not remembered.
  if (out_of_budget()) return memo_->scratch = std::move(v);
  if (!keep) return *holder = std::move(v);
  if (per_vars != nullptr) return per_vars->emplace(std::move(key), std::move(v)).first->second;
  return memo_->values.emplace(&e, std::move(v)).first->second;
}

// A key that is a field of the item (`b.pool`) gives the same index in every
// rule that joins the list on it: the call's rules share it (SharedIndexes),
// built once for all of them. Another key is evaluated item by item, for
// this rule's run alone.
const JoinIndex* ExprEvaluator::BuildIndex(const plan::Join& join, const Value& list,
                                           uint32_t slot) {
  const Expr& key = *join.key;
  if (key.kind == ExprKind::kSelect && key.args[0]->kind == ExprKind::kIdent &&
      tables_.symbols[key.args[0]->id].kind == SymbolKind::kLocal &&
      tables_.symbols[key.args[0]->id].index == slot) {
    Key field = key.field;
    bool membership = join.membership;
    auto make = [&] {
      static const Value kNoField = Value::Error("no field");
      return std::make_unique<JoinIndex>(list, membership, [&](const Value& item) -> const Value& {
        const Value* v = item.Field(field, HintOf(key));
        return v != nullptr ? *v : kNoField;
      });
    };
    if (state_->shared_indexes != nullptr)
      return &state_->shared_indexes->Get(list, field, membership, make);
    memo_->own_indexes.push_back(make());
    return memo_->own_indexes.back().get();
  }
  std::vector<TraceValue>* trace = trace_;
  trace_ = nullptr;
  Value saved = slots_[slot];
  auto index = std::make_unique<JoinIndex>(list, join.membership, [&](const Value& item) {
    slots_[slot] = item;
    return Eval(key);
  });
  slots_[slot] = std::move(saved);
  trace_ = trace;
  memo_->own_indexes.push_back(std::move(index));
  return memo_->own_indexes.back().get();
}

const Value* ExprEvaluator::FactPath(const Expr& e) const {
  if (e.kind == ExprKind::kIdent) {
    const check::Symbol& sym = tables_.symbols[e.id];
    if (sym.kind != SymbolKind::kRoot) return nullptr;
    return static_cast<check::Root>(sym.index) == check::Root::kPlan ? &facts_.plan
                                                                     : &facts_.inventory;
  }
  if (e.kind != ExprKind::kSelect) return nullptr;
  const Value* parent = FactPath(*e.args[0]);
  return parent != nullptr ? parent->Field(e.field, HintOf(e)) : nullptr;
}

// The probes of an any-of join: each item of the list `probe` (through the
// join's `each`, its variable bound to the item). False when one is not a
// string, or `probe` is not a list: the items are then scanned.
bool ExprEvaluator::EachProbe(const plan::Join& join, const Value& probe,
                              std::vector<Value>* probes) {
  if (!probe.is(ValueKind::kList)) return false;
  ListView items = probe.items();
  probes->reserve(items.size());
  if (join.each == nullptr) {
    probes->assign(items.begin(), items.end());
  } else {
    std::vector<TraceValue>* trace = trace_;
    trace_ = nullptr;
    Value saved = slots_[join.each_slot];
    for (const Value& item : items) {
      slots_[join.each_slot] = item;
      probes->push_back(Eval(*join.each));
    }
    slots_[join.each_slot] = std::move(saved);
    trace_ = trace;
  }
  return std::all_of(probes->begin(), probes->end(),
                     [](const Value& p) { return p.is(ValueKind::kString); });
}

// The items kept aside by `index` (their key is not a string) that no item
// condition of the join rules out: tested once per list, not per probe.
std::vector<uint32_t> ExprEvaluator::Aside(const plan::Join& join, const JoinIndex& index,
                                           const Value& list, uint32_t slot) {
  if (join.item_conditions.empty() || index.residual().empty()) return index.residual();
  std::vector<TraceValue>* trace = trace_;
  trace_ = nullptr;
  Value saved = slots_[slot];
  std::vector<uint32_t> kept;
  ListView items = list.items();
  for (uint32_t at : index.residual()) {
    slots_[slot] = items[at];
    bool ruled_out = false;
    for (const Expr* c : join.item_conditions) {
      Value v = Eval(*c);
      ruled_out = v.is(ValueKind::kBool) && !v.bool_value();
      if (ruled_out) break;
    }
    if (!ruled_out) kept.push_back(at);
  }
  slots_[slot] = std::move(saved);
  trace_ = trace;
  return kept;
}

// The join's entry for `list`, made on first use; null when the list is to
// be scanned instead: a per-list join indexes a list only once it is asked
// about a second time, and never a short one.
const JoinedList* ExprEvaluator::Joined(const plan::Join& join, const Value& list, uint32_t slot) {
  JoinedKey key{&join, list.Identity().second};
  auto it = memo_->joined.find(key);
  if (it != memo_->joined.end()) return &it->second;
  constexpr size_t kShortList = 16;  // scanned faster than indexed
  if (join.per_list && (list.items().size() < kShortList || memo_->seen_once.insert(key).second))
    return nullptr;
  memo_->seen_once.erase(key);
  JoinedList entry;
  entry.list = list;
  entry.index = BuildIndex(join, list, slot);
  entry.residual = Aside(join, *entry.index, list, slot);
  return &memo_->joined.emplace(key, std::move(entry)).first->second;
}

bool ExprEvaluator::Candidates(int32_t join_index, const Value& list, uint32_t slot,
                               std::vector<Value>* scratch, ListView* picked,
                               const syntax::Expr** holds) {
  if (memo_ == nullptr || join_index < 0 || !list.is(ValueKind::kList)) return false;
  const plan::Join& join = module_plan_->joins[join_index];
  if (join.call != nullptr) {
    uint32_t param = slot;
    ExprEvaluator* frame = CallFrame(join, &param);
    return frame != nullptr && frame->Candidates(join.callee_join, list, param, scratch, picked);
  }
  if (join.alternatives.empty() && !join.any_of) {
    // One probe: the index's own group, merged with the items it keeps aside.
    Value probe = Eval(*join.probe);
    if (!probe.is(ValueKind::kString)) return false;
    const JoinedList* joined = Joined(join, list, slot);
    if (joined == nullptr) return false;
    if (holds != nullptr && joined->exact()) *holds = join.condition;
    *picked = joined->index->Candidates(probe.string_value(), scratch, joined->residual);
  } else {
    // Several probes, or several joins: their items, once each, in list order.
    std::vector<uint32_t> at;
    bool exact = true;
    if (!Positions(join, list, slot, &at, &exact)) return false;
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    ListView items = list.items();
    scratch->clear();
    scratch->resize(at.size());  // sized once: a borrowed Value that moves becomes a counted one
    for (size_t i = 0; i < at.size(); ++i) (*scratch)[i].Borrow(items[at[i]]);
    *picked = *scratch;
    if (holds != nullptr && exact && join.alternatives.empty()) *holds = join.condition;
  }
  ++state_->index_probes;
  state_->index_picked += picked->size();
  return true;
}

// Appends the places of the items `join` selects in `list` (unsorted, maybe
// repeated); false when they cannot be told (a probe not a string, a list
// to scan). `*exact` is cleared when some are items kept aside.
bool ExprEvaluator::Positions(const plan::Join& join, const Value& list, uint32_t slot,
                              std::vector<uint32_t>* at, bool* exact) {
  for (int32_t alternative : join.alternatives) {
    if (!Positions(module_plan_->joins[alternative], list, slot, at, exact)) return false;
  }
  if (!join.alternatives.empty()) return true;
  if (join.call != nullptr) {
    uint32_t param = slot;
    ExprEvaluator* frame = CallFrame(join, &param);
    return frame != nullptr &&
           frame->Positions(frame->module_plan_->joins[join.callee_join], list, param, at, exact);
  }
  Value probe = Eval(*join.probe);
  std::vector<Value> probes;
  if (join.any_of) {
    if (!EachProbe(join, probe, &probes)) return false;
  } else if (probe.is(ValueKind::kString)) {
    probes.push_back(std::move(probe));
  } else {
    return false;
  }
  const JoinedList* joined = Joined(join, list, slot);
  if (joined == nullptr) return false;
  *exact = *exact && joined->exact();
  at->insert(at->end(), joined->residual.begin(), joined->residual.end());
  for (const Value& p : probes) joined->index->Positions(p.string_value(), at);
  return true;
}

// The frame of the function a call join (plan::Join::call) goes through,
// its parameters bound to the call's arguments, all but the one each item
// goes to (its slot in `*slot`). Null when an argument is an error: every
// call would then be one, and the items are visited so that it shows.
ExprEvaluator* ExprEvaluator::CallFrame(const plan::Join& join, uint32_t* slot) {
  const Expr& call = *join.call;
  // All evaluated before any is bound: an argument may call the function too.
  std::vector<Value> args(call.args.size());
  std::vector<TraceValue>* trace = trace_;
  trace_ = nullptr;
  bool failed = false;
  for (size_t i = 0; i < args.size() && !failed; ++i) {
    if (i != join.param) args[i] = Eval(*call.args[i]);
    failed = args[i].is_error();
  }
  trace_ = trace;
  if (failed) return nullptr;
  ExprEvaluator* frame = Frame(tables_.symbols[call.id].index);
  for (size_t i = 0; i < args.size(); ++i) frame->slots_[i] = std::move(args[i]);
  *slot = join.param;
  return frame;
}

SourceLoc ExprEvaluator::Anchor(const Expr& e) const {
  uint32_t at = e.span.begin;
  const std::string& text = sources_.file(e.span.file).text();
  auto find_between = [&](uint32_t from, uint32_t to, const std::string& what) {
    size_t found = text.find(what, from);
    return found != std::string::npos && found < to ? static_cast<uint32_t>(found) : from;
  };
  switch (e.kind) {
    case ExprKind::kBinary:
      at = find_between(e.args[0]->span.end, e.args[1]->span.begin,
                        syntax::BinaryOpText(e.binary_op));
      break;
    case ExprKind::kConditional:
      at = find_between(e.args[0]->span.end, e.args[1]->span.begin, "?");
      break;
    case ExprKind::kSelect:
      at = e.span.end - static_cast<uint32_t>(e.name.size());
      break;
    case ExprKind::kIndex:
      at = find_between(e.args[0]->span.end, e.args[1]->span.begin, "[");
      break;
    case ExprKind::kMacro:
      at = find_between(e.args[0]->span.end, e.span.end, e.name.empty() ? "(" : ".");
      break;
    case ExprKind::kCall:
      if (e.is_method) at = find_between(e.args[0]->span.end, e.span.end, e.name);
      break;
    default:
      break;
  }
  return sources_.Resolve(Span{e.span.file, at, at + 1});
}

bool ExprEvaluator::YieldsOptional(const Expr& e) const {
  return program_.schema.KindOf(tables_.types[e.id]) == TypeKind::kOptional;
}

ExprEvaluator::Steps ExprEvaluator::YieldsSteps(const Expr& e) const {
  const TypeTable& types = program_.schema;
  const Type t = types.Get(tables_.types[e.id]);
  auto is_step = [&](const Type& x) {
    return x.kind == TypeKind::kRecord &&
           types.records[x.index].builtin == RecordDef::Builtin::kSegment;
  };
  if (t.kind == TypeKind::kTimeline) return Steps::kTimeline;
  if (is_step(t)) return Steps::kStep;
  if (t.kind == TypeKind::kList && is_step(types.Get(t.elem))) return Steps::kList;
  return Steps::kNone;
}

const Expr* ExprEvaluator::StepBound(const Expr& range, bool* over) const {
  const Expr* e = &range;
  while (e->kind == ExprKind::kMacro && e->macro == MacroKind::kFilter) e = e->args[0].get();
  if (e->kind != ExprKind::kCall || !e->is_method || e->args.size() < 2 ||
      tables_.symbols[e->id].kind == SymbolKind::kFunction) {
    return nullptr;
  }
  check::FunctionId f = tables_.functions[e->id];
  if (f != check::FunctionId::kOver && f != check::FunctionId::kUnder) return nullptr;
  *over = f == check::FunctionId::kOver;
  return e->args[1].get();
}

std::string ExprEvaluator::ShownValue(const Expr& e, const Value& v,
                                      std::string (*text)(const Value&)) const {
  if (YieldsOptional(e)) return OptionalText(v, text);
  return YieldsSteps(e) != Steps::kNone && !v.is_error() ? StepsText(v, kShownChars) : text(v);
}

std::string TraceText(const Value& v) {
  if (v.is_error()) return "error: " + std::string(v.string_value());
  std::string_view id = v.Id();
  std::string text = id.empty() ? v.ToLiteral(kShownChars) : "{id: \"" + std::string(id) + "\", …}";
  if (text.size() > kShownChars) text = text.substr(0, kShownChars - 3) + "...";
  return text;
}

Value ExprEvaluator::EvalNode(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral:
    case ExprKind::kIdent:
    case ExprKind::kSelect:
    case ExprKind::kIndex:
    case ExprKind::kConditional: {
      Value holder;
      return RefNode(e, &holder);
    }
    case ExprKind::kCall:
      return EvalCall(e);
    case ExprKind::kMacro:
      return EvalMacro(e);
    case ExprKind::kList:
    case ExprKind::kSet:
    case ExprKind::kMap:
      return EvalCollection(e);
    case ExprKind::kOptSelect:
      return EvalOptSelect(e);
    case ExprKind::kListIf:
      return Value::Error("a conditional element outside a list");  // the parser makes none
    case ExprKind::kLet: {
      // The value is bound as it is, an error too: the body may not need it.
      Value& slot = slots_[tables_.slots[e.id]];
      slot = Eval(*e.args[0]);
      Value body = Eval(*e.args[1]);
      slot = Value();
      return body;
    }
    case ExprKind::kHas: {
      const Expr& select = *e.args[0];
      Value held;
      const Value& operand = Ref(*select.args[0], &held);
      if (operand.is_error()) return operand;
      if (!operand.is(ValueKind::kMap)) {
        return Value::Error("`has` needs a map, not " + DescribeKind(operand), operand.loc());
      }
      return Value::Bool(operand.Field(select.field, HintOf(select)) != nullptr);
    }
    case ExprKind::kUnary: {
      Value held;
      const Value& v = Ref(*e.args[0], &held);
      return v.is_error() ? v : ApplyUnary(e.unary_op, v);
    }
    case ExprKind::kBinary: {
      if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) return EvalLogical(e);
      Value lhs_held, rhs_held;
      const Value& lhs = Ref(*e.args[0], &lhs_held);
      if (lhs.is_error()) return lhs;
      const Value& rhs = Ref(*e.args[1], &rhs_held);
      if (rhs.is_error()) return rhs;
      Value r = ApplyBinary(e.binary_op, lhs, rhs, &state_->budget);
      if (r.is_error()) return Located(std::move(r), e, lhs.loc().valid() ? lhs.loc() : rhs.loc());
      return r;
    }
  }
  return Value::Error("unknown expression");
}

// An error about fact values points at the fact it came from; a value
// refused by the budget, at the expression that would have built it.
Value ExprEvaluator::Located(Value r, const Expr& e, const SourceLoc& fact) const {
  if (!r.is_error() || r.loc().valid()) return r;
  if (out_of_budget()) {
    r.set_loc(Anchor(e));
  } else if (fact.valid()) {
    r.set_loc(fact);
  }
  return r;
}

const Value& ExprEvaluator::RefIdent(const Expr& e, Value* holder) {
  const check::Symbol& sym = tables_.symbols[e.id];
  switch (sym.kind) {
    case SymbolKind::kLocal:
      return slots_[sym.index];
    case SymbolKind::kParam:
      return params_[sym.index];
    case SymbolKind::kRoot:
      return static_cast<check::Root>(sym.index) == check::Root::kPlan ? facts_.plan
                                                                       : facts_.inventory;
    case SymbolKind::kConstant:
      return program_.constants[sym.index];
    case SymbolKind::kFunction:  // a call's meaning, never a name's
    case SymbolKind::kUnresolved:
      break;
  }
  return *holder = Value::Error("unresolved name `" + e.name + "`");
}

// A part of `whole`: itself when `whole` outlives the call, else a copy in
// `*holder` (`whole` is then the caller's temporary).
static const Value& PartOf(const Value& whole, const Value* temporary, const Value& part,
                           Value* holder) {
  if (&whole != temporary) return part;
  Value copy = part;
  return *holder = std::move(copy);
}

// Names an object in messages: "allocation `a-explore`"-like via its id.
static std::string Describe(const Value& v) {
  std::string_view id = v.Id();
  return id.empty() ? DescribeKind(v) : "`" + std::string(id) + "`";
}

const Value& ExprEvaluator::RefSelect(const Expr& e, Value* holder) {
  const check::Symbol& sym = tables_.symbols[e.id];
  if (sym.kind == SymbolKind::kConstant) return program_.constants[sym.index];  // `Enum.member`
  Value held;
  const Value& operand = Ref(*e.args[0], &held);
  if (operand.is_error()) return *holder = operand;
  if (!operand.is(ValueKind::kMap)) {
    return *holder = Value::Error("cannot read field `" + e.name + "` of " + DescribeKind(operand),
                                  operand.loc());
  }
  if (const Value* field = operand.Field(e.field, HintOf(e)))
    return PartOf(operand, &held, *field, holder);
  std::vector<std::string> keys;
  for (const auto& [key, _] : operand.entries()) keys.push_back(key);
  std::string message = Describe(operand) + " has no field `" + e.name + "`";
  std::string guess = ClosestName(e.name, keys);
  if (!guess.empty()) message += " (did you mean `" + guess + "`?)";
  return *holder = Value::Error(message, operand.loc());
}

const Value& ExprEvaluator::RefIndex(const Expr& e, Value* holder) {
  Value operand_held, index_held;
  const Value& operand = Ref(*e.args[0], &operand_held);
  if (operand.is_error()) return *holder = operand;
  const Value& index = Ref(*e.args[1], &index_held);
  if (index.is_error()) return *holder = index;
  if (operand.is(ValueKind::kList) && index.is(ValueKind::kInt)) {
    int64_t i = index.int_value();
    if (i < 0 || static_cast<uint64_t>(i) >= operand.items().size()) {
      return *holder = Value::Error("index " + std::to_string(i) + " is out of range", index.loc());
    }
    return PartOf(operand, &operand_held, operand.items()[static_cast<size_t>(i)], holder);
  }
  if (operand.is(ValueKind::kList) && index.is(ValueKind::kString)) {
    if (const Value* item = operand.FindById(index, state_->IdHintFor(operand, index)))
      return PartOf(operand, &operand_held, *item, holder);
    std::string what = Text(e.args[0]->span);
    if (!operand.keyed() && !operand.items().empty()) {
      return *holder = Value::Error("`" + what + "` is not keyed: its items need unique string ids",
                                    operand.loc());
    }
    // A dangling reference: point at the value that names the missing id.
    return *holder = Value::Error(
               "no item with id `" + Shown(index.string_value()) + "` in `" + what + "`",
               index.loc().valid() ? index.loc() : operand.loc());
  }
  if (operand.is(ValueKind::kMap) && index.is(ValueKind::kString)) {
    if (const Value* field = operand.Field(index.string_value()))
      return PartOf(operand, &operand_held, *field, holder);
    return *holder = Value::Error("no key `" + Shown(index.string_value()) + "`",
                                  index.loc().valid() ? index.loc() : operand.loc());
  }
  return *holder =
             Value::Error("cannot index " + DescribeKind(operand) + " with " + DescribeKind(index),
                          operand.loc());
}

// CEL's commutative logic: a decisive operand wins over an error on the other side.
Value ExprEvaluator::EvalLogical(const Expr& e) {
  bool is_and = e.binary_op == BinaryOp::kAnd;
  const char* op = is_and ? "&&" : "||";
  auto decisive = [&](const Value& v) {
    return v.is(ValueKind::kBool) && v.bool_value() != is_and;
  };
  Value lhs_held, rhs_held;
  const Value& lhs = Ref(*e.args[0], &lhs_held);
  if (decisive(lhs)) return lhs;
  const Value& rhs = Ref(*e.args[1], &rhs_held);
  if (decisive(rhs)) return rhs;
  for (const Value* v : {&lhs, &rhs}) {
    if (v->is_error()) return *v;
    if (!v->is(ValueKind::kBool)) {
      return Value::Error("`" + std::string(op) + "` needs bools, not " + DescribeKind(*v),
                          v->loc());
    }
  }
  return Value::Bool(is_and);
}

Value ExprEvaluator::EvalCall(const Expr& e) {
  const check::Symbol& sym = tables_.symbols[e.id];
  // A CPL function's few arguments are held on the stack: a call is made
  // per pair of facts in a join, and an allocation each would show.
  constexpr size_t kHeldArgs = 4;
  if (sym.kind == SymbolKind::kFunction && e.args.size() <= kHeldArgs) {
    std::array<Value, kHeldArgs> held;
    for (size_t i = 0; i < e.args.size(); ++i) {
      held[i] = Eval(*e.args[i]);
      if (held[i].is_error()) return held[i];
    }
    return CallUser(sym.index, held.data(), e.args.size());
  }
  std::vector<Value> args;
  args.reserve(e.args.size());
  for (const auto& arg : e.args) {
    args.push_back(Eval(*arg));
    if (args.back().is_error()) return args.back();
  }
  if (sym.kind == SymbolKind::kFunction) return CallUser(sym.index, args.data(), args.size());
  BuiltinContext context{&state_->budget, &state_->patterns};
  if (module_plan_ != nullptr && module_plan_->pattern[e.id] >= 0) {
    context.literal = module_plan_->patterns[module_plan_->pattern[e.id]].get();
  }
  Value r = CallBuiltin(tables_.functions[e.id], args, context);
  if (r.is_error()) return Located(std::move(r), e, args.empty() ? SourceLoc{} : args[0].loc());
  return r;
}

// A CPL function is pure: a costly one (it runs a comprehension) gives the
// same value whenever it is called with the same arguments, wherever the
// call is (`stands_in(types, subs, required, t, p.accelerator, p)` for every
// allocation on a pool). Its value is remembered for the rest of the rule
// by the arguments' identities, a short list by its length and items, from
// the second time the same arguments come.
Value ExprEvaluator::CallUser(uint32_t index, Value* args, size_t count) {
  if (memo_ == nullptr || !plan_->costly_functions[index]) return Call(index, args, count);
  Memo::Calls& calls = memo_->calls[index];
  if (calls.off) return Call(index, args, count);
  // A short list (a record's `evidence`, the windows of an allocation) is
  // compared by its items: another allocation's list, or one built afresh,
  // may hold the same. A longer one (a collection of the facts, a param) is
  // compared as itself, which is how it repeats.
  constexpr size_t kShortList = 4;
  memo_->probe.values.clear();
  for (size_t i = 0; i < count; ++i) memo_->probe.AddItems(args[i], kShortList);
  auto it = calls.values.find(memo_->probe);
  ++calls.probes;
  if (it != calls.values.end()) {
    ++calls.hits;
    return it->second;
  }
  // Fewer than one in sixteen of its first calls repeated: remembering the
  // rest would cost a lookup and a key each, for as little.
  constexpr uint32_t kTrial = 256;
  if (calls.probes == kTrial && calls.hits < kTrial / 16) {
    calls.off = true;
    calls.values.clear();
    return Call(index, args, count);
  }
  const Expr* body = program_.functions[index].decl->body.get();
  if (memo_->items_seen_once.insert({body, VarsKeyHash()(memo_->probe)}).second)
    return Call(index, args, count);
  // The call below may probe again: the key kept holds its own references.
  VarsKey key = memo_->probe;
  Value v = Call(index, args, count);
  // Running out of budget is no property of the call: not remembered.
  if (!out_of_budget()) calls.values.emplace(std::move(key), v);
  return v;
}

// A `fn` body runs in its own frame, against its own module's tables; the
// budget is shared. Functions cannot recurse, so frames nest at most as
// deep as the chain of declarations.
Value ExprEvaluator::Call(uint32_t index, Value* args, size_t count) {
  ExprEvaluator* frame = Frame(index);
  for (size_t i = 0; i < count; ++i) frame->slots_[i] = std::move(args[i]);
  return frame->Eval(*program_.functions[index].decl->body);
}

ExprEvaluator* ExprEvaluator::Frame(uint32_t index) {
  const check::UserFunction& f = program_.functions[index];
  if (frames_.size() <= index) frames_.resize(index + 1);
  std::unique_ptr<ExprEvaluator>& frame = frames_[index];
  if (!frame) {
    frame.reset(new ExprEvaluator(program_, program_.tables[f.module], params_, facts_, sources_,
                                  f.slot_count, state_));
    if (memo_ != nullptr) frame->UsePlan(plan_, f.module, memo_);
  }
  return frame.get();
}

Value ExprEvaluator::EvalCollection(const Expr& e) {
  Budget& budget = state_->budget;
  if (e.kind == ExprKind::kMap) {
    if (!budget.Allocate(MapBytes(e.args.size() / 2))) return Located(budget.Error(), e, {});
    MapEntries entries;
    std::unordered_set<const std::string*> keys;  // interned: one address per text
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value key = Eval(*e.args[i]);
      if (key.is_error()) return key;
      if (!key.is(ValueKind::kString))
        return Value::Error("map keys must be strings, not " + DescribeKind(key));
      Value value = Eval(*e.args[i + 1]);
      if (value.is_error()) return value;
      entries.emplace_back(key.string_value(), std::move(value));
      // As in CEL, a key given twice is an error, not a silent choice of one.
      if (!keys.insert(entries.back().first.address()).second) {
        return Value::Error("duplicate key `" + std::string(key.string_value()) +
                            "` in a map literal");
      }
    }
    return Value::Map(std::move(entries));
  }
  if (!budget.Allocate(ListBytes(e.args.size()))) return Located(budget.Error(), e, {});
  std::vector<Value> items;
  for (const auto& arg : e.args) {
    // `x if c`: `c` first, and `x` only when it holds.
    if (arg->kind == ExprKind::kListIf) {
      Value cond = Eval(*arg->args[1]);
      if (cond.is_error()) return cond;
      if (!cond.is(ValueKind::kBool)) {
        return Value::Error(
            "the condition of a list element must be a bool, not " + DescribeKind(cond),
            cond.loc());
      }
      if (!cond.bool_value()) continue;
    }
    Value v = Eval(arg->kind == ExprKind::kListIf ? *arg->args[0] : *arg);
    if (v.is_error()) return v;
    bool repeated = false;
    for (size_t i = 0; e.kind == ExprKind::kSet && i < items.size() && !repeated; ++i) {
      if (!ChargeEquality(items[i], v, &budget)) return Located(budget.Error(), e, {});
      repeated = items[i] == v;
    }
    if (!repeated) items.push_back(std::move(v));
  }
  return Value::List(std::move(items));
}

// `a.?f`: an optional of `a.f`, none when `a` has no `f`; on an optional `a`
// (a chain), none stays none.
Value ExprEvaluator::EvalOptSelect(const Expr& e) {
  Value held;
  const Value& operand = Ref(*e.args[0], &held);
  if (operand.is_error()) return operand;
  const Value* record = &operand;
  if (YieldsOptional(*e.args[0])) {
    record = OptionalValue(operand);
    if (record == nullptr) return OptionalNone();
  }
  if (!record->is(ValueKind::kMap)) {
    return Value::Error("cannot read field `" + e.name + "` of " + DescribeKind(*record),
                        record->loc());
  }
  if (!state_->budget.Allocate(ListBytes(1))) return Located(state_->budget.Error(), e, {});
  const Value* field = record->Field(e.field, HintOf(e));
  return field != nullptr ? OptionalOf(*field) : OptionalNone();
}

namespace {

// Sets `*at` to `value` for a scope, restored however the scope ends.
class Assume {
 public:
  Assume(const syntax::Expr** at, const syntax::Expr* value) : at_(at), saved_(*at) { *at = value; }
  Assume(const Assume&) = delete;
  Assume& operator=(const Assume&) = delete;
  ~Assume() { *at_ = saved_; }

 private:
  const syntax::Expr** at_;
  const syntax::Expr* saved_;
};

// What a comprehension's body read for an item is that item's alone. When
// `all` or `exists` stops at an item (its witness), what it read for the
// items it went past before is marked per_item: those are not the reason.
class ItemTrace {
 public:
  explicit ItemTrace(std::vector<TraceValue>* trace)
      : trace_(trace), loop_(trace ? trace->size() : 0), item_(loop_) {}
  void NextItem() {
    if (trace_ != nullptr) item_ = trace_->size();
  }
  void Stopped() {
    if (trace_ == nullptr) return;
    for (size_t i = loop_; i < item_; ++i) (*trace_)[i].per_item = true;
  }

 private:
  std::vector<TraceValue>* trace_;
  size_t loop_;  // where the loop's values start
  size_t item_;  // where the current item's start
};

}  // namespace

// The items a comprehension visits: a list's own, or a map's keys (made
// into `*keys`). An error value when `range` is neither or the keys would
// pass the budget, else a null value.
Value ExprEvaluator::MacroItems(const Expr& e, const Value& range, std::vector<Value>* keys,
                                ListView* items) {
  if (range.is(ValueKind::kList)) {
    *items = range.items();
    return Value();
  }
  if (!range.is(ValueKind::kMap)) {
    return Value::Error("`" + std::string(syntax::MacroName(e.macro)) +
                            "` needs a list or map, not " + DescribeKind(range),
                        range.loc());
  }
  if (!state_->budget.Allocate(MapBytes(range.entries().size())))
    return Located(state_->budget.Error(), e, {});
  for (const auto& [key, _] : range.entries()) keys->push_back(Value::String(key));
  *items = *keys;
  return Value();
}

// What a comprehension that visited every item gives.
Value ExprEvaluator::MacroResult(const Expr& e, const Value& first_error, int64_t true_count,
                                 std::vector<Value> out) {
  switch (e.macro) {
    case MacroKind::kAll:
    case MacroKind::kExists:
      if (first_error.is_error()) return first_error;
      return Value::Bool(e.macro == MacroKind::kAll);
    case MacroKind::kExistsOne:
      return Value::Bool(true_count == 1);
    default:
      if (!state_->budget.Allocate(ListBytes(out.size())))
        return Located(state_->budget.Error(), e, {});
      return Value::List(std::move(out));
  }
}

Value ExprEvaluator::EvalMacro(const Expr& e) {
  Value range_held;
  const Value& range = Ref(*e.args[0], &range_held);
  if (range.is_error()) return range;
  std::vector<Value> keys;
  ListView items;
  Value bad = MacroItems(e, range, &keys, &items);
  if (bad.is_error()) return bad;
  uint32_t slot = tables_.slots[e.id];
  std::vector<Value> scratch;
  const syntax::Expr* holds = nullptr;
  int32_t join = module_plan_ != nullptr ? module_plan_->join[e.id] : -1;
  Candidates(join, range, slot, &scratch, &items, &holds);  // a join's items only
  state_->visited += items.size();
  Assume assumed(&holds_, holds);  // for this loop's body, restored however it ends
  ItemTrace item_trace(trace_);
  LoopVariable var(&slots_[slot]);
  const Expr& body = *e.args[1];
  Value first_error;
  int64_t true_count = 0;
  std::vector<Value> out;
  ReadAhead ahead(items);
  Gathered gathered(this);
  for (size_t k = 0; k < items.size(); ++k) {
    ahead.Step(k);
    item_trace.NextItem();
    const Value& item = items[k];
    var.Bind(item);
    Value held;
    const Value& v = Ref(body, &held);
    if (out_of_budget()) return v;
    if (e.macro == MacroKind::kMap && e.args.size() == 2) {
      if (v.is_error()) return v;
      out.push_back(v);
      continue;
    }
    if (e.macro == MacroKind::kGroup || e.macro == MacroKind::kTimeline) {
      Value bad = gathered.Add(e, item, v);
      if (bad.is_error()) return bad;
      continue;
    }
    if (v.is_error()) {
      if (e.macro != MacroKind::kAll && e.macro != MacroKind::kExists) return v;
      if (!first_error.is_error()) first_error = v;
      continue;
    }
    if (!v.is(ValueKind::kBool)) {
      return Value::Error("the condition of `" + std::string(syntax::MacroName(e.macro)) +
                          "` must be a bool, not " + DescribeKind(v));
    }
    bool b = v.bool_value();
    if ((e.macro == MacroKind::kAll && !b) || (e.macro == MacroKind::kExists && b)) {
      item_trace.Stopped();
      return Value::Bool(b);
    }
    true_count += b;
    if (b && e.macro == MacroKind::kFilter) out.push_back(item);
    if (b && e.macro == MacroKind::kMap) {
      Value mapped = Eval(*e.args[2]);
      if (mapped.is_error()) return mapped;
      out.push_back(std::move(mapped));
    }
  }
  if (e.macro == MacroKind::kGroup) return GroupItems(gathered.keyed, &state_->budget);
  if (e.macro == MacroKind::kTimeline) return BuildTimeline(gathered.timeline, &state_->budget);
  return MacroResult(e, first_error, true_count, std::move(out));
}

// An item of `group` (`v` is its key) or of `timeline` (`v` its windows;
// the amount is evaluated here, with the item still bound).
Value ExprEvaluator::Gathered::Add(const Expr& e, const Value& item, const Value& v) {
  if (v.is_error()) return v;
  if (e.macro == MacroKind::kGroup) {
    keyed.emplace_back(v, item);
    return Value();
  }
  TimelineItem next{item, {}, Value()};
  if (v.is(ValueKind::kList)) {
    for (const Value& w : v.items()) {
      Interval i;
      Value bad = ToInterval(w, &i);
      if (bad.is_error()) return bad;
      next.windows.push_back(i);
    }
  } else {
    Interval i;
    Value bad = ToInterval(v, &i);
    if (bad.is_error()) return bad;
    next.windows.push_back(i);
  }
  next.amount = owner->Eval(*e.args[2]);
  if (next.amount.is_error()) return next.amount;
  timeline.push_back(std::move(next));
  return Value();
}

}  // namespace capops::eval
