// SPDX-License-Identifier: Apache-2.0
// The CPL abstract syntax tree.
//
// The parser (parser.h) builds it from the ANTLR parse tree; nothing here
// knows about ANTLR. Every node has a Span into its source file and an id
// unique within its Module, so later stages keep what they learn about a node
// (its resolved symbol, its type) in side tables keyed by id rather than in
// the tree.
//
// A rule reads top to bottom as a comprehension:
//
//   rule replacement_not_free {
//     for a in plan.allocations                 // Clause{kFor, "a", …}
//     let p = inventory.pools[a.pool]           // Clause{kLet, "p", …}
//     where p.role == production_replacement    // Clause{kWhere, "", …}
//     deny at a.pool "… '{p.id}' …"             // Emit
//   }
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/schema.h"
#include "engine/common/source.h"
#include "engine/common/value.h"

namespace capops::syntax {

using NodeId = uint32_t;

enum class ExprKind {
  kLiteral,      // literal
  kIdent,        // name
  kSelect,       // args[0].name
  kIndex,        // args[0][args[1]]
  kCall,         // name(args…), or args[0].name(args[1…]) when is_method
  kList,         // [args…]
  kMap,          // {args[0]: args[1], …}
  kSet,          // {args…}: a list without repeats
  kUnary,        // unary_op args[0]
  kBinary,       // args[0] binary_op args[1]
  kConditional,  // args[0] ? args[1] : args[2]
  kMacro,        // args[0].macro(name, args[1] [, args[2]])
  kHas,          // has(args[0]), args[0] a kSelect
  kOptSelect,    // args[0].?name: an optional, none when the field is absent
  kListIf,       // args[0] if args[1]: only as an element of a kList
  kLet,          // let name = args[0]; args[1]  (also CEL's cel.bind(name, args[0], args[1]))
};

enum class UnaryOp { kNot, kNegate };

enum class BinaryOp {
  kOr,
  kAnd,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kIn,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
};

/// Comprehension macros, as in CEL. `map` takes an optional filter:
/// `xs.map(x, pred, f)` has args {range, pred, f}. CPL adds `group`
/// (`xs.group(x, key)`: args {range, key}) and `timeline`
/// (`xs.timeline(x, windows, amount)`: args {range, windows, amount}).
enum class MacroKind { kAll, kExists, kExistsOne, kMap, kFilter, kGroup, kTimeline };

const char* UnaryOpText(UnaryOp op);
const char* BinaryOpText(BinaryOp op);
const char* MacroName(MacroKind kind);

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  NodeId id = 0;
  Span span;
  Value literal;     // kLiteral
  std::string name;  // kIdent, kSelect field, kCall function, kMacro and kLet variable
  Key field;         // kSelect: `name` as a map key
  UnaryOp unary_op = UnaryOp::kNot;
  BinaryOp binary_op = BinaryOp::kOr;
  MacroKind macro = MacroKind::kAll;
  bool is_method = false;  // kCall: args[0] is the receiver
  std::vector<std::unique_ptr<Expr>> args;
};
using ExprPtr = std::unique_ptr<Expr>;

/// A message with `{expr}` holes; literal braces are written `\{` and `\}`.
struct Template {
  struct Part {
    std::string text;  // literal text, when expr is null
    ExprPtr expr;      // a hole
  };
  Span span;
  std::vector<Part> parts;
};

struct Annotation {
  std::string name;               // without the `@`
  std::vector<std::string> args;  // strings unquoted, identifiers as written
  Span span;
};

enum class ClauseKind { kFor, kLet, kWhere };

struct Clause {
  ClauseKind kind = ClauseKind::kWhere;
  NodeId id = 0;    // the variable's binding, for kFor and kLet
  std::string var;  // empty for kWhere
  Span var_span;
  ExprPtr expr;
  Span span;
};

/// A `deny` or `warn` statement.
struct Emit {
  bool is_warn = false;
  ExprPtr when;  // optional guard
  ExprPtr at;    // optional: where in the facts the violation points
  Template message;
  std::string because;
  std::string fix;
  Span span;
};

struct Rule {
  std::string name;
  Span name_span;
  Span span;
  std::string doc;  // the `///` lines before it, joined with newlines
  std::vector<Annotation> annotations;
  std::vector<Clause> clauses;
  std::vector<Emit> emits;

  /// The first annotation with this name, or nullptr.
  const Annotation* FindAnnotation(std::string_view name) const;
};

/// `int`, `list<Pool>`, `map<string, bytes>`, `ref Pool` …
struct TypeRef {
  std::string name;
  std::vector<TypeRef> args;
  bool is_ref = false;  // `ref Name`
  Span span;
};

