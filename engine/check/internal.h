// SPDX-License-Identifier: Apache-2.0
// Internals of the checker shared by its files; not part of the API.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/check/checker.h"

namespace capops::check::internal {

/// What the checker knows about an expression.
struct Typed {
  TypeId type = 0;          // TypeTable::Any()
  bool fact = false;        // the value is read from the facts (so it has a location)
  bool fact_items = false;  // a list whose items are read from the facts
};

/// Names visible across modules: params by package, enum members, types.
struct Globals {
  struct ParamRef {
    uint32_t index;
    std::string package;
  };
  std::map<std::string, std::vector<ParamRef>, std::less<>> params;
  std::map<std::string, std::vector<ParamRef>, std::less<>> functions;  // same scoping as params
  // member name → (enum index, constant index), for every enum declaring it
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>, std::less<>> members;
  std::map<std::string, uint32_t, std::less<>> constant_of;  // "Enum.member" → constant
};

/// Records, documents and enums of every module into program->schema, and
/// the enum members into program->constants.
void BuildSchema(Program* program, const SourceManager& sources, Globals* globals,
                 Diagnostics* diags);

/// Rebuilds the name index of an already checked program (for expressions
/// checked after it, such as `capops-lint eval`).
void IndexGlobals(const Program& program, Globals* globals);

/// The TypeId a written type denotes; errors (unknown names, arity) are reported.
TypeId ResolveType(const syntax::TypeRef& ref, TypeTable* types, const SourceManager& sources,
                   Diagnostics* diags);

/// True when a value of type `from` may stand where `to` is expected.
bool Assignable(const TypeTable& types, TypeId from, TypeId to);

/// True for a record that spans time: a `start` and an `end` date (`Window`,
/// `Interval`).
bool IsInterval(const TypeTable& types, TypeId t);
/// True for the kinds an amount may have: numbers, durations, quantities.
bool IsMeasured(TypeKind k);
inline bool IsNumber(TypeKind k) {
  return k == TypeKind::kInt || k == TypeKind::kDouble;
}
/// Durations and quantities: values with a unit.
inline bool IsUnit(TypeKind k) {
  return k == TypeKind::kDuration || k == TypeKind::kBytes || k == TypeKind::kBandwidth;
}
/// `any` and the error type: checked no further, so they fit anywhere.
inline bool IsLoose(TypeKind k) {
  return k == TypeKind::kAny || k == TypeKind::kError;
}
/// Strings and references (a reference is the id string of what it names).
inline bool IsStringLike(TypeKind k) {
  return k == TypeKind::kString || k == TypeKind::kRef;
}

/// A static bound on the work of one evaluation of a rule, such as
/// "O(|plan.allocations| · |a.evidence|)".
std::string CostBound(const syntax::Rule& rule, const SourceManager& sources);

/// The params a checked rule of module `module` reads, also through the
/// functions it calls (RuleInfo::params). Its functions must be checked.
std::vector<uint32_t> ParamsRead(const Program& program, const syntax::Rule& rule, uint32_t module);

/// The result type of a built-in for the given argument types, or the error
/// type with `*error` set.
TypeId FunctionResult(FunctionId id, const std::vector<TypeId>& args, TypeTable* types,
                      std::string* error);

/// The result type of a binary operator other than `&&`/`||`, or the error
/// type with `*error` (and maybe `*help`) set.
TypeId BinaryResult(syntax::BinaryOp op, TypeId lhs, TypeId rhs, TypeTable* types,
                    std::string* error, std::string* help);

/// Types checks an expression at a time within one rule or param.
class ExprChecker {
 public:
  ExprChecker(Program* program, const SourceManager& sources, const Globals& globals,
              Diagnostics* diags);

  /// Starts a module: its side tables, package and imports.
  void BeginModule(uint32_t module);
  /// Starts a standalone expression: its own side tables, every package visible.
  void BeginStandalone(ModuleTables* tables);
  /// Starts a rule or a param default: no locals, no guards.
  void BeginScope(bool constant_only);
  uint32_t slot_count() const { return next_slot_; }

  /// The type of `e`. An optional (`a.?b`) is an error unless
  /// `may_be_optional`: elsewhere it must be unwrapped with `orValue`.
  Typed Infer(syntax::Expr& e, bool may_be_optional = false);
  /// Binds a variable to a fresh slot.
  uint32_t Bind(const std::string& name, const Span& span, Typed typed);
  /// Everything `cond` being true proves present (`has(x.f)` conjuncts).
  void AddGuards(const syntax::Expr& cond);
  Diagnostic& Error(const Span& span, std::string message);
  const std::string& text_of(const syntax::Expr& e);

 private:
  Typed InferIdent(syntax::Expr& e);
  Typed InferSelect(syntax::Expr& e);
  Typed InferOptSelect(syntax::Expr& e);
  const FieldDef* FieldOf(const RecordDef& record, const syntax::Expr& select);
  Typed InferIndex(syntax::Expr& e);
  Typed InferCall(syntax::Expr& e);
  bool InferUserCall(syntax::Expr& e, const std::vector<TypeId>& args, Typed* result);
  Typed InferCollection(syntax::Expr& e);
  Typed InferListIf(syntax::Expr& e);
  Typed InferLet(syntax::Expr& e, bool may_be_optional);
  Typed InferUnary(syntax::Expr& e);
  Typed InferBinary(syntax::Expr& e);
  Typed InferLogical(syntax::Expr& e);
  Typed InferConditional(syntax::Expr& e, bool may_be_optional);
  Typed InferMacro(syntax::Expr& e);
  static bool KeepsFactItems(FunctionId id, const std::vector<Typed>& args);
  Typed InferGroup(syntax::Expr& e, const Typed& key, const Typed& item);
  Typed InferTimeline(syntax::Expr& e, const Typed& windows, const Typed& item);
  Typed InferHas(syntax::Expr& e);
  bool ResolveEnumMember(syntax::Expr& select, TypeId* type);
  const Globals::ParamRef* VisibleParam(const std::string& name, const syntax::Expr& e);
  const Globals::ParamRef* Visible(const std::vector<Globals::ParamRef>& candidates,
                                   const std::string& name, const char* what,
                                   const syntax::Expr& e);
  std::vector<std::string> VisibleNames() const;
  void ExpectBool(const Typed& t, const syntax::Expr& e, const char* what);
  TypeId Unify(TypeId a, TypeId b, const syntax::Expr& at, const char* what);
  void Collect(const syntax::Expr& cond, bool negated, std::set<std::string>* out) const;

  Program* program_;
  TypeTable& types_;
  const SourceManager& sources_;
  const Globals& globals_;
  Diagnostics* diags_;

  ModuleTables* tables_ = nullptr;
  std::string package_;
  std::set<std::string> imports_;
  bool all_packages_ = false;
  struct Local {
    std::string name;
    uint32_t slot;
    Typed typed;
  };
  std::vector<Local> locals_;
  std::set<std::string> guards_;  // dumps of `x.f` selections known present
  uint32_t next_slot_ = 0;
  bool constant_only_ = false;
  std::string text_;
};

}  // namespace capops::check::internal
