// SPDX-License-Identifier: Apache-2.0
// The planner: finds loop-invariant expressions, hash joins and the order of
// a rule's clauses. Entry points: plan::Build, plan::Dump.
//
// Everything rests on one fact per expression: the set of loop variables it
// reads (its free slots), as a bit mask over the slots of its rule or
// function. Slots are unique per binding within a rule, so a mask of 0 means
// "the same value for every binding of this evaluation".
#include "engine/plan/plan.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace capops::plan {

namespace {

using syntax::BinaryOp;
using syntax::Expr;
using syntax::ExprKind;
using syntax::MacroKind;

using Mask = uint64_t;
constexpr Mask kAllSlots = ~Mask{0};  // slots past 63: treated as read everywhere

Mask Bit(uint32_t slot) {
  return slot < 64 ? Mask{1} << slot : kAllSlots;
}

// The op of one clause, as written: a `for` scans, a `let` binds, a
// `where` filters.
Op ClauseOp(const syntax::Clause& c, uint32_t index, const check::ModuleTables& tables) {
  Op op;
  op.kind = c.kind == syntax::ClauseKind::kFor   ? OpKind::kScan
            : c.kind == syntax::ClauseKind::kLet ? OpKind::kLet
                                                 : OpKind::kFilter;
  op.index = index;
  if (op.kind != OpKind::kFilter) op.slot = tables.slots[c.id];
  op.expr = c.expr.get();
  return op;
}

// One emit per statement, in source order, after the clauses.
void AddEmits(const syntax::Rule& rule, RuleProgram* program) {
  for (size_t i = 0; i < rule.emits.size(); ++i) {
    Op op;
    op.kind = OpKind::kEmit;
    op.index = static_cast<uint32_t>(i);
    op.expr = rule.emits[i].when.get();
    program->ops.push_back(std::move(op));
  }
  program->emit_count = rule.emits.size();
}

bool RunsComprehension(const Expr& e, const check::ModuleTables& tables,
                       const std::vector<bool>& costly);
Mask ReadSlots(const Expr& e, const check::ModuleTables& tables);

class ModulePlanner;
using Planners = std::vector<std::unique_ptr<ModulePlanner>>;  // by module

class ModulePlanner {
 public:
  /// `planners`: every module's, this one's included, for the bodies of
  /// the functions its calls join through.
  ModulePlanner(const check::Program& program, uint32_t module, const std::vector<bool>& costly,
                const Planners& planners, ModulePlan* out)
      : program_(program),
        tables_(program.tables[module]),
        costly_functions_(costly),
        planners_(planners),
        out_(out),
        free_(program.modules[module]->node_count, 0) {
    size_t node_count = free_.size();
    out_->memo.assign(node_count, MemoKind::kNone);
    out_->free.assign(node_count, 0);
    out_->by_items.assign(node_count, 0);
    out_->join.assign(node_count, -1);
  }

  /// Plans one top-level expression (a clause, a hole, a function body).
  /// `distinct`: variables whose values never repeat within an evaluation
  /// (see DistinctLet), so remembering per their value gains nothing.
  /// `per_call`: the slots of a function's parameters, which hold one
  /// value per call (0 for a rule): a comprehension over a list read from
  /// them alone is joined, by an index per list.
  /// `condition`: a `where` or a `when`, whose trace (`--explain`) shows
  /// the values inside it: one that reads invariant `let`s and runs no
  /// comprehension is cheap, and is not remembered whole.
  void PlanExpr(const Expr& e, Mask distinct, Mask per_call = 0, bool condition = false) {
    per_call_ = per_call;
    FreeSlots(e);
    distinct_ = distinct;
    bool shown = condition && (ReadSlots(e, tables_) & invariant_) != 0 &&
                 !RunsComprehension(e, tables_, costly_functions_);
    Mark(e, 0, shown);
  }
  /// Called before a rule's clauses are planned: no `let` is known
  /// invariant, remembered or built afresh.
  void BeginRule() { invariant_ = fresh_ = remembered_ = 0; }
  /// After planning the `let` clause `c` (in source order): when its value
  /// reads no loop variable, its variable holds that one value, and what
  /// reads it is as invariant as what reads facts. When its value is
  /// remembered, the variable holds the same list whenever that repeats;
  /// when it is built afresh (DistinctLet), or remembered by items that
  /// may not repeat where the list does, a short one is compared by its
  /// items.
  void PlannedLet(const syntax::Clause& c) {
    Mask var = Bit(tables_.slots[c.id]);
    if (var == kAllSlots) return;
    if (free_[c.expr->id] == 0) invariant_ |= var;
    MemoKind memo = out_->memo[c.expr->id];
    if (memo == MemoKind::kPerVars || memo == MemoKind::kPerItems) remembered_ |= var;
    if (DistinctLet(*c.expr) || memo == MemoKind::kPerItems) fresh_ |= var;
  }
  /// Whether a planned `let` expression gives a value that never repeats:
  /// a list or map built afresh (a new heap object, so a new identity)
  /// each time the clause runs. Remembering per such a value (as `starts`
  /// in CAP-ALC-004, built per allocation) would only store every one.
  bool DistinctLet(const Expr& e) const;
  /// A rule's IR: its clauses in the order they run, scans with their
  /// joins and read-ahead, then its statements.
  RuleProgram PlanRule(const syntax::Rule& rule);

