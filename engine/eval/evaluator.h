// The evaluator: runs checked rules over facts and collects violations.
//
// A rule is a comprehension: its `for` clauses loop over lists (or map keys),
// `let` binds a value, `where` filters; every binding that reaches the end
// runs each `deny`/`warn` statement, which yields a Violation located at its
// `at` value in the facts. Expressions follow CEL's semantics: `&&` and `||`
// short-circuit and absorb errors when the other side decides the result
// (`false && error` is false), macros likewise; any other error is a value
// that propagates.
//
// Fail closed: a `for` over a non-list, a `let` or `where` that errors, a
// `where` that is not a bool, a message hole that errors — each is reported
// as a rule error (a Diagnostic coded with the rule id, located in the facts
// where possible, with the rule clause as a related location). Nothing is
// skipped silently. A step budget stops rules whose loops explode.
//
//   std::vector<Value> params = eval::EvaluateParams(program, sources, &diags);
//   eval::EvalResult r = eval::Evaluate(program, params, {plan, inventory}, sources, {});
//
// Thread-safety: Evaluate only reads the Program, params and facts; several
// evaluations may run at once.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/check/checker.h"
#include "engine/eval/result.h"

namespace capops::eval {

struct EvalOptions {
  bool trace = false;             // record each `where` clause's sub-expression values
  uint64_t max_steps = 20'000'000;  // per rule and fact set
  size_t max_errors_per_rule = 20;  // rule errors reported per rule, then a count
};

/// The fact roots a rule can read; an absent document is an empty map.
struct Facts {
  Value plan = Value::Map({});
  Value inventory = Value::Map({});
};

/// Evaluates every param default (constants) in declaration order.
std::vector<Value> EvaluateParams(const check::Program& program, const SourceManager& sources,
                                  Diagnostics* diagnostics);

/// Runs every rule of `program` over `facts`; violations and errors are sorted.
EvalResult Evaluate(const check::Program& program, const std::vector<Value>& params,
                    const Facts& facts, const SourceManager& sources, const EvalOptions& options);

}  // namespace capops::eval
