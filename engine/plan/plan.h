// SPDX-License-Identifier: Apache-2.0
// The planner: what the evaluator may do instead of running a checked rule
// exactly as written, decided once per rule set, before any fact is read.
//
// Four rewrites, each preserving findings:
//
//  - Loop-invariant expressions. An expression that reads no loop variable
//    (only facts, params and constants) has one value per evaluation; the
//    evaluator computes it once and remembers it. This folds constants and
//    hoists work such as `sum(plan.demands.map(x, …))` out of the loops.
//    A comprehension over such a list that reads one or two loop variables
//    is remembered per value of those variables (a correlated subquery runs
//    once per pool rather than once per allocation on it), and so is a call
//    of a CPL function that runs a comprehension. A short list a `let`
//    builds afresh for each binding is compared by its items: a new list
//    of the same spare pools gives the value computed for the last one.
//    Not remembered: what reads a variable whose values never repeat (the
//    rule's outermost loop), and calls of functions that only read and
//    compare fields (cheaper than the lookup).
//  - Calls of costly functions. CPL functions are pure, so a call of one
//    that runs a comprehension (`costly_functions`) is remembered by its
//    arguments for the rest of the evaluation, wherever it is made and
//    however many loop variables it reads: `stands_in(types, subs,
//    required, t, p.accelerator, p)` runs once per pool and type, not once
//    per allocation on the pool.
//  - Hash joins. A comprehension over a loop-invariant list whose condition
//    is a conjunction holding `key(x) == probe` (or `probe in key(x)`), where
//    `key` reads only the comprehension's variable and `probe` does not read
//    it, is answered from an index of the list by key, built once per
//    evaluation: items whose key differs make the conjunction false whatever
//    the other conjuncts say, so only the index's candidates are visited.
//    This holds for `filter`, `exists`, `exists_one` and the filtering
//    `map(x, pred, f)`, and for a `for` clause followed by such a `where`.
//    So `plan.allocations.filter(b, b.pool == a.pool && …)` inside a loop
//    over allocations costs O(n) in all, not O(n²). A conjunct that calls
//    a CPL function with the loop variable as one argument joins as the
//    function's body would with that parameter as its variable:
//    `plan.benchmarks.exists(b, representative(b, d, …) && …)`, the body
//    holding `b.demand == d.id`, is answered from an index by `demand`.
//  - Clause hoisting. A `where` runs as soon as the variables it reads are
//    bound, though ahead of an earlier `where` only to leave a `for` loop
//    (the clauses of a rule are a conjunction, so, as with CEL's `&&`, a
//    false `where` decides the binding before the clauses it skips).
//
// Besides, every literal pattern of a `matches` call is compiled here, once
// for the rule set (plan::Regex), not once per evaluation or per thread.
//
// Each rule's plan is its IR (plan/ir.h): its clauses as ops in the order
// they run, a scan carrying its join and read-ahead. The evaluator keeps
// the values and indexes per evaluation (eval::Memo); this plan only says
// where they apply. Node ids are per module, so the expression tables are
// keyed by node id like the checker's.
//
//   plan::ProgramPlan p = plan::Build(program);
//   const plan::RuleProgram& ir = p.rules[r];   // rule r's ops
//   std::cout << plan::Dump(program, p, sources);
//
// Immutable after Build(): nothing in a plan, nor in the program it was
// built from, is written during evaluation. What the evaluator remembers
// or learns while following it (remembered values, join indexes, where
// fields and ids were found) lives in the evaluation's own state
// (eval::RunState, eval::Memo, eval::SharedIndexes). Any number of
// evaluations may share a plan, on any threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/check/checker.h"
#include "engine/plan/ir.h"
#include "engine/plan/regex.h"

namespace capops::plan {

/// An equality (or membership) that selects items of a list by a key.
struct Join {
  const syntax::Expr* key = nullptr;        // reads the loop variable only
  const syntax::Expr* probe = nullptr;      // does not read the loop variable
  bool membership = false;                  // `probe in key(x)`: key is a list
  const syntax::Expr* condition = nullptr;  // the conjunct itself, true for the index's matches
  /// The probe is a list, each of whose items is a probe, and a candidate
  /// matches any of them: `key(x) in probe`, or `probe.exists(y,
  /// each(y) == key(x))` with `each` reading `y` (in `each_slot`) alone.
  bool any_of = false;
  const syntax::Expr* each = nullptr;  // null: the items themselves
  uint32_t each_slot = 0;
  /// A disjunction of joins (`x.id == d.id || x.of == d.id`): its
  /// candidates are those of any of these joins (indexes into
  /// ModulePlan::joins), and key and probe are not used.
  std::vector<int32_t> alternatives;
  /// The list is a function's parameter (or built from its parameters
  /// alone), so each call may pass another one: its index is per list.
  bool per_list = false;
  /// The other conjuncts that read the loop variable alone (or nothing):
  /// an item one of them makes false matches no probe. Items whose key is
  /// not a string are tested with them once, not kept for every probe.
  std::vector<const syntax::Expr*> item_conditions;
  /// A join through a call: the conjunct is `call`, a call of a CPL
  /// function passing the loop variable itself as its parameter `param`
  /// and nothing else that reads it, whose body is false for an item that
  /// `callee_join` (in module `callee_module`'s plan, the parameter in
  /// slot `param`) does not select. Key and probe are not used: that join
  /// is evaluated in the function's frame, its other parameters bound to
  /// the call's arguments.
  const syntax::Expr* call = nullptr;
  uint32_t param = 0;
  uint32_t callee_module = 0;
  int32_t callee_join = -1;
};

/// How an expression's value is remembered.
enum class MemoKind : uint8_t {
  kNone,
  kOnce,     // loop-invariant: one value per evaluation
  kPerVars,  // one value per value of the loop variables it reads (`free`)
  /// As kPerVars, the short lists among them (`by_items`) compared by
  /// their items rather than by identity: built afresh per binding, they
  /// still repeat. Remembered from the second time the same key comes.
  kPerItems,
};

/// Per module, indexed by node id.
struct ModulePlan {
  std::vector<MemoKind> memo;
  std::vector<uint64_t> free;      // the slots each expression reads, as bits
  std::vector<uint64_t> by_items;  // kPerItems: the slots of lists built afresh, as bits
  std::vector<int32_t> join;  // kMacro nodes: index into `joins`, or -1 (`for` clauses: Op::join)
  std::vector<Join> joins;
  /// Calls of `matches` whose pattern is a string literal that compiles:
  /// index into `patterns`, else -1. A pattern written twice is compiled once.
  std::vector<int32_t> pattern;
  std::vector<std::unique_ptr<const Regex>> patterns;
};

struct ProgramPlan {
  std::vector<ModulePlan> modules;  // parallel to Program::tables
  std::vector<RuleProgram> rules;   // parallel to Program::rules: each rule's IR
  /// By function index: the functions that run a comprehension, or call
  /// one that does. A call of one is remembered by its arguments.
  std::vector<bool> costly_functions;
};

ProgramPlan Build(const check::Program& program);

/// A text form: per rule, its IR (plan/ir.h: the ops in the order they
/// run, with their joins and read-ahead), then the expressions it evaluates
/// once and the patterns compiled for it, each as source text.
std::string Dump(const check::Program& program, const ProgramPlan& plan,
                 const SourceManager& sources);

}  // namespace capops::plan
