// The rule evaluator. Entry points: eval::EvaluateParams, eval::Evaluate.
//
// ExprEvaluator computes one expression against variable slots; RuleRun walks
// a rule's clauses depth-first (one level per clause), emitting a violation
// for each binding that reaches the end. Slots were assigned by the checker,
// so no name is looked up here.
#include "engine/eval/evaluator.h"

#include <algorithm>
#include <tuple>

#include "engine/eval/builtins.h"
#include "engine/eval/operators.h"

namespace capops::eval {

namespace {

using check::SymbolKind;
using syntax::BinaryOp;
using syntax::Expr;
using syntax::ExprKind;
using syntax::MacroKind;

std::string TraceText(const Value& v);

class ExprEvaluator {
 public:
  ExprEvaluator(const check::Program& program, const check::ModuleTables& tables,
                const std::vector<Value>& params, const Facts& facts, const SourceManager& sources,
                uint32_t slot_count, uint64_t max_steps)
      : program_(program), tables_(tables), params_(params), facts_(facts), sources_(sources),
        slots_(slot_count), max_steps_(max_steps) {}

  Value Eval(const Expr& e);
  std::vector<Value>& slots() { return slots_; }
  bool out_of_budget() const { return steps_ > max_steps_; }
  /// While set, every evaluated non-literal sub-expression is appended here.
  void set_trace(std::vector<TraceValue>* sink) { trace_ = sink; }
  std::string Text(const Span& span) const;