 private:
  Mask FreeSlots(const Expr& e);
  /// `enclosing`: the loop variables of the remembered expression `e` is
  /// in (0: none; kAllSlots: one remembered once).
  void Mark(const Expr& e, Mask enclosing, bool shown = false);
  MemoKind PerVars(const Expr& e) const;
  int32_t FindJoin(const Expr& condition, Mask var);
  void MarkPerList(int32_t join, bool per_list) {
    const Join& j = out_->joins[join];
    out_->joins[join].per_list = per_list;
    for (int32_t a : j.alternatives) MarkPerList(a, per_list);
    if (j.call != nullptr) planners_[j.callee_module]->MarkPerList(j.callee_join, per_list);
  }
  int32_t FindEitherJoin(const Expr& c, Mask var);
  int32_t FindCallJoin(const Expr& c, Mask var);
  int32_t FindEachJoin(const Expr& c, Mask var, const std::vector<const Expr*>& conjuncts);
  int32_t AddJoin(Join join, Mask var, const std::vector<const Expr*>& conjuncts);
  bool FactPath(const Expr& e) const;
  bool LookupOf(const Expr& e, uint32_t slot) const;
  bool Binds(const syntax::Clause& c, Mask deps) const {
    return c.kind != syntax::ClauseKind::kWhere && (Bit(tables_.slots[c.id]) & deps) != 0;
  }

