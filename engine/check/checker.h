// SPDX-License-Identifier: Apache-2.0
// The checker: the schema, names, types and rule metadata, before any fact is read.
//
// Check() takes the parsed modules of a rule set (stdlib and packs together),
// builds the schema from its `enum`, `record` and `document` declarations,
// and type-checks every param and rule against it: each identifier resolves
// to a local variable slot, a `param` (visible in its package and where
// imported), a fact root (`plan`, `inventory`) or an enum member; field
// access is checked against the records; operators are checked with their
// units; optional fields must be guarded by `has()`; `at` must denote a fact.
// What it learns goes into side tables keyed by node id (ModuleTables); the
// AST is not changed. Problems are Diagnostics, all of them, sorted, with
// did-you-mean hints. A rule set that checks can only fail on the facts.
//
// Enum members are values: `production_replacement` is the string
// "production-replacement" (CPL writes `_` where YAML facts write `-`).
//
//   check::CheckResult r = check::Check(std::move(modules), sources);
//   if (!r.diagnostics.HasErrors()) evaluate(*r.program, …);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/check/functions.h"
#include "engine/common/diagnostic.h"
#include "engine/common/schema.h"
#include "engine/common/value.h"
#include "engine/syntax/ast.h"

namespace capops::check {

/// The fact documents a rule can read.
enum class Root : uint8_t { kPlan, kInventory };
inline constexpr uint32_t kRootCount = 2;
const char* RootName(Root root);

enum class SymbolKind : uint8_t { kUnresolved, kLocal, kParam, kRoot, kConstant, kFunction };

/// What an identifier (or a call, for kFunction) means; `index` is a slot, a
/// param, a Root, a constant or a UserFunction.
struct Symbol {
  SymbolKind kind = SymbolKind::kUnresolved;
  uint32_t index = 0;
};

/// Side tables for one module, indexed by node id.
struct ModuleTables {
  std::vector<Symbol> symbols;        // kIdent nodes; kSelect nodes naming `Enum.member`
  std::vector<FunctionId> functions;  // kCall nodes
  std::vector<uint32_t> slots;        // for/let clauses and kMacro nodes: their variable
  std::vector<TypeId> types;          // every expression: its static type
};

struct RuleInfo {
  const syntax::Rule* rule = nullptr;
  uint32_t module = 0;
  std::string id;  // from @id
  Severity severity = Severity::kError;
  std::string owner;
  std::string source;
  std::vector<std::string> tags;  // other annotations, as written without `@`
  uint32_t slot_count = 0;        // local variables of the rule and its macros
  std::string cost;               // static bound, e.g. "O(|plan.allocations| · |a.evidence|)"
  /// The params it reads (indexes into Program::params), in order of first
  /// use: in its clauses and statements, and in the functions it calls,
  /// however deep, each where it is first called.
  std::vector<uint32_t> params;
};

struct ParamInfo {
  const syntax::Param* decl = nullptr;
  uint32_t module = 0;
  uint32_t slot_count = 0;  // variables of macros in the default
  TypeId type = 0;          // the declared type
};

/// A `fn` declared in CPL.
struct UserFunction {
  const syntax::FunctionDecl* decl = nullptr;
  uint32_t module = 0;
  std::vector<TypeId> params;
  TypeId result = 0;
  uint32_t slot_count = 0;  // its parameters (slots 0…n-1) and macro variables
  bool checked = false;     // its body has been checked (only such may be called)
};

/// A checked rule set. It owns the modules; every pointer into them stays
/// valid as long as the Program lives. Immutable after Check().
struct Program {
  std::vector<std::unique_ptr<syntax::Module>> modules;
  std::vector<ModuleTables> tables;  // one per module
  std::vector<RuleInfo> rules;       // sorted by id
  std::vector<ParamInfo> params;
  std::vector<UserFunction> functions;
  std::vector<Value> constants;  // enum members
  TypeTable schema;              // records, documents and enums of the rule set
};

struct CheckResult {
  std::unique_ptr<Program> program;  // null when there are errors
  Diagnostics diagnostics;
};

CheckResult Check(std::vector<std::unique_ptr<syntax::Module>> modules,
                  const SourceManager& sources);

/// Type-checks a standalone expression (`capops-lint eval`) against a
/// checked program: every param is visible, `plan` and `inventory` are the
/// fact roots. Fills `tables` (sized for `node_count`) and returns the
/// expression's type; errors go to `diagnostics`. May intern new types into
/// `program->schema`, so it must not run while the program is being evaluated.
TypeId CheckExpression(Program* program, syntax::Expr& expr, syntax::NodeId node_count,
                       const SourceManager& sources, ModuleTables* tables, uint32_t* slot_count,
                       Diagnostics* diagnostics);

}  // namespace capops::check