 private:
  Value EvalNode(const Expr& e);
  Value EvalIdent(const Expr& e);
  Value EvalSelect(const Expr& e);
  Value EvalIndex(const Expr& e);
  Value EvalLogical(const Expr& e);
  Value EvalCall(const Expr& e);
  Value EvalMacro(const Expr& e);
  Value EvalCollection(const Expr& e);

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

std::string ExprEvaluator::Text(const Span& span) const {
  if (!span.valid()) return "";
  const std::string& text = sources_.file(span.file).text();
  if (span.begin >= text.size() || span.end < span.begin) return "";
  return text.substr(span.begin, std::min<size_t>(span.end, text.size()) - span.begin);
}

Value ExprEvaluator::Eval(const Expr& e) {
  if (++steps_ > max_steps_) {
    return Value::Error("evaluation budget of " + std::to_string(max_steps_) + " steps exceeded");
  }
  Value v = EvalNode(e);
  if (trace_ != nullptr && e.kind != ExprKind::kLiteral) {
    trace_->push_back(TraceValue{Text(e.span), TraceText(v), sources_.Resolve(e.span), v.loc()});
  }
  return v;
}

// Values in traces stay short: a record shows its id, a long text is cut.
std::string TraceText(const Value& v) {
  if (v.is_error()) return "error: " + v.string_value();
  std::string_view id = v.Id();
  std::string text = id.empty() ? v.ToLiteral() : "{id: \"" + std::string(id) + "\", …}";
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

Value ExprEvaluator::EvalNode(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral: return e.literal;
    case ExprKind::kIdent: return EvalIdent(e);
    case ExprKind::kSelect: return EvalSelect(e);
    case ExprKind::kIndex: return EvalIndex(e);
    case ExprKind::kCall: return EvalCall(e);
    case ExprKind::kMacro: return EvalMacro(e);
    case ExprKind::kList:
    case ExprKind::kSet:
    case ExprKind::kMap: return EvalCollection(e);
    case ExprKind::kHas: {
      const Expr& select = *e.args[0];
      Value operand = Eval(*select.args[0]);
      if (operand.is_error()) return operand;
      if (!operand.is(ValueKind::kMap)) {
        return Value::Error("`has` needs a map, not " + DescribeKind(operand), operand.loc());
      }
      return Value::Bool(operand.Field(select.name) != nullptr);
    }
    case ExprKind::kUnary: {
      Value v = Eval(*e.args[0]);
      return v.is_error() ? v : ApplyUnary(e.unary_op, v);
    }
    case ExprKind::kBinary: {
      if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) return EvalLogical(e);
      Value lhs = Eval(*e.args[0]);
      if (lhs.is_error()) return lhs;
      Value rhs = Eval(*e.args[1]);
      if (rhs.is_error()) return rhs;
      Value r = ApplyBinary(e.binary_op, lhs, rhs);
      // An error about fact values points at the fact it came from.
      if (r.is_error() && !r.loc().valid()) r.set_loc(lhs.loc().valid() ? lhs.loc() : rhs.loc());
      return r;
    }
    case ExprKind::kConditional: {
      Value cond = Eval(*e.args[0]);
      if (cond.is_error()) return cond;
      if (!cond.is(ValueKind::kBool)) return Value::Error("`?:` needs a bool condition, not " + DescribeKind(cond));
      return Eval(*e.args[cond.bool_value() ? 1 : 2]);
    }
  }
  return Value::Error("unknown expression");
}

Value ExprEvaluator::EvalIdent(const Expr& e) {
  const check::Symbol& sym = tables_.symbols[e.id];
  switch (sym.kind) {
    case SymbolKind::kLocal: return slots_[sym.index];
    case SymbolKind::kParam: return params_[sym.index];
    case SymbolKind::kRoot:
      return static_cast<check::Root>(sym.index) == check::Root::kPlan ? facts_.plan : facts_.inventory;
    case SymbolKind::kConstant: return program_.constants[sym.index];
    case SymbolKind::kUnresolved: break;
  }
  return Value::Error("unresolved name `" + e.name + "`");
}

// Names an object in messages: "allocation `a-explore`"-like via its id.
std::string Describe(const Value& v) {
  std::string_view id = v.Id();
  return id.empty() ? DescribeKind(v) : "`" + std::string(id) + "`";
}

Value ExprEvaluator::EvalSelect(const Expr& e) {
  const check::Symbol& sym = tables_.symbols[e.id];
  if (sym.kind == SymbolKind::kConstant) return program_.constants[sym.index];  // `Enum.member`
  Value operand = Eval(*e.args[0]);
  if (operand.is_error()) return operand;
  if (!operand.is(ValueKind::kMap)) {
    return Value::Error("cannot read field `" + e.name + "` of " + DescribeKind(operand), operand.loc());
  }
  if (const Value* field = operand.Field(e.name)) return *field;
  std::vector<std::string> keys;
  for (const auto& [key, _] : operand.entries()) keys.push_back(key);
  std::string message = Describe(operand) + " has no field `" + e.name + "`";
  std::string guess = ClosestName(e.name, keys);
  if (!guess.empty()) message += " (did you mean `" + guess + "`?)";
  return Value::Error(message, operand.loc());
}

Value ExprEvaluator::EvalIndex(const Expr& e) {
  Value operand = Eval(*e.args[0]);
  if (operand.is_error()) return operand;
  Value index = Eval(*e.args[1]);
  if (index.is_error()) return index;
  if (operand.is(ValueKind::kList) && index.is(ValueKind::kInt)) {
    int64_t i = index.int_value();
    if (i < 0 || static_cast<uint64_t>(i) >= operand.items().size()) {
      return Value::Error("index " + std::to_string(i) + " is out of range", index.loc());
    }
    return operand.items()[static_cast<size_t>(i)];
  }
  if (operand.is(ValueKind::kList) && index.is(ValueKind::kString)) {
    if (const Value* item = operand.FindById(index.string_value())) return *item;
    std::string what = Text(e.args[0]->span);
    if (!operand.keyed() && !operand.items().empty()) {
      return Value::Error("`" + what + "` is not keyed: its items need unique string ids", operand.loc());
    }
    // A dangling reference: point at the value that names the missing id.
    return Value::Error("no item with id `" + index.string_value() + "` in `" + what + "`",
                        index.loc().valid() ? index.loc() : operand.loc());
  }
  if (operand.is(ValueKind::kMap) && index.is(ValueKind::kString)) {
    if (const Value* field = operand.Field(index.string_value())) return *field;
    return Value::Error("no key `" + index.string_value() + "`", index.loc().valid() ? index.loc() : operand.loc());
  }
  return Value::Error("cannot index " + DescribeKind(operand) + " with " + DescribeKind(index),
                      operand.loc());
}

// CEL's commutative logic: a decisive operand wins over an error on the other side.
Value ExprEvaluator::EvalLogical(const Expr& e) {
  bool is_and = e.binary_op == BinaryOp::kAnd;
  const char* op = is_and ? "&&" : "||";
  auto decisive = [&](const Value& v) { return v.is(ValueKind::kBool) && v.bool_value() != is_and; };
  Value lhs = Eval(*e.args[0]);
  if (decisive(lhs)) return lhs;
  Value rhs = Eval(*e.args[1]);
  if (decisive(rhs)) return rhs;
  for (const Value* v : {&lhs, &rhs}) {
    if (v->is_error()) return *v;
    if (!v->is(ValueKind::kBool)) {
      return Value::Error("`" + std::string(op) + "` needs bools, not " + DescribeKind(*v), v->loc());
    }
  }
  return Value::Bool(is_and);
}

Value ExprEvaluator::EvalCall(const Expr& e) {
  std::vector<Value> args;
  args.reserve(e.args.size());
  for (const auto& arg : e.args) {
    args.push_back(Eval(*arg));
    if (args.back().is_error()) return args.back();
  }
  Value r = CallBuiltin(tables_.functions[e.id], args);
  if (r.is_error() && !r.loc().valid() && !args.empty()) r.set_loc(args[0].loc());
  return r;
}

Value ExprEvaluator::EvalCollection(const Expr& e) {
  if (e.kind == ExprKind::kMap) {
    MapEntries entries;
    for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value key = Eval(*e.args[i]);
      if (key.is_error()) return key;
      if (!key.is(ValueKind::kString)) return Value::Error("map keys must be strings, not " + DescribeKind(key));
      Value value = Eval(*e.args[i + 1]);
      if (value.is_error()) return value;
      entries.emplace_back(key.string_value(), std::move(value));
    }
    return Value::Map(std::move(entries));
  }
  std::vector<Value> items;
  for (const auto& arg : e.args) {
    Value v = Eval(*arg);
    if (v.is_error()) return v;
    bool repeated = e.kind == ExprKind::kSet &&
                    std::any_of(items.begin(), items.end(), [&](const Value& x) { return x == v; });
    if (!repeated) items.push_back(std::move(v));
  }
  return Value::List(std::move(items));
}

Value ExprEvaluator::EvalMacro(const Expr& e) {
  Value range = Eval(*e.args[0]);
  if (range.is_error()) return range;
  std::vector<Value> keys;
  const std::vector<Value>* items = &range.items();
  if (range.is(ValueKind::kMap)) {
    for (const auto& [key, _] : range.entries()) keys.push_back(Value::String(key));
    items = &keys;
  } else if (!range.is(ValueKind::kList)) {
    return Value::Error("`" + std::string(syntax::MacroName(e.macro)) + "` needs a list or map, not " +
                            DescribeKind(range), range.loc());
  }
  Value& var = slots_[tables_.slots[e.id]];
  const Expr& body = *e.args[1];
  Value first_error;
  int64_t true_count = 0;
  std::vector<Value> out;
  for (const Value& item : *items) {
    var = item;
    Value v = Eval(body);
    if (out_of_budget()) return v;
    if (e.macro == MacroKind::kMap && e.args.size() == 2) {
      if (v.is_error()) return v;
      out.push_back(std::move(v));
      continue;
    }
    if (v.is_error()) {
      if (e.macro != MacroKind::kAll && e.macro != MacroKind::kExists) return v;
      if (!first_error.is_error()) first_error = v;
      continue;
    }
    if (!v.is(ValueKind::kBool)) {
      return Value::Error("the condition of `" + std::string(syntax::MacroName(e.macro)) + "` must be a bool, not " +
                          DescribeKind(v));
    }
    bool b = v.bool_value();
    if (e.macro == MacroKind::kAll && !b) return Value::Bool(false);
    if (e.macro == MacroKind::kExists && b) return Value::Bool(true);
    true_count += b;
    if (b && e.macro == MacroKind::kFilter) out.push_back(item);
    if (b && e.macro == MacroKind::kMap) {
      Value mapped = Eval(*e.args[2]);
      if (mapped.is_error()) return mapped;
      out.push_back(std::move(mapped));
    }
  }
  switch (e.macro) {
    case MacroKind::kAll:
    case MacroKind::kExists:
      if (first_error.is_error()) return first_error;
      return Value::Bool(e.macro == MacroKind::kAll);
    case MacroKind::kExistsOne: return Value::Bool(true_count == 1);
    default: return Value::List(std::move(out));
  }
}

// Runs one rule over one fact set.
class RuleRun {
 public:
  RuleRun(const check::Program& program, const check::RuleInfo& rule, const std::vector<Value>& params,
          const Facts& facts, const SourceManager& sources, const EvalOptions& options, EvalResult* out)
      : rule_(rule), sources_(sources), options_(options), out_(out),
        eval_(program, program.tables[rule.module], params, facts, sources, rule.slot_count, options.max_steps),
        slot_of_(program.tables[rule.module].slots),
        plan_loc_(facts.plan.loc()) {}

