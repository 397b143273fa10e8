// The rule evaluator. Entry points: eval::EvaluateParams, eval::Evaluate.
//
// ExprEvaluator computes one expression against variable slots; RuleRun walks
// a rule's clauses depth-first (one level per clause), emitting a violation
// for each binding that reaches the end. Slots were assigned by the checker,
// so no name is looked up here.
#include "engine/eval/evaluator.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include "engine/eval/expr_evaluator.h"
#include "engine/eval/operators.h"
#include "engine/eval/read_ahead.h"
#include "engine/eval/shared_indexes.h"

namespace capops::eval {

namespace {

using check::SymbolKind;
using syntax::BinaryOp;
using syntax::Expr;
using syntax::ExprKind;
using syntax::MacroKind;

// What the items of a loop will look up (plan::Lookup), read ahead: one
// item ahead, once its strings have arrived (ReadAhead asks for them two
// items ahead), each lookup starts reading the item it will find. A lookup
// made by several rules of a shared pass is read once.
class LookupsAhead {
 public:
  void Add(const ExprEvaluator& eval, const std::vector<plan::Lookup>& lookups) {
    for (const plan::Lookup& l : lookups) {
      const Value* list = eval.FactPath(*l.list);
      if (list == nullptr || !list->is(ValueKind::kList)) continue;
      Key field = l.key->field;
      auto same = [&](const Entry& e) { return e.list == list && e.field == field; };
      if (std::none_of(entries_.begin(), entries_.end(), same)) entries_.push_back({list, field, eval.HintOf(*l.key), eval.run_state()});
    }
  }
  // Before item k of the loop `ahead` reads ahead.
  void Step(const ReadAhead& ahead, size_t k) const {
    if (entries_.empty() || k + 1 >= ahead.count()) return;
    const Value& item = ahead.Item(k + 1);
    for (const Entry& e : entries_) {
      if (const Value* id = item.Field(e.field, e.hint)) e.list->PrefetchItem(*e.run->IdHintFor(*e.list, *id));
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

// Runs one rule over one fact set.
class RuleRun {
 public:
  RuleRun(const check::Program& program, size_t rule_index, const std::vector<Value>& params, const Facts& facts,
          const SourceManager& sources, const EvalOptions& options, IdHints* id_hints, SharedIndexes* indexes,
          EvalResult* out)
      : rule_(program.rules[rule_index]), sources_(sources), options_(options), out_(out),
        eval_(program, program.tables[rule_.module], params, facts, sources, rule_.slot_count, options.max_steps,
              options.max_memory),
        slot_of_(program.tables[rule_.module].slots),
        plan_loc_(facts.plan.loc()) {
    if (id_hints != nullptr) eval_.run_state()->ShareIdHints(id_hints);
    eval_.run_state()->shared_indexes = indexes;
    // Coverage counts each condition as written, so it runs the rule unplanned.
    if (options.plan != nullptr && options.coverage == nullptr) {
      eval_.UsePlan(options.plan, rule_.module, &memo_);
      rule_plan_ = &options.plan->rules[rule_index];
      order_ = rule_plan_->order;
    } else {
      for (uint32_t i = 0; i < rule_.rule->clauses.size(); ++i) order_.push_back(i);
    }
  }

  void Run() {
    RunClauses(0);
    Finish();
  }

  // A shared pass (EvaluateRules): rules whose plans open with a `for` over
  // the same list, without a join, visit its items together, so each item's
  // facts are read into the cache once for all of them. OpenLoop evaluates
  // that list (as RunFor would, steps included); false when the rule does
  // not open so, or its list is not a list: then it runs alone, with Run().
  bool OpenLoop(Value* range) {
    if (order_.empty() || options_.plan == nullptr || options_.coverage != nullptr) return false;
    const syntax::Clause& first = rule_.rule->clauses[order_[0]];
    if (first.kind != syntax::ClauseKind::kFor || options_.plan->modules[rule_.module].join[first.id] >= 0) {
      return false;
    }
    *range = eval_.Eval(*first.expr);
    if (!range->is(ValueKind::kList)) {
      // Run() evaluates it again and reports it; its steps are counted twice
      // only in this failing case.
      return false;
    }
    return true;
  }
  // The rest of the rule for one item of the opening loop's list.
  void RunItem(const Value& item) {
    if (aborted_) return;
    LoopVariable var(&eval_.slots()[slot_of_[rule_.rule->clauses[order_[0]].id]]);
    var.Bind(item);
    RunClauses(1);
  }
  bool aborted() const { return aborted_; }
  // The lookups of the opening loop's item, for a shared pass to read ahead.
  void AddOpeningLookups(LookupsAhead* to) const {
    if (rule_plan_ != nullptr && !order_.empty()) to->Add(eval_, rule_plan_->lookups[0]);
  }

  void Finish() {
    // A spent budget whose error an `||` or `exists` absorbed, with nothing
    // evaluated after it to report it: the rule still did not finish.
    if (eval_.out_of_budget() && !budget_reported_) {
      RuleError(eval_.budget().Error(), rule_.rule->name_span, "this rule");
    }
    out_->steps += eval_.steps();
    out_->bytes += eval_.budget().bytes();
    if (capped_) {
      Diagnostic& d = out_->errors.Add(Severity::kInfo, sources_.Resolve(rule_.rule->name_span),
                                       "rule `" + rule_.id + "` stopped after " +
                                           std::to_string(options_.max_violations_per_rule) + " violations");
      d.code = rule_.id;
      d.help = "fix the first ones; the rest may follow from them";
    }
    if (suppressed_ > 0) {
      out_->errors.Error(sources_.Resolve(rule_.rule->name_span),
                         std::to_string(suppressed_) + " more errors of rule `" + rule_.id + "` not shown")
          .code = rule_.id;
    }
  }

 private:
  void RunClauses(size_t position);
  void RunFor(const syntax::Clause& clause, size_t position);
  bool RunWhere(const syntax::Clause& clause, size_t index);
  void Emit(const syntax::Emit& emit, size_t index);
  const std::string& StatementKey(const syntax::Emit& emit, size_t index);
  void Cover(size_t index, bool outcome);
  std::vector<Evidence> CollectEvidence();
  std::vector<TraceStep> TraceWheres();
  std::vector<Label> LabelsFrom(const std::vector<TraceStep>& trace, const Violation& v) const;
  void RuleError(const Value& error, const Span& where, const char* what);

  const check::RuleInfo& rule_;
  const SourceManager& sources_;
  const EvalOptions& options_;
  EvalResult* out_;
  ExprEvaluator eval_;
  Memo memo_;
  const plan::RulePlan* rule_plan_ = nullptr;  // null: as written
  std::vector<uint32_t> order_;  // clause indexes in the order they run (the plan's, or as written)
  const std::vector<uint32_t>& slot_of_;
  SourceLoc plan_loc_;
  size_t errors_ = 0;
  size_t suppressed_ = 0;
  size_t emitted_ = 0;
  std::vector<std::string> statement_keys_;  // by statement index; "" until first needed
  bool capped_ = false;  // stopped at max_violations_per_rule
  bool aborted_ = false;
  bool budget_reported_ = false;
};

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
  Diagnostic& d = out_->errors.Error(loc, "rule `" + rule_.id + "` could not be evaluated: " + std::string(error.string_value()));
  d.code = rule_.id;
  d.related.push_back({clause, std::string("while evaluating ") + what});
  if (budget) {
    d.help = eval_.budget().Help();
    budget_reported_ = true;
  }
}

void RuleRun::RunClauses(size_t position) {
  if (aborted_) return;
  if (position == order_.size()) {
    for (size_t e = 0; e < rule_.rule->emits.size(); ++e) Emit(rule_.rule->emits[e], e);
    return;
  }
  const syntax::Clause& clause = rule_.rule->clauses[order_[position]];
  switch (clause.kind) {
    case syntax::ClauseKind::kFor: return RunFor(clause, position);
    case syntax::ClauseKind::kLet: {
      Value v = eval_.Eval(*clause.expr);
      if (v.is_error()) return RuleError(v, clause.expr->span, "this `let`");
      eval_.slots()[slot_of_[clause.id]] = std::move(v);
      return RunClauses(position + 1);
    }
    case syntax::ClauseKind::kWhere:
      if (RunWhere(clause, order_[position])) RunClauses(position + 1);
      return;
  }
}

// Every item of the range, or with a join only those its index selects.
void RuleRun::RunFor(const syntax::Clause& clause, size_t position) {
  Value range = eval_.Eval(*clause.expr);
  if (range.is_error()) return RuleError(range, clause.expr->span, "this `for`");
  if (!range.is(ValueKind::kList)) {
    return RuleError(Value::Error("`for` needs a list, not " + DescribeKind(range), range.loc()),
                     clause.expr->span, "this `for`");
  }
  uint32_t slot = slot_of_[clause.id];
  std::vector<Value> scratch;
  ListView items = range.items();
  eval_.Candidates(clause.id, range, slot, &scratch, &items);
  LoopVariable var(&eval_.slots()[slot]);
  ReadAhead ahead(items);
  LookupsAhead lookups;
  if (rule_plan_ != nullptr) lookups.Add(eval_, rule_plan_->lookups[position]);
  for (size_t k = 0; k < items.size(); ++k) {
    ahead.Step(k);
    lookups.Step(ahead, k);
    var.Bind(items[k]);
    RunClauses(position + 1);
    if (aborted_) return;
  }
}

// True when the clause holds. Nothing is traced here: tracing costs nothing
// until a binding fires (see TraceWheres).
bool RuleRun::RunWhere(const syntax::Clause& clause, size_t index) {
  Value v = eval_.Eval(*clause.expr);
  if (v.is_error()) {
    RuleError(v, clause.expr->span, "this `where`");
    return false;
  }
  if (!v.is(ValueKind::kBool)) {
    RuleError(Value::Error("`where` needs a bool, not " + DescribeKind(v), v.loc()), clause.expr->span,
              "this `where`");
    return false;
  }
  if (options_.coverage != nullptr) Cover(index, v.bool_value());
  return v.bool_value();
}

// Counts one condition's outcome: clause `index` of the rule, or its emit
// `index - clauses.size()` (a `when`).
void RuleRun::Cover(size_t index, bool outcome) {
  auto& outcomes = options_.coverage->rules[rule_.id];
  outcomes.resize(rule_.rule->clauses.size() + rule_.rule->emits.size());
  ++(outcome ? outcomes[index].seen_true : outcomes[index].seen_false);
}

// Re-evaluates the `where` clauses of a binding that fired, recording every
// sub-expression. Earlier clauses cannot see later variables, so the slots
// as they stand give each clause the values it held.
std::vector<TraceStep> RuleRun::TraceWheres() {
  std::vector<TraceStep> steps;
  for (const syntax::Clause& c : rule_.rule->clauses) {
    if (c.kind != syntax::ClauseKind::kWhere) continue;
    TraceStep step{eval_.Text(c.span), "", sources_.Resolve(c.span), {}};
    eval_.set_trace(&step.values);
    step.value = TraceText(eval_.Eval(*c.expr));
    eval_.set_trace(nullptr);
    steps.push_back(std::move(step));
  }
  return steps;
}

// Secondary labels: the facts (other than the primary one) whose values the
// clauses compared, such as the pool's `role:` in the inventory.
// A value located exactly where a bound record starts is a default the
// schema filled in, not text in the file; it gets no label. Nor does a value
// marked per_item: read for an item that `exists` or `all` went past
// before the item it stopped at.
std::vector<Label> RuleRun::LabelsFrom(const std::vector<TraceStep>& trace, const Violation& v) const {
  constexpr size_t kMaxLabels = 4;
  std::vector<Label> labels;
  auto at_record = [&](const SourceLoc& loc) {
    return std::any_of(v.evidence.begin(), v.evidence.end(), [&](const Evidence& e) { return e.loc == loc; });
  };
  for (const TraceStep& step : trace) {
    for (const TraceValue& t : step.values) {
      bool whole = !t.value.empty() && (t.value[0] == '{' || t.value[0] == '[');
      if (!t.fact.valid() || t.per_item || t.fact == v.loc || whole || at_record(t.fact) || labels.size() == kMaxLabels) {
        continue;
      }
      bool seen = std::any_of(labels.begin(), labels.end(), [&](const Label& l) { return l.loc == t.fact; });
      if (!seen) labels.push_back(Label{t.fact, "`" + t.expr + "` is " + t.value});
    }
  }
  return labels;
}

std::vector<Evidence> RuleRun::CollectEvidence() {
  std::vector<Evidence> evidence;
  for (const syntax::Clause& c : rule_.rule->clauses) {
    if (c.kind == syntax::ClauseKind::kWhere) continue;
    const Value& v = eval_.slots()[slot_of_[c.id]];
    std::string text = v.Id().empty() ? v.ToLiteral(120) : std::string(v.Id());
    evidence.push_back(Evidence{c.var, std::move(text), v.loc()});
  }
  return evidence;
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

void RuleRun::Emit(const syntax::Emit& emit, size_t index) {
  if (emit.when) {
    Value cond = eval_.Eval(*emit.when);
    if (cond.is_error()) return RuleError(cond, emit.when->span, "this `when`");
    if (!cond.is(ValueKind::kBool)) {
      return RuleError(Value::Error("`when` needs a bool, not " + DescribeKind(cond)), emit.when->span, "this `when`");
    }
    if (options_.coverage != nullptr) Cover(rule_.rule->clauses.size() + index, cond.bool_value());
    if (!cond.bool_value()) return;
  }
  Violation v;
  v.rule_id = rule_.id;
  v.rule_name = rule_.rule->name;
  v.severity = emit.is_warn ? Severity::kWarning : rule_.severity;
  v.policy_loc = sources_.Resolve(emit.span);
  v.statement = StatementKey(emit, index);
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
    std::string text;
    if (!Render(hole, eval_.mutable_budget(), &text)) {
      return RuleError(eval_.budget().Error(), part.expr->span, "this message");
    }
    // Names and lists are what the finding is about; numbers, dates and
    // sizes are measurements and params that change without changing it.
    if (hole.is(ValueKind::kString) || hole.is(ValueKind::kList) || hole.is(ValueKind::kMap)) {
      v.subject += text;
      v.subject += '\x1f';
    }
    v.message += std::move(text);
  }
  v.evidence = CollectEvidence();
  // Without a located `at`, point at the innermost loop item, else the plan.
  for (auto it = v.evidence.rbegin(); !v.loc.valid() && it != v.evidence.rend(); ++it) v.loc = it->loc;
  if (!v.loc.valid()) v.loc = plan_loc_;
  std::vector<TraceStep> trace = TraceWheres();
  v.labels = LabelsFrom(trace, v);
  if (options_.trace) v.trace = std::move(trace);
  out_->violations.push_back(std::move(v));
  if (++emitted_ >= options_.max_violations_per_rule) capped_ = aborted_ = true;
}

}  // namespace

std::vector<Value> EvaluateParams(const check::Program& program, const SourceManager& sources,
                                  Diagnostics* diagnostics) {
  std::vector<Value> values;
  Facts none;
  for (const check::ParamInfo& p : program.params) {
    ExprEvaluator eval(program, program.tables[p.module], values, none, sources, p.slot_count, 1'000'000,
                       EvalOptions().max_memory);
    Value v = eval.Eval(*p.decl->default_value);
    if (eval.out_of_budget()) v = eval.budget().Error();
    if (v.is_error()) {
      diagnostics->Error(sources.Resolve(p.decl->default_value->span),
                         "param `" + p.decl->name + "` has no value: " + std::string(v.string_value()));
    }
    values.push_back(std::move(v));
  }
  return values;
}

EvalResult EvaluateRule(const check::Program& program, size_t rule, const std::vector<Value>& params,
                        const Facts& facts, const SourceManager& sources, const EvalOptions& options) {
  EvalResult result;
  RuleRun(program, rule, params, facts, sources, options, nullptr, nullptr, &result).Run();
  return result;
}

std::vector<EvalResult> EvaluateRules(const check::Program& program, const std::vector<size_t>& rules,
                                      const std::vector<Value>& params, const Facts& facts,
                                      const SourceManager& sources, const EvalOptions& options,
                                      SharedIndexes* indexes) {
  std::vector<EvalResult> results(rules.size());
  SharedIndexes own_indexes;
  if (indexes == nullptr) indexes = &own_indexes;
  IdHints id_hints;  // the rules of a pass look up the same ids for each item
  std::vector<std::unique_ptr<RuleRun>> runs;
  std::vector<Value> ranges(rules.size());
  // Rules opening with a loop over the same list (the same value, not just
  // equal), in rule order, by the list's identity; the others run alone.
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, std::vector<size_t>>> passes;
  for (size_t i = 0; i < rules.size(); ++i) {
    runs.push_back(
        std::make_unique<RuleRun>(program, rules[i], params, facts, sources, options, &id_hints, indexes, &results[i]));
    if (!runs[i]->OpenLoop(&ranges[i])) {
      runs[i]->Run();
      continue;
    }
    auto list = ranges[i].Identity();
    auto it = std::find_if(passes.begin(), passes.end(), [&](const auto& p) { return p.first == list; });
    if (it == passes.end()) it = passes.insert(passes.end(), {list, {}});
    it->second.push_back(i);
  }
  for (const auto& [list, pass] : passes) {
    ListView items = ranges[pass[0]].items();
    ReadAhead ahead(items);
    LookupsAhead lookups;
    for (size_t i : pass) runs[i]->AddOpeningLookups(&lookups);
    for (size_t k = 0; k < items.size(); ++k) {
      ahead.Step(k);
      lookups.Step(ahead, k);
      bool running = false;
      for (size_t i : pass) {
        runs[i]->RunItem(items[k]);
        running = running || !runs[i]->aborted();
      }
      if (!running) break;
    }
    for (size_t i : pass) runs[i]->Finish();
  }
  return results;
}

void SortResult(const SourceManager& sources, EvalResult* result) {
  SortViolations(sources, &result->violations);
  result->errors.Sort();
}

void AppendResult(EvalResult part, EvalResult* whole) {
  whole->steps += part.steps;
  whole->bytes += part.bytes;
  whole->violations.insert(whole->violations.end(), std::make_move_iterator(part.violations.begin()),
                           std::make_move_iterator(part.violations.end()));
  whole->errors.Append(part.errors);
}

EvalResult Evaluate(const check::Program& program, const std::vector<Value>& params, const Facts& facts,
                    const SourceManager& sources, const EvalOptions& options) {
  EvalResult result;
  std::vector<size_t> rules(program.rules.size());
  for (size_t r = 0; r < rules.size(); ++r) rules[r] = r;
  for (EvalResult& part : EvaluateRules(program, rules, params, facts, sources, options)) {
    AppendResult(std::move(part), &result);
  }
  SortResult(sources, &result);
  return result;
}

}  // namespace capops::eval