  const check::Program& program_;
  const check::ModuleTables& tables_;
  const std::vector<bool>& costly_functions_;  // by function index: see CostlyFunctions
  const Planners& planners_;
  ModulePlan* out_;
  std::vector<Mask> free_;  // by node id
  Mask distinct_ = 0;
  Mask per_call_ = 0;
  Mask invariant_ = 0;   // the rule's `let` variables bound to invariant values
  Mask fresh_ = 0;       // … to lists built afresh each time (DistinctLet)
  Mask remembered_ = 0;  // … to values remembered per loop values
};

// The slots an expression reads, invariant `let`s included: what orders
// clauses (a `where` runs after the `let`s it reads, whatever they hold).
Mask ReadSlots(const Expr& e, const check::ModuleTables& tables) {
  if (e.kind == ExprKind::kIdent) {
    const check::Symbol& sym = tables.symbols[e.id];
    return sym.kind == check::SymbolKind::kLocal ? Bit(sym.index) : 0;
  }
  Mask m = 0;
  for (const auto& arg : e.args) m |= ReadSlots(*arg, tables);
  return m;
}

Mask ModulePlanner::FreeSlots(const Expr& e) {
  Mask m = 0;
  if (e.kind == ExprKind::kIdent) {
    const check::Symbol& sym = tables_.symbols[e.id];
    // A `let` of an invariant value binds the same value in every binding.
    if (sym.kind == check::SymbolKind::kLocal) m = Bit(sym.index) & ~invariant_;
  } else if (e.kind == ExprKind::kMacro || e.kind == ExprKind::kLet) {
    // The variable is bound in every argument but the first (the range, the value).
    Mask var = Bit(tables_.slots[e.id]);
    Mask body = 0;
    for (size_t i = 1; i < e.args.size(); ++i) body |= FreeSlots(*e.args[i]);
    m = FreeSlots(*e.args[0]) | (var == kAllSlots ? body : body & ~var);
    bool selects = e.kind == ExprKind::kMacro && e.macro != MacroKind::kAll &&
                   e.macro != MacroKind::kGroup && e.macro != MacroKind::kTimeline &&
                   (e.macro != MacroKind::kMap || e.args.size() == 3);
    Mask range = free_[e.args[0]->id];
    if (selects && (range & ~per_call_) == 0) {
      out_->join[e.id] = FindJoin(*e.args[1], var);
      if (out_->join[e.id] >= 0) MarkPerList(out_->join[e.id], range != 0);
    }
  } else {
    for (const auto& arg : e.args) m |= FreeSlots(*arg);
  }
  free_[e.id] = m;
  return m;
}

bool ModulePlanner::DistinctLet(const Expr& e) const {
  if (free_[e.id] == 0 || out_->memo[e.id] != MemoKind::kNone) return false;
  switch (e.kind) {
    case ExprKind::kList:
    case ExprKind::kMap:
    case ExprKind::kSet:
      return true;
    case ExprKind::kMacro:
      return e.macro == MacroKind::kMap || e.macro == MacroKind::kFilter;
    case ExprKind::kConditional:  // `has(d.accelerator) ? [d.accelerator] : ….distinct()`
      return DistinctLet(*e.args[1]) && DistinctLet(*e.args[2]);
    case ExprKind::kCall:
      return tables_.symbols[e.id].kind != check::SymbolKind::kFunction &&
             tables_.functions[e.id] == check::FunctionId::kDistinct && e.args.size() == 1 &&
             DistinctLet(*e.args[0]);
    default:
      return false;
  }
}

// Worth remembering: anything that does more than read a name or a field.
// A list's conditional element is never evaluated as a node: its list is.
bool Worth(const Expr& e) {
  return e.kind != ExprKind::kLiteral && e.kind != ExprKind::kIdent &&
         e.kind != ExprKind::kSelect && e.kind != ExprKind::kOptSelect &&
         e.kind != ExprKind::kHas && e.kind != ExprKind::kListIf;
}

// A comprehension over a loop-invariant list (or one a remembered `let`
// holds) that reads at most two loop variables: its value repeats whenever
// they do. Or a call of a CPL function that runs a comprehension (pure, and
// often called again with the same record); one that only reads fields and
// compares them costs less than the lookup that would remember it.
// Reading a list built afresh, it is remembered by that list's items
// (kPerItems): services that share spare pools each build the list of
// them, and what is computed from it once serves them all.
MemoKind ModulePlanner::PerVars(const Expr& e) const {
  Mask m = free_[e.id];
  if (m == 0 || m == kAllSlots || (m & distinct_ & ~fresh_) != 0 || __builtin_popcountll(m) > 2)
    return MemoKind::kNone;
  MemoKind kind = (m & fresh_) != 0 ? MemoKind::kPerItems : MemoKind::kPerVars;
  if (e.kind == ExprKind::kMacro)
    return (free_[e.args[0]->id] & ~remembered_) == 0 ? kind : MemoKind::kNone;
  const check::Symbol& sym = tables_.symbols[e.id];
  return e.kind == ExprKind::kCall && sym.kind == check::SymbolKind::kFunction &&
                 costly_functions_[sym.index]
             ? kind
             : MemoKind::kNone;
}

// Inside an expression remembered once, nothing more is: it runs once.
// Inside one remembered per loop values, what reads only those values (or
// some of them) runs once per them too; the rest — what is invariant, and
// what reads the variables the expression binds itself (`stands_in(…, t,
// p)` in a filter over pools remembered per demand) — is remembered on its
// own, so that it is shared when the enclosing one is computed again.
void ModulePlanner::Mark(const Expr& e, Mask enclosing, bool shown) {
  MemoKind memo = MemoKind::kNone;
  bool free_of_enclosing = enclosing != kAllSlots && (free_[e.id] & ~enclosing) != 0;
  if (!shown && enclosing != kAllSlots && free_[e.id] == 0 && Worth(e)) memo = MemoKind::kOnce;
  if (enclosing == 0 || free_of_enclosing) {
    if (MemoKind per = PerVars(e); per != MemoKind::kNone) memo = per;
  }
  out_->memo[e.id] = memo;
  out_->free[e.id] = free_[e.id];
  out_->by_items[e.id] = memo == MemoKind::kPerItems ? free_[e.id] & fresh_ : 0;
  Mask inner = memo == MemoKind::kOnce   ? kAllSlots
               : memo == MemoKind::kNone ? enclosing
                                         : free_[e.id];
  for (const auto& arg : e.args) Mark(*arg, inner, shown);
}

// The first conjunct of `condition` that equates (or tests membership of) a
// key of the variable `var` alone with a value that does not read `var`;
// the conjuncts that read `var` alone go with it (Join::item_conditions).
int32_t ModulePlanner::FindJoin(const Expr& condition, Mask var) {
  if (var == kAllSlots) return -1;
  std::vector<const Expr*> conjuncts, pending{&condition};
  while (!pending.empty()) {
    const Expr& c = *pending.back();
    pending.pop_back();
    if (c.kind == ExprKind::kBinary && c.binary_op == BinaryOp::kAnd) {
      pending.push_back(c.args[1].get());  // visited after args[0]: left to right
      pending.push_back(c.args[0].get());
      continue;
    }
    conjuncts.push_back(&c);
  }
  for (const Expr* conjunct : conjuncts) {
    const Expr& c = *conjunct;
    if (int32_t join = FindEachJoin(c, var, conjuncts); join >= 0) return join;
    if (int32_t join = FindCallJoin(c, var); join >= 0) return join;
    if (c.kind != ExprKind::kBinary) continue;
    const Expr& lhs = *c.args[0];
    const Expr& rhs = *c.args[1];
    auto key_of_var = [&](const Expr& x) { return free_[x.id] == var; };
    auto not_var = [&](const Expr& x) { return (free_[x.id] & var) == 0; };
    Join join;
    auto found = [&](const Expr& key, const Expr& probe) {
      join.key = &key;
      join.probe = &probe;
    };
    if (c.binary_op == BinaryOp::kEq && key_of_var(lhs) && not_var(rhs)) {
      found(lhs, rhs);
    } else if (c.binary_op == BinaryOp::kEq && key_of_var(rhs) && not_var(lhs)) {
      found(rhs, lhs);
    } else if (c.binary_op == BinaryOp::kIn && key_of_var(rhs) && not_var(lhs)) {
      found(rhs, lhs);
      join.membership = true;
    } else if (c.binary_op == BinaryOp::kIn && key_of_var(lhs) && not_var(rhs)) {
      found(lhs, rhs);
      join.any_of = true;
    } else {
      continue;
    }
    join.condition = &c;
    return AddJoin(std::move(join), var, conjuncts);
  }
  for (const Expr* conjunct : conjuncts) {
    if (int32_t join = FindEitherJoin(*conjunct, var); join >= 0) return join;
  }
  return -1;
}

// `a || b || …` where each disjunct has a join of its own: an item no
// disjunct's index selects makes every disjunct false.
int32_t ModulePlanner::FindEitherJoin(const Expr& c, Mask var) {
  if (c.kind != ExprKind::kBinary || c.binary_op != BinaryOp::kOr) return -1;
  std::vector<const Expr*> disjuncts, pending{&c};
  while (!pending.empty()) {
    const Expr& d = *pending.back();
    pending.pop_back();
    if (d.kind == ExprKind::kBinary && d.binary_op == BinaryOp::kOr) {
      pending.push_back(d.args[1].get());
      pending.push_back(d.args[0].get());
      continue;
    }
    disjuncts.push_back(&d);
  }
  Join either;
  either.condition = &c;
  for (const Expr* d : disjuncts) {
    int32_t join = FindJoin(*d, var);
    if (join < 0) return -1;
    either.alternatives.push_back(join);
  }
  out_->joins.push_back(std::move(either));
  return static_cast<int32_t>(out_->joins.size() - 1);
}

// `f(…, x, …)`: x the variable `var` passed as one parameter of a CPL
// function, no other argument reading it, and a join of that parameter in
// the function's body, which is then false for every item the join does
// not select, whatever the other arguments hold. Such a body is planned
// before the calls to it (Build), so its free slots are known.
int32_t ModulePlanner::FindCallJoin(const Expr& c, Mask var) {
  if (c.kind != ExprKind::kCall || tables_.symbols[c.id].kind != check::SymbolKind::kFunction)
    return -1;
  const check::UserFunction& f = program_.functions[tables_.symbols[c.id].index];
  if (!f.checked) return -1;
  int32_t param = -1;
  for (size_t i = 0; i < c.args.size(); ++i) {
    const Expr& arg = *c.args[i];
    bool is_var = arg.kind == ExprKind::kIdent &&
                  tables_.symbols[arg.id].kind == check::SymbolKind::kLocal &&
                  Bit(tables_.symbols[arg.id].index) == var;
    if (is_var && param < 0) {
      param = static_cast<int32_t>(i);
    } else if ((free_[arg.id] & var) != 0) {
      return -1;
    }
  }
  if (param < 0 || param >= 64) return -1;
  int32_t inner = planners_[f.module]->FindJoin(*f.decl->body, Bit(static_cast<uint32_t>(param)));
  if (inner < 0) return -1;
  Join join;
  join.condition = &c;
  join.call = &c;
  join.param = static_cast<uint32_t>(param);
  join.callee_module = f.module;
  join.callee_join = inner;
  out_->joins.push_back(std::move(join));
  return static_cast<int32_t>(out_->joins.size() - 1);
}

// `probe.exists(y, each(y) == key(x))`: x the variable `var`, `probe` not
// reading it, `each` reading `y` alone and `key` reading `var` alone.
int32_t ModulePlanner::FindEachJoin(const Expr& c, Mask var,
                                    const std::vector<const Expr*>& conjuncts) {
  if (c.kind != ExprKind::kMacro || c.macro != MacroKind::kExists || c.args.size() != 2) return -1;
  Mask y = Bit(tables_.slots[c.id]);
  const Expr& range = *c.args[0];
  const Expr& body = *c.args[1];
  if (y == kAllSlots || (free_[range.id] & (var | y)) != 0 || body.kind != ExprKind::kBinary ||
      body.binary_op != BinaryOp::kEq)
    return -1;
  for (int side = 0; side < 2; ++side) {
    const Expr& each = *body.args[side];
    const Expr& key = *body.args[1 - side];
    if (free_[each.id] != y || free_[key.id] != var) continue;
    Join join;
    join.key = &key;
    join.probe = &range;
    join.any_of = true;
    join.each = &each;
    join.each_slot = tables_.slots[c.id];
    join.condition = &c;
    return AddJoin(std::move(join), var, conjuncts);
  }
  return -1;
}

// Adds a join found in `conjuncts`, with the others that read `var` alone.
int32_t ModulePlanner::AddJoin(Join join, Mask var, const std::vector<const Expr*>& conjuncts) {
  for (const Expr* other : conjuncts) {
    if (other != join.condition && (free_[other->id] & ~var) == 0)
      join.item_conditions.push_back(other);
  }
  out_->joins.push_back(std::move(join));
  return static_cast<int32_t>(out_->joins.size() - 1);
}

// Each `where` goes right after the last clause binding a variable it reads.
// It passes an earlier `where` only to leave a `for` loop: authors put the
// cheap and selective conditions first (CAP-ALC-004 tests `used > capacity`
// before its costlier check for an earlier report), and passing `let`s alone
// saves less than a failing earlier `where` would. The other clauses keep
// their order.
RuleProgram ModulePlanner::PlanRule(const syntax::Rule& rule) {
  const auto& clauses = rule.clauses;
  size_t n = clauses.size();
  std::vector<std::vector<uint32_t>> after(n + 1);  // after[k+1]: wheres placed after clause k
  size_t previous = 0;                              // the anchor of the last `where` placed
  for (size_t i = 0; i < n; ++i) {
    if (clauses[i].kind != syntax::ClauseKind::kWhere) continue;
    Mask deps = ReadSlots(*clauses[i].expr, tables_);
    size_t anchor = 0;
    for (size_t k = 0; k < i; ++k) {
      if (Binds(clauses[k], deps)) anchor = k + 1;
    }
    bool leaves_loop = false;
    for (size_t k = anchor; k < previous; ++k)
      leaves_loop = leaves_loop || clauses[k].kind == syntax::ClauseKind::kFor;
    if (!leaves_loop) anchor = std::max(anchor, previous);
    after[anchor].push_back(static_cast<uint32_t>(i));
    previous = anchor;
  }
  std::vector<uint32_t> order = after[0];
  for (size_t k = 0; k < n; ++k) {
    if (clauses[k].kind == syntax::ClauseKind::kWhere) continue;
    order.push_back(static_cast<uint32_t>(k));
    order.insert(order.end(), after[k + 1].begin(), after[k + 1].end());
  }
  RuleProgram program;
  for (uint32_t i : order) program.ops.push_back(ClauseOp(clauses[i], i, tables_));
  for (size_t i = 0; i < program.ops.size(); ++i) {
    Op& scan = program.ops[i];
    if (scan.kind != OpKind::kScan) continue;
    // A scan of an invariant list, directly followed by a joining filter.
    if (i + 1 < program.ops.size() && program.ops[i + 1].kind == OpKind::kFilter &&
        free_[scan.expr->id] == 0) {
      scan.join = FindJoin(*program.ops[i + 1].expr, Bit(scan.slot));
    }
    for (size_t k = i + 1; k < program.ops.size() && program.ops[k].kind != OpKind::kScan; ++k) {
      const Op& let = program.ops[k];
      if (let.kind == OpKind::kLet && LookupOf(*let.expr, scan.slot)) {
        scan.lookups.push_back(Lookup{let.expr->args[0].get(), let.expr->args[1].get()});
      }
    }
  }
  AddEmits(rule, &program);
  return program;
}

// `plan`, `inventory`, or a field of one: read without evaluating anything.
bool ModulePlanner::FactPath(const Expr& e) const {
  if (e.kind == ExprKind::kIdent) return tables_.symbols[e.id].kind == check::SymbolKind::kRoot;
  return e.kind == ExprKind::kSelect && FactPath(*e.args[0]);
}

// `path[v.field]`, v the variable in `slot`.
bool ModulePlanner::LookupOf(const Expr& e, uint32_t slot) const {
  if (e.kind != ExprKind::kIndex || !FactPath(*e.args[0])) return false;
  const Expr& key = *e.args[1];
  if (key.kind != ExprKind::kSelect || key.args[0]->kind != ExprKind::kIdent) return false;
  const check::Symbol& var = tables_.symbols[key.args[0]->id];
  return var.kind == check::SymbolKind::kLocal && var.index == slot;
}

// Every top-level expression of a rule, in source order.
std::vector<const Expr*> RuleExprs(const syntax::Rule& rule) {
  std::vector<const Expr*> exprs;
  for (const syntax::Clause& c : rule.clauses) exprs.push_back(c.expr.get());
  for (const syntax::Emit& emit : rule.emits) {
    if (emit.when) exprs.push_back(emit.when.get());
    if (emit.at) exprs.push_back(emit.at.get());
    for (const auto& part : emit.message.parts) {
      if (part.expr) exprs.push_back(part.expr.get());
    }
  }
  return exprs;
}

// Whether an expression runs a comprehension, or calls a function marked in
// `costly`.
bool RunsComprehension(const Expr& e, const check::ModuleTables& tables,
                       const std::vector<bool>& costly) {
  if (e.kind == ExprKind::kMacro) return true;
  if (e.kind == ExprKind::kCall && tables.symbols[e.id].kind == check::SymbolKind::kFunction &&
      costly[tables.symbols[e.id].index]) {
    return true;
  }
  for (const auto& arg : e.args) {
    if (RunsComprehension(*arg, tables, costly)) return true;
  }
  return false;
}

// By function index: the functions whose body runs a comprehension, directly
// or through the functions it calls (to a fixed point: calls may nest).
std::vector<bool> CostlyFunctions(const check::Program& program) {
  std::vector<bool> costly(program.functions.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t f = 0; f < program.functions.size(); ++f) {
      const check::UserFunction& fn = program.functions[f];
      if (costly[f] || !fn.checked) continue;
      if (RunsComprehension(*fn.decl->body, program.tables[fn.module], costly))
        costly[f] = changed = true;
    }
  }
  return costly;
}