  void Run() {
    RunClauses(0);
    if (suppressed_ > 0) {
      out_->errors.Error(sources_.Resolve(rule_.rule->name_span),
                         std::to_string(suppressed_) + " more errors of rule `" + rule_.id + "` not shown")
          .code = rule_.id;
    }
  }

 private:
  void RunClauses(size_t i);
  bool RunWhere(const syntax::Clause& clause, bool* traced);
  void Emit(const syntax::Emit& emit);
  std::vector<Evidence> CollectEvidence();
  void RuleError(const Value& error, const Span& where, const char* what);

  const check::RuleInfo& rule_;
  const SourceManager& sources_;
  const EvalOptions& options_;
  EvalResult* out_;
  ExprEvaluator eval_;
  const std::vector<uint32_t>& slot_of_;
  SourceLoc plan_loc_;
  std::vector<TraceStep> trace_;
  size_t errors_ = 0;
  size_t suppressed_ = 0;
  bool aborted_ = false;
};

void RuleRun::RuleError(const Value& error, const Span& where, const char* what) {
  if (eval_.out_of_budget()) aborted_ = true;
  if (++errors_ > options_.max_errors_per_rule) {
    ++suppressed_;
    return;
  }
  SourceLoc clause = sources_.Resolve(where);
  SourceLoc loc = error.loc().valid() ? error.loc() : clause;
  Diagnostic& d = out_->errors.Error(loc, "rule `" + rule_.id + "` could not be evaluated: " + error.string_value());
  d.code = rule_.id;
  d.related.push_back({clause, std::string("while evaluating ") + what});
  if (eval_.out_of_budget()) d.help = "raise the budget with `--max-steps`, or bound the rule's loops";
}

void RuleRun::RunClauses(size_t i) {
  if (aborted_) return;
  const auto& clauses = rule_.rule->clauses;
  if (i == clauses.size()) {
    for (const syntax::Emit& emit : rule_.rule->emits) Emit(emit);
    return;
  }
  const syntax::Clause& clause = clauses[i];
  switch (clause.kind) {
    case syntax::ClauseKind::kFor: {
      Value range = eval_.Eval(*clause.expr);
      if (range.is_error()) return RuleError(range, clause.expr->span, "this `for`");
      if (!range.is(ValueKind::kList)) {
        return RuleError(Value::Error("`for` needs a list, not " + DescribeKind(range), range.loc()),
                         clause.expr->span, "this `for`");
      }
      for (const Value& item : range.items()) {
        eval_.slots()[slot_of_[clause.id]] = item;
        RunClauses(i + 1);
        if (aborted_) return;
      }
      return;
    }
    case syntax::ClauseKind::kLet: {
      Value v = eval_.Eval(*clause.expr);
      if (v.is_error()) return RuleError(v, clause.expr->span, "this `let`");
      eval_.slots()[slot_of_[clause.id]] = std::move(v);
      return RunClauses(i + 1);
    }
    case syntax::ClauseKind::kWhere: {
      bool traced = false;
      if (RunWhere(clause, &traced)) RunClauses(i + 1);
      if (traced) trace_.pop_back();
      return;
    }
  }
}

// True when the clause holds; with tracing on, pushes its trace step.
bool RuleRun::RunWhere(const syntax::Clause& clause, bool* traced) {
  std::vector<TraceValue> values;
  if (options_.trace) eval_.set_trace(&values);
  Value v = eval_.Eval(*clause.expr);
  eval_.set_trace(nullptr);
  if (v.is_error()) {
    RuleError(v, clause.expr->span, "this `where`");
    return false;
  }
  if (!v.is(ValueKind::kBool)) {
    RuleError(Value::Error("`where` needs a bool, not " + DescribeKind(v), v.loc()), clause.expr->span,
              "this `where`");
    return false;
  }
  if (v.bool_value() && options_.trace) {
    trace_.push_back(TraceStep{eval_.Text(clause.span), "true", sources_.Resolve(clause.span), std::move(values)});
    *traced = true;
  }
  return v.bool_value();
}

std::vector<Evidence> RuleRun::CollectEvidence() {
  std::vector<Evidence> evidence;
  for (const syntax::Clause& c : rule_.rule->clauses) {
    if (c.kind == syntax::ClauseKind::kWhere) continue;
    const Value& v = eval_.slots()[slot_of_[c.id]];
    std::string text = v.Id().empty() ? v.ToLiteral() : std::string(v.Id());
    if (text.size() > 120) text = text.substr(0, 117) + "...";
    evidence.push_back(Evidence{c.var, std::move(text), v.loc()});
  }
  return evidence;
}

void RuleRun::Emit(const syntax::Emit& emit) {
  if (emit.when) {
    Value cond = eval_.Eval(*emit.when);
    if (cond.is_error()) return RuleError(cond, emit.when->span, "this `when`");
    if (!cond.is(ValueKind::kBool)) {
      return RuleError(Value::Error("`when` needs a bool, not " + DescribeKind(cond)), emit.when->span, "this `when`");
    }
    if (!cond.bool_value()) return;
  }
  Violation v;
  v.rule_id = rule_.id;
  v.rule_name = rule_.rule->name;
  v.severity = emit.is_warn ? Severity::kWarning : rule_.severity;
  v.policy_loc = sources_.Resolve(emit.span);
  v.because = emit.because;
  v.fix = emit.fix;
  if (emit.at) {
    Value at = eval_.Eval(*emit.at);
    if (at.is_error()) return RuleError(at, emit.at->span, "this `at`");
    v.loc = at.loc();
  }
  for (const auto& part : emit.message.parts) {
    if (!part.expr) {
      v.message += part.text;
      continue;
    }
    Value hole = eval_.Eval(*part.expr);
    if (hole.is_error()) return RuleError(hole, part.expr->span, "this message");
    v.message += hole.ToString();
  }
  v.evidence = CollectEvidence();
  // Without a located `at`, point at the innermost loop item, else the plan.
  for (auto it = v.evidence.rbegin(); !v.loc.valid() && it != v.evidence.rend(); ++it) v.loc = it->loc;
  if (!v.loc.valid()) v.loc = plan_loc_;
  if (options_.trace) v.trace = trace_;
  out_->violations.push_back(std::move(v));
}

}  // namespace