/// The bounds of a number field's values, `in 0.0..1.0`, both included.
struct FieldRange {
  NumberRange bounds;  // the literals as written, sign included; the checker types them
  Span low_span, high_span;
  Span span;  // from `in` to the last bound
};

/// A field of a record: `name: T`, `name?: T` or `name: T = literal`,
/// with `in low..high` after a number type.
struct FieldDecl {
  std::string name;
  Span name_span;
  std::string doc;
  bool optional = false;
  TypeRef type;
  std::optional<FieldRange> range;
  ExprPtr default_value;  // may be null
};

/// `record Name { … }`, or `document Name { … }` for a top-level fact kind.
struct RecordDecl {
  std::string name;
  Span name_span;
  std::string doc;
  bool is_document = false;
  std::vector<FieldDecl> fields;
  Span span;
};

/// `fn name(p: T, …): R = expr` — a pure helper; functions may only call
/// functions declared before them, so there is no recursion.
struct FunctionDecl {
  struct Param {
    std::string name;
    Span span;
    TypeRef type;
  };
  std::string name;
  Span name_span;
  std::string doc;
  std::vector<Param> params;
  TypeRef result;
  ExprPtr body;
  Span span;
};

struct Import {
  std::string package;
  Span span;
};

struct Param {
  std::string name;
  Span name_span;
  std::string doc;
  TypeRef type;
  ExprPtr default_value;
  Span span;
};

struct EnumDecl {
  struct Member {
    std::string name;
    Span span;
  };
  std::string name;
  Span name_span;
  std::string doc;
  std::vector<Member> members;
  Span span;
};

/// One expectation of a policy test:
///   expect CAP-ALC-001 at "allocations[a-explore].pool" count 1 message "replacement"
///   expect_none CAP-SUP-001
/// Without `count`, at least one matching finding; with it, exactly that many.
/// `at` is a fact selector (`allocations[a-x].pool`, `inventory.pools[p]`) or
/// `LINE:COL` in the first fact file.
struct TestExpectation {
  bool none = false;  // expect_none: no finding of the rule (at that place)
  std::string rule_id;
  std::string at;       // empty: anywhere
  int64_t count = -1;   // -1: at least one
  std::string message;  // a fragment every counted finding's message holds
  Span span;
};

/// `test "name" { facts "f.yaml"  expect … }` — a policy test. Tests live in
/// `*_test.cpl` files; the checker and the digest ignore them.
struct TestDecl {
  struct Facts {
    enum class Kind { kFile, kInventoryFile, kInlineYaml } kind = Kind::kFile;
    std::string value;  // a path relative to the test's file, or YAML text
    Span span;
  };
  std::string name;
  Span name_span;
  std::string doc;
  std::vector<Facts> facts;
  /// `param "name: value"`: a param's value for this test only (YAML text,
  /// a mapping of param names to values), as a config file would set it.
  struct ParamSetting {
    std::string yaml;
    Span span;
  };
  std::vector<ParamSetting> params;
  std::vector<TestExpectation> expectations;
  Span span;
};

struct Module {
  FileId file = kNoFile;
  std::string package;  // empty when the file has no `package` line
  std::vector<Import> imports;
  std::vector<RecordDecl> records;
  std::vector<FunctionDecl> functions;
  std::vector<Rule> rules;
  std::vector<Param> params;
  std::vector<EnumDecl> enums;
  std::vector<TestDecl> tests;  // policy tests (not part of the rule set)
  NodeId node_count = 0;        // ids are 0 … node_count-1
};

/// Calls `visit` on every expression node of a module (rules, params,
/// functions, field defaults, message holes), without recursion.
void ForEachExpr(const Module& module, const std::function<void(const Expr&)>& visit);

/// A compact, stable text form of an expression (for tests and traces).
std::string DumpExpr(const Expr& expr);
/// A text form of a whole module: declarations, clauses and expressions.
std::string DumpModule(const Module& module);
/// The canonical form of a module for the ruleset digest (canonical.cc):
/// every semantic part (package, imports, records, enums, functions, params,
/// rules with annotations, clauses, messages, because and fix), strings
/// quoted and escaped; no spans, no comments, no doc comments, no tests.
/// Two modules that differ only in layout or comments have the same form.
std::string CanonicalModule(const Module& module);
/// The canonical form of one expression, as CanonicalModule writes it: two
/// expressions that differ only in layout or comments have the same form.
std::string CanonicalExpr(const Expr& expr);

}  // namespace capops::syntax