// The checked functions, each after every function its body calls (calls
// cannot recurse): a call joins through a body planned before it.
std::vector<uint32_t> CalleesFirst(const check::Program& program) {
  std::vector<uint32_t> order;
  std::vector<bool> placed(program.functions.size(), false);
  std::function<void(uint32_t)> place = [&](uint32_t f) {
    const check::UserFunction& fn = program.functions[f];
    if (placed[f] || !fn.checked) return;
    placed[f] = true;
    const check::ModuleTables& tables = program.tables[fn.module];
    std::vector<const Expr*> pending{fn.decl->body.get()};
    while (!pending.empty()) {
      const Expr& e = *pending.back();
      pending.pop_back();
      if (e.kind == ExprKind::kCall && tables.symbols[e.id].kind == check::SymbolKind::kFunction)
        place(tables.symbols[e.id].index);
      for (const auto& arg : e.args) pending.push_back(arg.get());
    }
    order.push_back(f);
  };
  for (uint32_t f = 0; f < program.functions.size(); ++f) place(f);
  return order;
}

// The literal pattern of each `matches` call, compiled once per distinct
// text. One that does not compile is left to the evaluator, which reports
// it (the engine also refuses it as a policy error before any evaluation).
void CompilePatterns(const syntax::Module& module, const check::ModuleTables& tables,
                     ModulePlan* out) {
  out->pattern.assign(module.node_count, -1);
  std::unordered_map<std::string_view, int32_t> seen;
  syntax::ForEachExpr(module, [&](const Expr& e) {
    if (e.kind != ExprKind::kCall || tables.functions[e.id] != check::FunctionId::kMatches) return;
    if (tables.symbols[e.id].kind == check::SymbolKind::kFunction || e.args.size() != 2) return;
    const Expr& pattern = *e.args[1];
    if (pattern.kind != ExprKind::kLiteral || !pattern.literal.is(ValueKind::kString)) return;
    std::string_view text = pattern.literal.string_value();
    auto it = seen.find(text);
    if (it == seen.end()) {
      std::string error;
      std::unique_ptr<const Regex> re = Regex::Compile(text, &error);
      if (re == nullptr) return;
      out->patterns.push_back(std::move(re));
      it = seen.emplace(text, static_cast<int32_t>(out->patterns.size() - 1)).first;
    }
    out->pattern[e.id] = it->second;
  });
}

}  // namespace

