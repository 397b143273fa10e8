// SPDX-License-Identifier: Apache-2.0
// The IR: what a checked rule does, as a short list of operations over the
// rule's variable slots, in the order they run. plan::Build makes one per
// rule, once per rule set; the evaluator's interpreter (eval/interpreter.h)
// is the one thing that runs it, whether it lints, traces, answers why-not
// or counts coverage.
//
//   scan   $s <- list   bind slot s to each item of a list in turn (all of
//                       them, or those a join's index selects), and run
//                       the rest of the ops for each
//   let    $s = expr    bind slot s to a value
//   filter expr         go on only when the condition is true
//   emit   deny|warn    a binding that got here: run one statement (its
//                       `when`, its `at`, its message)
//
// The ops of a rule are its clauses, in the planner's order, then one emit
// per statement in source order. Expressions stay the checked AST's
// (syntax::Expr), with the module plan's tables saying which are remembered
// and which comprehensions join. `capops-lint check-rules --plan` prints
// the IR (plan::Dump).
//
//   const plan::RuleProgram& ir = plan.rules[r];
//   for (const plan::Op& op : ir.ops) ...
//
// Immutable once built, like everything the planner makes.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/check/checker.h"

namespace capops::plan {

/// A keyed lookup that a `let` makes for each item of a scan, in a list the
/// facts hold: `let d = plan.demands[a.demand]` after
/// `for a in plan.allocations`. The scan starts reading the item each
/// lookup will find while it is still a few items away (eval/read_ahead.h);
/// nothing is evaluated early, and findings do not change.
struct Lookup {
  const syntax::Expr* list = nullptr;  // fields from `plan` or `inventory`: `plan.demands`
  const syntax::Expr* key = nullptr;   // a field of the scan's variable: `a.demand`
};

enum class OpKind : uint8_t { kScan, kLet, kFilter, kEmit };

struct Op {
  OpKind kind = OpKind::kFilter;
  /// kScan, kLet, kFilter: the rule's clause (Rule::clauses); kEmit: its
  /// statement (Rule::emits).
  uint32_t index = 0;
  uint32_t slot = 0;  // kScan, kLet: the slot bound
  /// kScan: the list; kLet: the value; kFilter: the condition; kEmit: the
  /// `when`, or null.
  const syntax::Expr* expr = nullptr;
  /// kScan: the join (ModulePlan::joins) whose index selects the items
  /// worth visiting, or -1: every item.
  int32_t join = -1;
  /// kScan: the lookups of its variable that follow it, up to the next scan.
  std::vector<Lookup> lookups;
};

struct RuleProgram {
  std::vector<Op> ops;
  /// The position of the first kEmit: a binding that reaches it passed
  /// every clause.
  size_t emits_at() const { return ops.size() - emit_count; }
  size_t emit_count = 0;
};

/// The rule exactly as written: its clauses in source order, no join, no
/// read-ahead. What observers that report clause by clause (coverage,
/// why-not) run, so each clause is seen where its author put it.
RuleProgram AsWritten(const check::RuleInfo& rule, const check::ModuleTables& tables);

}  // namespace capops::plan