std::vector<Value> EvaluateParams(const check::Program& program, const SourceManager& sources,
                                  Diagnostics* diagnostics) {
  std::vector<Value> values;
  Facts none;
  for (const check::ParamInfo& p : program.params) {
    ExprEvaluator eval(program, program.tables[p.module], values, none, sources, p.slot_count, 1'000'000);
    Value v = eval.Eval(*p.decl->default_value);
    if (v.is_error()) {
      diagnostics->Error(sources.Resolve(p.decl->default_value->span),
                         "param `" + p.decl->name + "` has no value: " + v.string_value());
    }
    values.push_back(std::move(v));
  }
  return values;
}

EvalResult Evaluate(const check::Program& program, const std::vector<Value>& params, const Facts& facts,
                    const SourceManager& sources, const EvalOptions& options) {
  EvalResult result;
  for (const check::RuleInfo& rule : program.rules) {
    RuleRun(program, rule, params, facts, sources, options, &result).Run();
  }
  auto key = [&](const Violation& v) {
    return std::make_tuple(sources.Path(v.loc.file), v.loc.line, v.loc.column, std::string_view(v.rule_id),
                           std::string_view(v.message));
  };
  std::stable_sort(result.violations.begin(), result.violations.end(),
                   [&](const Violation& a, const Violation& b) { return key(a) < key(b); });
  result.errors.Sort();
  return result;
}

}  // namespace capops::eval