RuleProgram AsWritten(const check::RuleInfo& rule, const check::ModuleTables& tables) {
  RuleProgram program;
  const auto& clauses = rule.rule->clauses;
  for (size_t i = 0; i < clauses.size(); ++i) {
    program.ops.push_back(ClauseOp(clauses[i], static_cast<uint32_t>(i), tables));
  }
  AddEmits(*rule.rule, &program);
  return program;
}

ProgramPlan Build(const check::Program& program) {
  ProgramPlan plan;
  plan.modules.resize(program.modules.size());
  plan.costly_functions = CostlyFunctions(program);
  const std::vector<bool>& costly = plan.costly_functions;
  Planners planners;
  for (uint32_t m = 0; m < program.modules.size(); ++m) {
    planners.push_back(
        std::make_unique<ModulePlanner>(program, m, costly, planners, &plan.modules[m]));
    CompilePatterns(*program.modules[m], program.tables[m], &plan.modules[m]);
  }
  for (uint32_t f : CalleesFirst(program)) {
    const check::UserFunction& fn = program.functions[f];
    Mask parameters = fn.params.size() >= 64 ? 0 : (Mask{1} << fn.params.size()) - 1;
    planners[fn.module]->PlanExpr(*fn.decl->body, 0, parameters);
  }
  for (const check::RuleInfo& rule : program.rules) {
    ModulePlanner& planner = *planners[rule.module];
    const auto& clauses = rule.rule->clauses;
    const auto& slots = program.tables[rule.module].slots;
    // The outermost loop's values never repeat, nor lists built from them.
    Mask distinct = !clauses.empty() && clauses[0].kind == syntax::ClauseKind::kFor
                        ? Bit(slots[clauses[0].id])
                        : 0;
    planner.BeginRule();
    for (const syntax::Clause& c : clauses) {
      planner.PlanExpr(*c.expr, distinct, 0, c.kind == syntax::ClauseKind::kWhere);
      if (c.kind == syntax::ClauseKind::kLet) planner.PlannedLet(c);
      if (c.kind == syntax::ClauseKind::kLet && planner.DistinctLet(*c.expr))
        distinct |= Bit(slots[c.id]);
    }
    std::vector<const Expr*> exprs = RuleExprs(*rule.rule);
    for (size_t i = clauses.size(); i < exprs.size(); ++i)
      planner.PlanExpr(*exprs[i], distinct, 0, true);
    plan.rules.push_back(planner.PlanRule(*rule.rule));
  }
  return plan;
}

}  // namespace capops::plan

