// SPDX-License-Identifier: Apache-2.0
// The interpreter of a rule's IR. Entry point: RuleRun (interpreter.h).
//
// RunOps walks the ops depth-first, one level per op: a scan loops, the
// others go on to the next op or end the path; a binding that reaches the
// emits runs each statement. Slots were assigned by the checker, so no
// name is looked up here.
#include "engine/eval/interpreter.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "engine/eval/operators.h"
#include "engine/eval/optional.h"
#include "engine/eval/shared_indexes.h"
#include "engine/eval/timeline.h"

namespace capops::eval {

namespace {

using plan::Op;
using plan::OpKind;

std::string Literal(const Value& v) {
  return v.ToLiteral(120);
}

}  // namespace

void LookupsAhead::Add(const ExprEvaluator& eval, const std::vector<plan::Lookup>& lookups) {
  for (const plan::Lookup& l : lookups) {
    const Value* list = eval.FactPath(*l.list);
    if (list == nullptr || !list->is(ValueKind::kList)) continue;
    Key field = l.key->field;
    auto same = [&](const Entry& e) { return e.list == list && e.field == field; };
    if (std::none_of(entries_.begin(), entries_.end(), same)) {
      entries_.push_back({list, field, eval.HintOf(*l.key), eval.run_state()});
    }
  }
}

RuleRun::RuleRun(const check::Program& program, size_t rule_index, const std::vector<Value>& params,
                 const Facts& facts, const SourceManager& sources, const EvalOptions& options,
                 IdHints* id_hints, SharedIndexes* indexes, EvalResult* out, RunObserver* observer)
    : rule_(program.rules[rule_index]),
      sources_(sources),
      options_(options),
      out_(out),
      eval_(program, program.tables[rule_.module], params, facts, sources, rule_.slot_count,
            options.max_steps, options.max_memory),
      observer_(observer),
      plan_loc_(facts.plan.loc()) {
  if (id_hints != nullptr) eval_.run_state()->ShareIdHints(id_hints);
  eval_.run_state()->shared_indexes = indexes;
  if (options.plan != nullptr) eval_.UsePlan(options.plan, rule_.module, &memo_);
  if (options.plan != nullptr && observer == nullptr) {
    ops_ = &options.plan->rules[rule_index];
  } else {
    written_ = plan::AsWritten(rule_, program.tables[rule_.module]);
    ops_ = &written_;
  }
  if (observer_ != nullptr) observer_->Attach(this);
}

bool RuleRun::OpenLoop(Value* range) {
  if (options_.plan == nullptr || observer_ != nullptr || ops_->emits_at() == 0) return false;
  const Op& first = ops_->ops[0];
  if (first.kind != OpKind::kScan || first.join >= 0) return false;
  *range = eval_.Eval(*first.expr);
  // Not a list: Run() evaluates it again and reports it; its steps are
  // counted twice only in this failing case.
  return range->is(ValueKind::kList);
}

void RuleRun::RunItem(const Value& item) {
  if (aborted_) return;
  ++eval_.run_state()->visited;
  LoopVariable var(&eval_.slots()[ops_->ops[0].slot]);
  var.Bind(item);
  RunOps(1);
}

void RuleRun::Finish() {
  // A spent budget whose error an `||` or `exists` absorbed, with nothing
  // evaluated after it to report it: the rule still did not finish.
  if (eval_.out_of_budget() && !budget_reported_) {
    RuleError(eval_.budget().Error(), rule_.rule->name_span, "this rule");
  }
  out_->steps += eval_.steps();
  out_->bytes += eval_.budget().bytes();
  out_->visited += eval_.run_state()->visited;
  out_->index_probes += eval_.run_state()->index_probes;
  out_->index_picked += eval_.run_state()->index_picked;
  if (capped_) {
    Diagnostic& d =
        out_->errors.Add(Severity::kInfo, sources_.Resolve(rule_.rule->name_span),
                         "rule `" + rule_.id + "` stopped after " +
                             std::to_string(options_.max_violations_per_rule) + " violations");
    d.code = rule_.id;
    d.help = "fix the first ones; the rest may follow from them";
  }
  if (suppressed_ > 0) {
    out_->errors
        .Error(sources_.Resolve(rule_.rule->name_span),
               std::to_string(suppressed_) + " more errors of rule `" + rule_.id + "` not shown")
        .code = rule_.id;
  }
}

void RuleRun::RuleError(const Value& error, const Span& where, const char* what) {
  bool budget = eval_.out_of_budget();
  if (budget) aborted_ = true;
  // The budget's error is shown even past max_errors_per_rule: it says why
  // the rule stopped.
  if (++errors_ > options_.max_errors_per_rule && !(budget && !budget_reported_)) {
    ++suppressed_;
    return;
  }
  SourceLoc clause = sources_.Resolve(where);
  SourceLoc loc = error.loc().valid() ? error.loc() : clause;
  Diagnostic& d = out_->errors.Error(
      loc, "rule `" + rule_.id + "` could not be evaluated: " + std::string(error.string_value()));
  d.code = rule_.id;
  d.related.push_back({clause, std::string("while evaluating ") + what});
  if (budget) {
    d.help = eval_.budget().Help();
    budget_reported_ = true;
  }
}

void RuleRun::RunOps(size_t position) {
  if (aborted_ || (observer_ != nullptr && observer_->Done())) return;
  if (position == ops_->emits_at()) return RunEmits(position);
  const Op& op = ops_->ops[position];
  if (op.kind == OpKind::kScan) return RunScan(op, position);
  if (Holds(op, position)) RunOps(position + 1);
}

// Every item of the range, or with a join only those its index selects.
void RuleRun::RunScan(const Op& op, size_t position) {
  Value range = eval_.Eval(*op.expr);
  if (!range.is_error() && !range.is(ValueKind::kList)) {
    range = Value::Error("`for` needs a list, not " + DescribeKind(range), range.loc());
  }
  if (range.is_error()) {
    RuleError(range, op.expr->span, "this `for`");
    if (observer_ != nullptr) observer_->Ended(position, range);
    return;
  }
  std::vector<Value> scratch;
  ListView items = range.items();
  eval_.Candidates(op.join, range, op.slot, &scratch, &items);
  eval_.run_state()->visited += items.size();
  LoopVariable var(&eval_.slots()[op.slot]);
  ReadAhead ahead(items);
  LookupsAhead lookups;
  lookups.Add(eval_, op.lookups);
  if (observer_ != nullptr) observer_->EnterScan(position, items);
  if (observer_ != nullptr && items.empty()) observer_->Ended(position, range);
  for (size_t k = 0; k < items.size() && !aborted_; ++k) {
    ahead.Step(k);
    lookups.Step(ahead, k);
    if (observer_ != nullptr && !observer_->Visits(position, items[k])) continue;
    var.Bind(items[k]);
    RunOps(position + 1);
  }
  if (observer_ != nullptr) observer_->LeaveScan(position);
}

// A let binds its value; a filter holds when true. Nothing is traced here:
// tracing costs nothing until a binding fires (see TraceBinding).
bool RuleRun::Holds(const Op& op, size_t position) {
  Value v = eval_.Eval(*op.expr);
  const char* what = op.kind == OpKind::kLet ? "this `let`" : "this `where`";
  if (!v.is_error() && op.kind == OpKind::kLet) {
    eval_.slots()[op.slot] = std::move(v);
    return true;
  }
  if (v.is_error() || !v.is(ValueKind::kBool)) {
    RuleError(
        v.is_error() ? v : Value::Error("`where` needs a bool, not " + DescribeKind(v), v.loc()),
        op.expr->span, what);
  } else if (observer_ != nullptr) {
    observer_->Outcome(op, v.bool_value());
  }
  bool held = v.is(ValueKind::kBool) && v.bool_value();
  if (!held && observer_ != nullptr) observer_->Ended(position, v);
  return held;
}

void RuleRun::RunEmits(size_t position) {
  if (observer_ != nullptr && !observer_->Reached()) return;
  for (size_t p = position; p < ops_->ops.size(); ++p) {
    const Op& op = ops_->ops[p];
    Value why;
    bool fired = Emit(rule_.rule->emits[op.index], op, &why);
    if (observer_ != nullptr) observer_->Stated(p, fired ? &out_->violations.back() : nullptr, why);
  }
}

// A statement's `when`: true to emit; else false, its value in `*why`.
bool RuleRun::When(const syntax::Emit& emit, const Op& op, Value* why) {
  Value cond = eval_.Eval(*emit.when);
  if (!cond.is_error() && !cond.is(ValueKind::kBool))
    cond = Value::Error("`when` needs a bool, not " + DescribeKind(cond));
  if (cond.is_error()) RuleError(cond, emit.when->span, "this `when`");
  if (cond.is(ValueKind::kBool) && observer_ != nullptr) observer_->Outcome(op, cond.bool_value());
  if (cond.is(ValueKind::kBool) && cond.bool_value()) return true;
  *why = std::move(cond);
  return false;
}

std::vector<Evidence> RuleRun::Bindings(size_t upto, std::string (*text)(const Value&)) const {
  std::vector<Evidence> evidence;
  for (size_t i = 0; i < upto && i < ops_->ops.size(); ++i) {
    const Op& op = ops_->ops[i];
    if (op.kind != OpKind::kScan && op.kind != OpKind::kLet) continue;
    const Value& v = eval_.slots()[op.slot];
    const syntax::Clause& clause = rule_.rule->clauses[op.index];
    std::string shown =
        v.Id().empty() ? eval_.ShownValue(*clause.expr, v, text) : std::string(v.Id());
    evidence.push_back(Evidence{clause.var, std::move(shown), v.loc(), false, ""});
  }
  return evidence;
}

// The innermost `for` variable bound to a timeline step: one that ranges
// over a list its type says is of steps.
const Op* RuleRun::InnermostStep(size_t upto, Interval* window) const {
  for (size_t i = std::min(upto, ops_->ops.size()); i-- > 0;) {
    const Op& op = ops_->ops[i];
    if (op.kind != OpKind::kScan) continue;
    const syntax::Expr& range = *rule_.rule->clauses[op.index].expr;
    if (eval_.YieldsSteps(range) == ExprEvaluator::Steps::kList &&
        StepWindow(eval_.slots()[op.slot], window)) {
      return &op;
    }
  }
  return nullptr;
}

// How far the step `step` binds is past the bound of its `over` or `under`
// (Violation::measure), the bound evaluated again over the slots the step's
// list was made from. Nothing when the list is not such a call, or the
// amounts do not subtract.
void RuleRun::Measure(const Op& step, Violation* v) {
  const syntax::Expr* range = rule_.rule->clauses[step.index].expr.get();
  // `c ? t.over(x, w) : t.over(x)`: the branch the list was taken from.
  while (range->kind == syntax::ExprKind::kConditional) {
    Value chosen = eval_.Eval(*range->args[0]);
    if (!chosen.is(ValueKind::kBool)) return;
    range = range->args[chosen.bool_value() ? 1 : 2].get();
  }
  bool over = true;
  const syntax::Expr* bound = eval_.StepBound(*range, &over);
  const Value* amount = eval_.slots()[step.slot].Field("amount");
  if (bound == nullptr || amount == nullptr) return;
  Value limit = eval_.Eval(*bound);
  if (limit.is_error()) return;
  Value m = over ? ApplyBinary(syntax::BinaryOp::kSub, *amount, limit, eval_.mutable_budget())
                 : ApplyBinary(syntax::BinaryOp::kSub, limit, *amount, eval_.mutable_budget());
  if (m.is_error()) return;
  v->measure = std::move(m);
  v->measure_of = std::string(over ? "over `" : "under `") + eval_.Text(bound->span) + "`";
}

Span RuleRun::SpanOf(const Op& op) const {
  return op.kind == OpKind::kEmit ? rule_.rule->emits[op.index].span
                                  : rule_.rule->clauses[op.index].span;
}

Span StatementHead(const syntax::Emit& emit) {
  Span head = emit.span;
  const syntax::Expr* last = emit.when ? emit.when.get() : emit.at.get();
  head.end = last != nullptr ? last->span.end : head.begin + 4;  // `deny`, `warn`
  return head;
}

TraceStep RuleRun::TraceAgain(const Span& span, const syntax::Expr* expr) {
  TraceStep step{eval_.Text(span), "", sources_.Resolve(span), {}};
  if (expr == nullptr) return step;
  eval_.set_trace(&step.values);
  step.value = eval_.ShownValue(*expr, eval_.Eval(*expr), TraceText);
  eval_.set_trace(nullptr);
  return step;
}

// Re-evaluates the conditions of a binding that fired, recording every
// sub-expression: its `where` clauses (`(*wheres)[i]` says which steps
// they are, the labels' sources) and, with EvalOptions::trace, also each
// `for` over the steps of a timeline, which binds only the steps a
// condition selects (`for short in need.minus(have).over(0)`), and the
// statement's `when`; a rule with none of those (its every binding fires)
// shows its innermost `for`. Earlier clauses cannot see later variables, so
// the slots as they stand give each clause the values it held.
std::vector<TraceStep> RuleRun::TraceBinding(const syntax::Emit& emit, std::vector<bool>* wheres) {
  std::vector<TraceStep> steps;
  for (const syntax::Clause& c : rule_.rule->clauses) {
    bool where = c.kind == syntax::ClauseKind::kWhere;
    bool steps_for = options_.trace && c.kind == syntax::ClauseKind::kFor &&
                     eval_.YieldsSteps(*c.expr) == ExprEvaluator::Steps::kList;
    if (!where && !steps_for) continue;
    steps.push_back(TraceAgain(c.span, c.expr.get()));
    wheres->push_back(where);
  }
  if (options_.trace && emit.when) {
    steps.push_back(TraceAgain(StatementHead(emit), emit.when.get()));
    wheres->push_back(false);
  }
  const auto& clauses = rule_.rule->clauses;
  auto innermost = std::find_if(clauses.rbegin(), clauses.rend(), [](const syntax::Clause& c) {
    return c.kind == syntax::ClauseKind::kFor;
  });
  if (options_.trace && steps.empty() && innermost != clauses.rend()) {
    steps.push_back(TraceAgain(innermost->span, innermost->expr.get()));
    wheres->push_back(false);
  }
  return steps;
}

namespace {

// The field a traced expression reads last, from its text: `restore_tested`
// for `d.checkpoint.restore_tested` (or `d.checkpoint.?restore_tested`);
// "" for any other expression (a variable, a call, an index).
std::string LastField(std::string_view expr) {
  size_t start = expr.size();
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  while (start > 0 && word(expr[start - 1])) --start;
  bool select =
      start > 0 && (expr[start - 1] == '.' || (start > 1 && expr.substr(start - 2, 2) == ".?"));
  if (!select || start == expr.size() || std::isdigit(static_cast<unsigned char>(expr[start])) != 0)
    return "";
  return std::string(expr.substr(start));
}

}  // namespace

// Secondary labels: the facts (other than the primary one) whose values the
// clauses compared, such as the pool's `role:` in the inventory.
// A value located exactly where a bound record starts is a default the
// schema filled in, not text in the file; it gets no label. Nor does a value
// marked per_item: read for an item that `exists` or `all` went past
// before the item it stopped at.
std::vector<Label> RuleRun::LabelsFrom(const std::vector<TraceStep>& trace,
                                       const std::vector<bool>& wheres, const Violation& v) const {
  constexpr size_t kMaxLabels = 4;
  std::vector<Label> labels;
  auto at_record = [&](const SourceLoc& loc) {
    return std::any_of(v.evidence.begin(), v.evidence.end(),
                       [&](const Evidence& e) { return e.loc == loc; });
  };
  for (size_t i = 0; i < trace.size(); ++i) {
    if (!wheres[i]) continue;
    for (const TraceValue& t : trace[i].values) {
      bool whole = !t.value.empty() && (t.value[0] == '{' || t.value[0] == '[');
      if (!t.fact.valid() || t.per_item || t.fact == v.loc || whole || at_record(t.fact) ||
          labels.size() == kMaxLabels) {
        continue;
      }
      bool seen = std::any_of(labels.begin(), labels.end(),
                              [&](const Label& l) { return l.loc == t.fact; });
      if (!seen)
        labels.push_back(
            Label{t.fact, "`" + t.expr + "` is " + t.value, t.value, LastField(t.expr)});
    }
  }
  return labels;
}

// The statement's kind, `when` and `at` in canonical form: it names the
// statement apart from the others of its rule, whatever their order.
const std::string& RuleRun::StatementKey(const syntax::Emit& emit, size_t index) {
  if (statement_keys_.size() <= index) statement_keys_.resize(rule_.rule->emits.size());
  std::string& key = statement_keys_[index];
  if (key.empty()) {
    key = emit.is_warn ? "warn" : "deny";
    if (emit.when) key += " when " + syntax::CanonicalExpr(*emit.when);
    if (emit.at) key += " at " + syntax::CanonicalExpr(*emit.at);
  }
  return key;
}

bool RuleRun::Emit(const syntax::Emit& emit, const plan::Op& op, Value* why) {
  if (emit.when && !When(emit, op, why)) return false;
  auto failed = [&](const Value& error, const Span& where, const char* what) {
    RuleError(error, where, what);
    *why = error;
    return false;
  };
  Violation v;
  v.rule_id = rule_.id;
  v.rule_name = rule_.rule->name;
  v.severity = emit.is_warn ? Severity::kWarning : rule_.severity;
  v.policy_loc = sources_.Resolve(emit.span);
  v.statement = StatementKey(emit, op.index);
  v.because = emit.because;
  v.fix = emit.fix;
  Value at;
  if (emit.at) {
    at = eval_.Eval(*emit.at);
    if (at.is_error()) return failed(at, emit.at->span, "this `at`");
    v.loc = at.loc();
    for (const syntax::Expr* e = emit.at.get();
         e->kind == syntax::ExprKind::kSelect || e->kind == syntax::ExprKind::kIndex;
         e = e->args[0].get()) {
      SourceLoc owner = eval_.Eval(*e->args[0]).loc();
      if (owner.valid()) v.at_owners.push_back(owner);
    }
  }
  for (const auto& part : emit.message.parts) {
    if (!part.expr) {
      v.message += part.text;
      continue;
    }
    Value hole = eval_.Eval(*part.expr);
    if (hole.is_error()) return failed(hole, part.expr->span, "this message");
    std::string text;
    if (!Render(hole, eval_.mutable_budget(), &text)) {
      return failed(eval_.budget().Error(), part.expr->span, "this message");
    }
    // Names and lists are what the finding is about; numbers, dates and
    // sizes are measurements and params that change without changing it.
    if (hole.is(ValueKind::kString) || hole.is(ValueKind::kList) || hole.is(ValueKind::kMap)) {
      v.subject += text;
      v.subject += '\x1f';
    }
    v.message += std::move(text);
  }
  v.evidence = Bindings(ops_->emits_at(), Literal);
  // The evidence always shows a located fact: the one the finding is about
  // when no binding is one (a rule over computed values, like a list of
  // what is missing).
  bool located = std::any_of(v.evidence.begin(), v.evidence.end(),
                             [](const Evidence& e) { return e.loc.valid(); });
  if (emit.at && v.loc.valid() && !located) {
    std::string value =
        at.Id().empty() ? eval_.ShownValue(*emit.at, at, Literal) : std::string(at.Id());
    v.evidence.insert(v.evidence.begin(),
                      Evidence{eval_.Text(emit.at->span), std::move(value), v.loc, true, ""});
  }
  Interval window;
  if (const Op* step = InnermostStep(ops_->emits_at(), &window)) {
    v.interval = window;
    Measure(*step, &v);
  }
  // Without a located `at`, point at the innermost loop item, else the plan.
  for (auto it = v.evidence.rbegin(); !v.loc.valid() && it != v.evidence.rend(); ++it)
    v.loc = it->loc;
  if (!v.loc.valid()) v.loc = plan_loc_;
  std::vector<bool> wheres;
  std::vector<TraceStep> trace = TraceBinding(emit, &wheres);
  v.labels = LabelsFrom(trace, wheres, v);
  if (options_.trace) v.trace = std::move(trace);
  out_->violations.push_back(std::move(v));
  if (++emitted_ >= options_.max_violations_per_rule) capped_ = aborted_ = true;
  return true;
}

}  // namespace capops::eval
