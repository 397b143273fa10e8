// SPDX-License-Identifier: Apache-2.0
// The rule evaluator. Entry points: eval::EvaluateParams, eval::Evaluate.
//
// ExprEvaluator computes one expression against variable slots; RuleRun
// (interpreter.h) runs a rule's IR; this file runs the rules of a program,
// alone or in shared passes, and counts coverage as an observer of each run.
#include "engine/eval/evaluator.h"

#include <algorithm>
#include <memory>

#include "engine/eval/expr_evaluator.h"
#include "engine/eval/interpreter.h"
#include "engine/eval/shared_indexes.h"

namespace capops::eval {

namespace {

// Counts each condition's outcomes (`capops-lint test --coverage`): clause
// `index` of the rule, or its statement `index`'s `when` after the clauses.
class CoverageObserver : public RunObserver {
 public:
  explicit CoverageObserver(Coverage* coverage) : coverage_(coverage) {}
  void Outcome(const plan::Op& op, bool held) override {
    const syntax::Rule& rule = *run_->rule().rule;
    auto& outcomes = coverage_->rules[run_->rule().id];
    outcomes.resize(rule.clauses.size() + rule.emits.size());
    size_t index = op.kind == plan::OpKind::kEmit ? rule.clauses.size() + op.index : op.index;
    ++(held ? outcomes[index].seen_true : outcomes[index].seen_false);
  }

 private:
  Coverage* coverage_;
};

// The observer a run needs for `options` (one per run), or null.
std::unique_ptr<RunObserver> ObserverFor(const EvalOptions& options) {
  if (options.coverage == nullptr) return nullptr;
  return std::make_unique<CoverageObserver>(options.coverage);
}

}  // namespace

std::vector<Value> EvaluateParams(const check::Program& program, const SourceManager& sources,
                                  Diagnostics* diagnostics) {
  std::vector<Value> values;
  Facts none;
  for (const check::ParamInfo& p : program.params) {
    ExprEvaluator eval(program, program.tables[p.module], values, none, sources, p.slot_count,
                       1'000'000, EvalOptions().max_memory);
    Value v = eval.Eval(*p.decl->default_value);
    if (eval.out_of_budget()) v = eval.budget().Error();
    if (v.is_error()) {
      diagnostics->Error(
          sources.Resolve(p.decl->default_value->span),
          "param `" + p.decl->name + "` has no value: " + std::string(v.string_value()));
    }
    values.push_back(std::move(v));
  }
  return values;
}

EvalResult EvaluateRule(const check::Program& program, size_t rule, const ParamValues& params,
                        const Facts& facts, const SourceManager& sources,
                        const EvalOptions& options) {
  EvalResult result;
  std::unique_ptr<RunObserver> observer = ObserverFor(options);
  RuleRun(program, rule, params.For(rule), facts, sources, options, nullptr, nullptr, &result,
          observer.get())
      .Run();
  return result;
}

std::vector<EvalResult> EvaluateRules(const check::Program& program,
                                      const std::vector<size_t>& rules, const ParamValues& params,
                                      const Facts& facts, const SourceManager& sources,
                                      const EvalOptions& options, SharedIndexes* indexes) {
  std::vector<EvalResult> results(rules.size());
  SharedIndexes own_indexes;
  if (indexes == nullptr) indexes = &own_indexes;
  IdHints id_hints;  // the rules of a pass look up the same ids for each item
  std::vector<std::unique_ptr<RuleRun>> runs;
  std::vector<std::unique_ptr<RunObserver>> observers;
  std::vector<Value> ranges(rules.size());
  // Rules opening with a loop over the same list (the same value, not just
  // equal), in rule order, by the list's identity; the others run alone.
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, std::vector<size_t>>> passes;
  for (size_t i = 0; i < rules.size(); ++i) {
    observers.push_back(ObserverFor(options));
    runs.push_back(std::make_unique<RuleRun>(program, rules[i], params.For(rules[i]), facts,
                                             sources, options, &id_hints, indexes, &results[i],
                                             observers.back().get()));
    if (!runs[i]->OpenLoop(&ranges[i])) {
      runs[i]->Run();
      continue;
    }
    auto list = ranges[i].Identity();
    auto it =
        std::find_if(passes.begin(), passes.end(), [&](const auto& p) { return p.first == list; });
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
  whole->visited += part.visited;
  whole->index_probes += part.index_probes;
  whole->index_picked += part.index_picked;
  whole->violations.insert(whole->violations.end(),
                           std::make_move_iterator(part.violations.begin()),
                           std::make_move_iterator(part.violations.end()));
  whole->errors.Append(part.errors);
}

EvalResult Evaluate(const check::Program& program, const ParamValues& params, const Facts& facts,
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