namespace capops::plan {

namespace {

std::string Text(const SourceManager& sources, const Span& span) {
  const std::string& text = sources.file(span.file).text();
  if (!span.valid() || span.begin >= text.size()) return "";
  std::string s = text.substr(span.begin, std::min<size_t>(span.end, text.size()) - span.begin);
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  s.erase(std::unique(s.begin(), s.end(), [](char a, char b) { return a == ' ' && b == ' '; }),
          s.end());
  return s.size() > 72 ? s.substr(0, 69) + "..." : s;
}

std::string DescribeJoin(const Join& j, const ModulePlan& m, const ProgramPlan& plan,
                         const SourceManager& sources) {
  if (!j.alternatives.empty()) {
    std::string how;
    for (int32_t a : j.alternatives)
      how += (how.empty() ? "either " : " or ") + DescribeJoin(m.joins[a], m, plan, sources);
    return how;
  }
  if (j.call != nullptr) {
    const ModulePlan& callee = plan.modules[j.callee_module];
    return DescribeJoin(callee.joins[j.callee_join], callee, plan, sources) + " in `" +
           Text(sources, j.call->span) + "`";
  }
  std::string key = "`" + Text(sources, j.key->span) + "`";
  std::string probe = "`" + Text(sources, j.probe->span) + "`";
  std::string how = j.membership ? "by each of " + key + " for " + probe
                    : j.any_of   ? "by " + key + " for each of " + probe
                                 : "by " + key + " == " + probe;
  return j.per_list ? how + ", an index per list passed" : how;
}

// The remembered expressions and joining comprehensions below `e`.
void DumpExpr(const Expr& e, const ModulePlan& m, const ProgramPlan& plan,
              const SourceManager& sources, std::string* out) {
  if (m.memo[e.id] == MemoKind::kOnce) *out += "  once `" + Text(sources, e.span) + "`\n";
  if (m.memo[e.id] == MemoKind::kPerVars)
    *out += "  once per loop values `" + Text(sources, e.span) + "`\n";
  if (m.memo[e.id] == MemoKind::kPerItems)
    *out += "  once per loop values, lists by their items `" + Text(sources, e.span) + "`\n";
  if (m.pattern[e.id] >= 0) *out += "  compiled pattern " + Text(sources, e.args[1]->span) + "\n";
  if (e.kind == ExprKind::kMacro && m.join[e.id] >= 0) {
    *out += "  join `" + Text(sources, e.span) + "` " +
            DescribeJoin(m.joins[m.join[e.id]], m, plan, sources) + "\n";
  }
  for (const auto& arg : e.args) DumpExpr(*arg, m, plan, sources, out);
}

// One op: `[clause] kind $slot var <- expr` (scans, lets), the clause's
// number as written before it; an emit as its statement's kind, `when` and
// `at`.
void DumpOp(const syntax::Rule& rule, const Op& op, const ModulePlan& m, const ProgramPlan& plan,
            const SourceManager& sources, std::string* out) {
  std::string text = op.expr != nullptr ? Text(sources, op.expr->span) : "";
  if (op.kind == OpKind::kEmit) {
    const syntax::Emit& emit = rule.emits[op.index];
    *out += std::string("  emit ") + (emit.is_warn ? "warn" : "deny");
    if (emit.when) *out += " when " + text;
    if (emit.at) *out += " at " + Text(sources, emit.at->span);
    *out += "\n";
    return;
  }
  const std::string& var = rule.clauses[op.index].var;
  std::string slot = "$" + std::to_string(op.slot) + " " + var;
  *out += "  [" + std::to_string(op.index + 1) + "] ";
  switch (op.kind) {
    case OpKind::kScan:
      *out += "scan " + slot + " <- " + text + "\n";
      break;
    case OpKind::kLet:
      *out += "let " + slot + " = " + text + "\n";
      break;
    default:
      *out += "filter " + text + "\n";
      break;
  }
  if (op.join >= 0) *out += "      join " + DescribeJoin(m.joins[op.join], m, plan, sources) + "\n";
  for (const Lookup& l : op.lookups) {
    *out += "      reads ahead " + Text(sources, l.list->span) + "[" + Text(sources, l.key->span) +
            "]\n";
  }
}

}  // namespace

std::string Dump(const check::Program& program, const ProgramPlan& plan,
                 const SourceManager& sources) {
  std::string out;
  for (size_t r = 0; r < program.rules.size(); ++r) {
    const check::RuleInfo& info = program.rules[r];
    const ModulePlan& m = plan.modules[info.module];
    out += "rule " + info.id + " (" + std::to_string(info.slot_count) + " slots)\n";
    for (const Op& op : plan.rules[r].ops) DumpOp(*info.rule, op, m, plan, sources, &out);
    for (const Expr* e : RuleExprs(*info.rule)) DumpExpr(*e, m, plan, sources, &out);
  }
  for (size_t i = 0; i < program.functions.size(); ++i) {
    const check::UserFunction& f = program.functions[i];
    if (!f.checked) continue;
    std::string body;
    if (plan.costly_functions[i]) body += "  calls remembered by their arguments\n";
    DumpExpr(*f.decl->body, plan.modules[f.module], plan, sources, &body);
    if (!body.empty()) out += "fn " + f.decl->name + "\n" + body;
  }
  return out;
}

}  // namespace capops::plan
